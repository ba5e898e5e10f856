#!/usr/bin/python3
# bench-pca.py — PCA and factor analysis on Fashion-MNIST against NumPy and
# scikit-learn in the same run. Not a test.
#
# SPDX-License-Identifier: GPL-3.0-or-later
#
# Usage: /usr/bin/python3 tests/bench/bench-pca.py BUILD_DIR [--repeat N] [--no-pypi]
#
# PCA: the training set, 60,000 × 784 float32, to 50 components. Latent's
# time is initialisation plus the one exact step (moments on the device,
# top-50 eigenproblem on the host) from latent-bench. The peers fit the same
# float32 array already in memory:
#   numpy-eigh:  centre, Xc.T @ Xc, eigh (the route scikit-learn >= 1.5 takes
#                by default for this shape), Debian's NumPy and PyPI's;
#   sklearn-randomized, sklearn-full: Debian's scikit-learn PCA;
#   sklearn-default: the current scikit-learn from PyPI, its default solver;
#   sklearnex-full, sklearnex-default: the same with Intel's extension
#                (scikit-learn-intelex, oneDAL) patched in, when the venv has it:
#                oneDAL's covariance method, the fastest CPU PCA we know.
# Every peer line names the BLAS (and OpenMP) threadpoolctl finds loaded.
# Each reports the explained-variance ratio of its 50 components, so the
# answers can be seen to match.
#
# Factor analysis: the first 10,000 training images, 10 factors. Each
# scikit-learn FactorAnalysis (Debian's and PyPI's, both SVD methods) fits
# with its defaults and reports its time and its mean log-likelihood per
# row; Latent runs once to convergence and its time to each peer's
# likelihood is read off the engine's own per-iteration record
# (initialisation plus the steps up to the first iteration at or above it).
# Per-iteration times are not comparable: the methods need different
# numbers of iterations.
#
# Prints JSON lines; the last one is the summary with the ratios to the
# fastest peer.

import argparse
import json
import os
import statistics
import subprocess
import sys
from pathlib import Path

sys.path.insert(0, str(Path(__file__).resolve().parent))
from bench_machine import machine_record, peers_python  # noqa: E402

ROOT = Path(__file__).resolve().parents[2]
COMPONENTS, FACTORS, FA_ROWS = 50, 10, 10000

PEER_SCRIPT = r"""
import gzip, json, os, statistics, sys, time, warnings
import numpy as np
import sklearn
from sklearn.decomposition import PCA, FactorAnalysis

which, repeat, components, factors, fa_rows = sys.argv[1], int(sys.argv[2]), int(sys.argv[3]), int(sys.argv[4]), int(sys.argv[5])
try:
    import sklearnex
except ImportError:
    sklearnex = None

# bench_machine's folder, where this script's driver lives.
sys.path.insert(0, sys.argv[6])
from bench_machine import threadpools as pools
path = os.environ.get("LATENT_FASHION_MNIST_DIR", "/usr/share/datasets/fashion-mnist")
with gzip.open(os.path.join(path, "train-images-idx3-ubyte.gz")) as f:
    x = (np.frombuffer(f.read(), np.uint8, offset=16).reshape(-1, 784).astype(np.float32) / np.float32(255))

def timed(fit):
    fit()
    times = []
    for _ in range(repeat):
        t = time.perf_counter()
        out = fit()
        times.append(time.perf_counter() - t)
    return statistics.median(times) * 1000, out

def eigh_route():
    xc = x - x.mean(axis=0)
    w, v = np.linalg.eigh(xc.T @ xc)
    return float(w[::-1][:components].sum() / w.sum())

def sklearn_fit(solver):
    def fit():
        p = PCA(components, svd_solver=solver, random_state=0).fit(x)
        return float(p.explained_variance_ratio_.sum())
    return fit

cases = [("numpy-eigh", eigh_route)]
if which == "debian":
    cases += [("sklearn-randomized", sklearn_fit("randomized")), ("sklearn-full", sklearn_fit("full"))]
else:
    cases += [("sklearn-default", sklearn_fit("auto"))]
for name, fit in cases:
    ms, ratio = timed(fit)
    print(json.dumps({"bench": "pca", "impl": f"{name}-{which}", "numpy": np.__version__,
                      "sklearn": sklearn.__version__, "ms": ms, "explained_variance_ratio": ratio,
                      "pools": pools()}), flush=True)
if sklearnex is not None:
    # The extension's own estimator: stock scikit-learn stays unpatched.
    from sklearnex.decomposition import PCA as ExPCA
    for name, solver in (("sklearnex-full", "full"), ("sklearnex-default", "auto")):
        def fit(solver=solver):
            p = ExPCA(components, svd_solver=solver, random_state=0).fit(x)
            return float(p.explained_variance_ratio_.sum())
        ms, ratio = timed(fit)
        print(json.dumps({"bench": "pca", "impl": f"{name}-{which}", "sklearnex": getattr(sklearnex, "__version__", None),
                          "sklearn": sklearn.__version__, "ms": ms, "explained_variance_ratio": ratio,
                          "pools": pools()}), flush=True)

xf = x[:fa_rows]
for method in ("randomized", "lapack"):
    def fit():
        return FactorAnalysis(factors, svd_method=method, random_state=0).fit(xf)
    ms, fa = timed(fit)
    print(json.dumps({"bench": "fa", "impl": f"sklearn-{method}-{which}", "sklearn": sklearn.__version__,
                      "ms": ms, "iterations": int(fa.n_iter_), "score": float(fa.score(xf))}), flush=True)
"""


def peer_env():
    env = dict(os.environ)
    env.pop("OPENBLAS_CORETYPE", None)
    env.pop("OPENBLAS_L2_SIZE", None)
    return env


def lines(text):
    return [json.loads(l) for l in text.splitlines() if l.startswith("{")]


def latent(bench, args, repeat):
    cmd = [str(bench)] + args + ["--repeat", str(repeat)]
    p = subprocess.run(cmd, capture_output=True, text=True, check=True)
    return lines(p.stdout)


def time_to(run, score):
    """Initialisation plus the steps up to the first objective ≥ score;
    None when the run never gets there."""
    ms = run["init_ms"]
    for objective, step_ms in run["history"]:
        ms += step_ms
        if objective >= score:
            return ms
    return None


def main():
    parser = argparse.ArgumentParser()
    parser.add_argument("build_dir")
    parser.add_argument("--repeat", type=int, default=5)
    parser.add_argument("--no-pypi", action="store_true")
    args = parser.parse_args()
    print(json.dumps(machine_record(**vars(args))), flush=True)
    bench = Path(args.build_dir) / "tests" / "bench" / "latent-bench"
    results = []

    # One warm-up run builds and caches the kernels. Latent runs before the
    # peers and again after them, so a change in the machine's load shows
    # on both sides of the ratio.
    pca_args = ["pca", "--data", "fashion-mnist", "--param", f"components={COMPONENTS}", "--iterations", "1"]
    latent(bench, pca_args, 1)
    pca_runs = latent(bench, pca_args, args.repeat)

    fa_runs = latent(bench, ["fa", "--data", f"fashion-mnist:n={FA_ROWS}", "--param", f"components={FACTORS}",
                             "--param", "tol=0", "--iterations", "60"], args.repeat)
    fa = {"bench": "fa", "impl": "latent-opencl", "init_ms": statistics.median(r["init_ms"] for r in fa_runs),
          "iteration_ms": statistics.median(r["iteration_ms_median"] for r in fa_runs),
          "score": fa_runs[0]["objective"]}
    print(json.dumps(fa), flush=True)
    results.append(fa)

    peers = [("debian", "/usr/bin/python3")]
    if not args.no_pypi and peers_python():
        peers.append(("pypi", peers_python()))
    for which, python in peers:
        p = subprocess.run([python, "-c", PEER_SCRIPT, which, str(args.repeat), str(COMPONENTS), str(FACTORS),
                            str(FA_ROWS), str(Path(__file__).resolve().parent)],
                           capture_output=True, text=True, env=peer_env())
        if p.returncode != 0:
            print(f"bench-pca: {which} peers failed: {p.stderr[-2000:]}", file=sys.stderr)
            continue
        for line in lines(p.stdout):
            print(json.dumps(line), flush=True)
            results.append(line)

    pca_runs += latent(bench, pca_args, args.repeat)
    ours = {"bench": "pca", "impl": "latent-opencl", "ms": statistics.median(r["total_ms"] for r in pca_runs),
            "init_ms": statistics.median(r["init_ms"] for r in pca_runs),
            "runs_ms": [r["total_ms"] for r in pca_runs], "explained_variance_ratio": pca_runs[0]["objective"]}
    print(json.dumps(ours), flush=True)
    results.append(ours)

    pca_peers = [r for r in results if r["bench"] == "pca" and not r["impl"].startswith("latent")]
    fa_peers = [r for r in results if r["bench"] == "fa" and not r["impl"].startswith("latent")]
    summary = {"summary": True}
    if pca_peers:
        best = min(pca_peers, key=lambda r: r["ms"])
        summary["pca"] = {"latent_ms": ours["ms"], "best_peer": best["impl"], "best_peer_ms": best["ms"],
                          "speedup": best["ms"] / ours["ms"],
                          "speedups": {r["impl"]: r["ms"] / ours["ms"] for r in pca_peers}}
    if fa_peers:
        # Latent's time to each peer's likelihood, the median over its runs.
        # A peer whose likelihood Latent never reached gets no ratio (None).
        def ratio(peer):
            return peer["ms"] / peer["latent_ms"] if peer["latent_ms"] else None

        for peer in fa_peers:
            times = [time_to(r, peer["score"]) for r in fa_runs]
            peer["latent_ms"] = None if None in times else statistics.median(times)
        best = min(fa_peers, key=lambda r: r["ms"])
        summary["fa"] = {"best_peer": best["impl"], "best_peer_ms": best["ms"], "best_peer_score": best["score"],
                         "latent_ms_to_its_score": best["latent_ms"], "speedup": ratio(best),
                         "speedups": {r["impl"]: ratio(r) for r in fa_peers}}
    print(json.dumps(summary), flush=True)
    return 0


if __name__ == "__main__":
    sys.exit(main())
