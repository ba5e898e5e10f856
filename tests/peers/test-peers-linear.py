#!/usr/bin/python3
# test-peers-linear.py — latent-cli's PCA, probabilistic PCA and factor
# analysis against scikit-learn's PCA and FactorAnalysis
#
# SPDX-License-Identifier: GPL-3.0-or-later
#
# Usage: /usr/bin/python3 tests/peers/test-peers-linear.py path/to/latent-cli
#
# On Iris and on a Fashion-MNIST subset, with OpenCL and with the C
# reference:
#   PCA: the largest principal angle between our components and
#        scikit-learn's below 1e-3 rad; each explained-variance ratio within
#        1e-4; the score (PPCA log-likelihood) within 1e-4 relative;
#   FA:  a maximum at least as high as scikit-learn's, where scikit-learn
#        started from our noise variances agrees: mean log-likelihood within
#        1e-3 relative, noise variances within 1 %. On Fashion-MNIST only
#        the pixels whose variance is at least 5 % of the mean (720 of 784):
#        a constant pixel's noise variance goes to zero, the likelihood
#        grows without bound there, and its value is the floor each program
#        puts under ψ (scikit-learn 1e-12, Latent 1e-6 of the mean).
#   PPCA: σ² and W Wᵀ against the closed-form maximum-likelihood solution
#        from NumPy's eigenvalues.
# Exit 0 on success, 1 on a failed comparison, 77 (skip) without
# scikit-learn.

import gzip
import json
import os
import struct
import subprocess
import sys
import tempfile
import warnings
from pathlib import Path

SKIP = 77
SOURCE_ROOT = Path(__file__).resolve().parents[2]
IRIS_CSV = SOURCE_ROOT / "data" / "iris.csv"
FASHION_MNIST_DIR = Path(os.environ.get("LATENT_FASHION_MNIST_DIR") or "/usr/share/datasets/fashion-mnist")

try:
    import numpy as np
    from sklearn.decomposition import PCA, FactorAnalysis
except ImportError as e:
    print(f"test-peers-linear: SKIP: scikit-learn and NumPy are needed ({e})")
    sys.exit(SKIP)

ANGLE_MAX = 1e-3
RATIO_ABS_MAX = 1e-4
SCORE_REL_MAX = 1e-4
FA_LL_REL_MAX = 1e-3
FA_PSI_REL_MAX = 0.01


def load_iris():
    rows = [line.split(",")[:4] for line in IRIS_CSV.read_text().splitlines()[1:] if line]
    return np.array(rows, dtype=np.float64)


def fmnist_subset(rows, tmp):
    """The first ROWS training images, as an IDX file for latent-cli and as
    the same float values for scikit-learn; None when not installed."""
    path = FASHION_MNIST_DIR / "train-images-idx3-ubyte.gz"
    if not path.exists():
        return None, None
    with gzip.open(path) as f:
        raw = np.frombuffer(f.read(), np.uint8, offset=16).reshape(-1, 784)[:rows]
    out = tmp / f"fmnist-{rows}.idx"
    out.write_bytes(struct.pack(">IIII", 0x803, rows, 28, 28) + raw.tobytes())
    # latent-cli reads bytes as float32 v / 255: give scikit-learn the same.
    return out, (raw.astype(np.float32) / np.float32(255)).astype(np.float64)


def run(cli, algorithm, data, params, device, result):
    cmd = [cli, "run", algorithm, "--data", str(data), "--device", device, "--json", str(result)]
    for p in params:
        cmd += ["--param", p]
    p = subprocess.run(cmd, capture_output=True, text=True, timeout=900)
    if p.returncode != 0:
        raise AssertionError(f"{' '.join(cmd)} failed: {p.stderr}")
    return json.loads(result.read_text())


def largest_angle(a, b):
    """Largest principal angle between the row spaces of a and b (radians),
    from the sines: cosines near 1 would lose it to rounding."""
    qa, _ = np.linalg.qr(np.asarray(a, np.float64).T)
    qb, _ = np.linalg.qr(np.asarray(b, np.float64).T)
    residual = qb - qa @ (qa.T @ qb)
    return float(np.arcsin(min(1.0, np.linalg.norm(residual, 2))))


def check(failures, label, ok, detail):
    print(f"{'ok  ' if ok else 'FAIL'} {label}: {detail}")
    if not ok:
        failures.append(label)


def compare_pca(failures, cli, tmp, name, data, x, m, device, method="exact"):
    ours = run(cli, "pca", data, [f"components={m}", f"method={method}", "tol=1e-7"], device,
               tmp / f"pca-{name}-{device}-{method}.json")
    theirs = PCA(m, svd_solver="full").fit(x)
    angle = largest_angle(ours["components"], theirs.components_)
    ratio = np.max(np.abs(np.array(ours["explained_variance_ratio"]) - theirs.explained_variance_ratio_))
    score = theirs.score(x)
    rel = abs(ours["log_likelihood"] - score) / abs(score)
    label = f"PCA {name} m={m} {method} {device}"
    check(failures, label + " angle", angle < ANGLE_MAX, f"{angle:.2e} rad")
    check(failures, label + " ratio", ratio < RATIO_ABS_MAX, f"largest difference {ratio:.2e}")
    check(failures, label + " score", rel < SCORE_REL_MAX,
          f"{ours['log_likelihood']:.8f} vs {score:.8f} ({rel:.1e})")


def compare_fa(failures, cli, tmp, name, data, x, m, device):
    """Factor analysis has local maxima, and EM from a random start and
    scikit-learn's SVD iteration from ψ = 1 need not find the same one (on
    the Fashion-MNIST subset EM finds a higher one). So: our maximum must be
    at least as high as scikit-learn's, and it must be a maximum of
    scikit-learn's too: started from our noise variances, scikit-learn stays
    there (log-likelihood within 1e-3, every ψ within 1 %)."""
    ours = run(cli, "fa", data, [f"components={m}", "tol=1e-10", "max-iterations=50000"], device,
               tmp / f"fa-{name}-{device}.json")
    psi = np.array(ours["noise_variance"])
    with warnings.catch_warnings():
        warnings.simplefilter("ignore")
        free = FactorAnalysis(m, tol=1e-10, max_iter=50000, svd_method="lapack").fit(x)
        there = FactorAnalysis(m, tol=1e-10, max_iter=50000, svd_method="lapack",
                               noise_variance_init=psi).fit(x)
    label = f"FA {name} m={m} {device}"
    free_score = free.score(x)
    check(failures, label + " as high as scikit-learn's", ours["log_likelihood"] >= free_score - FA_LL_REL_MAX * abs(free_score),
          f"{ours['log_likelihood']:.6f} after {ours['iterations']} iterations, scikit-learn {free_score:.6f} "
          f"after {free.n_iter_}")
    score = there.score(x)
    rel = abs(ours["log_likelihood"] - score) / abs(score)
    # A Heywood column (ψ → 0: the factors explain it entirely, as petal
    # length on Iris) has no noise to compare: both sides drift to their floor.
    live = there.noise_variance_ >= 1e-3 * x.var(axis=0)
    worst = float(np.max(np.abs(psi[live] - there.noise_variance_[live]) / there.noise_variance_[live]))
    check(failures, label + " log-likelihood", rel < FA_LL_REL_MAX,
          f"{ours['log_likelihood']:.6f} vs {score:.6f} ({rel:.1e}), scikit-learn started at our ψ")
    check(failures, label + " noise", worst < FA_PSI_REL_MAX,
          f"largest relative difference {worst:.1e} over {int(live.sum())} columns "
          f"({len(psi) - int(live.sum())} Heywood)")


def compare_ppca(failures, cli, tmp, name, data, x, m, device):
    ours = run(cli, "ppca", data, [f"components={m}", "tol=1e-11", "max-iterations=50000"], device,
               tmp / f"ppca-{name}-{device}.json")
    values, vectors = np.linalg.eigh(np.cov(x, rowvar=False, bias=True))
    values, vectors = values[::-1], vectors[:, ::-1]
    sigma2 = values[m:].mean()
    expect = vectors[:, :m] @ np.diag(values[:m] - sigma2) @ vectors[:, :m].T
    w = np.array(ours["components"])
    got = w.T @ w
    label = f"PPCA {name} m={m} {device}"
    rel = abs(ours["noise_variance"] - sigma2) / sigma2
    check(failures, label + " sigma2", rel < 1e-3, f"{ours['noise_variance']:.6g} vs {sigma2:.6g} ({rel:.1e})")
    err = np.max(np.abs(got - expect)) / values[0]
    check(failures, label + " W Wᵀ", err < 1e-3, f"largest difference / λ₁ {err:.1e}")


def main():
    if len(sys.argv) != 2:
        print(__doc__ or "usage: test-peers-linear.py LATENT_CLI", file=sys.stderr)
        return 2
    cli = sys.argv[1]
    failures = []
    with tempfile.TemporaryDirectory() as d:
        tmp = Path(d)
        iris = load_iris()
        for device in ("auto", "off"):
            for m in (1, 2, 3):
                compare_pca(failures, cli, tmp, "iris", IRIS_CSV, iris, m, device)
            compare_pca(failures, cli, tmp, "iris", IRIS_CSV, iris, 2, device, "iterative")
            compare_fa(failures, cli, tmp, "iris", IRIS_CSV, iris, 1, device)
            compare_ppca(failures, cli, tmp, "iris", IRIS_CSV, iris, 2, device)

        data, x = fmnist_subset(2000, tmp)
        if data is None:
            print("Fashion-MNIST is not installed: Iris only")
        else:
            var = x.var(axis=0)
            keep = var >= 0.05 * var.mean()
            varying = tmp / "fmnist-2000-varying.csv"
            np.savetxt(varying, x[:, keep], delimiter=",", fmt="%.9g")
            for device in ("auto", "off"):
                compare_pca(failures, cli, tmp, "fmnist-2000", data, x, 20, device)
                compare_fa(failures, cli, tmp, "fmnist-2000-varying", varying, x[:, keep], 5, device)
                compare_ppca(failures, cli, tmp, "fmnist-2000", data, x, 5, device)
            compare_pca(failures, cli, tmp, "fmnist-2000", data, x, 10, "auto", "iterative")
    if failures:
        print(f"{len(failures)} comparisons failed: {', '.join(failures)}")
        return 1
    return 0


if __name__ == "__main__":
    sys.exit(main())
