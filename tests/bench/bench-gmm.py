#!/usr/bin/python3
# bench-gmm.py — GMM-EM on Fashion-MNIST projected to 16 dimensions, K = 10,
# full covariances, against scikit-learn in the same run. Not a test.
#
# SPDX-License-Identifier: GPL-3.0-or-later
#
# Usage: /usr/bin/python3 tests/bench/bench-gmm.py BUILD_DIR [--repeat N]
#
# Everyone starts from the same model (scikit-learn after one EM iteration,
# saved as JSON) with tol = 0; time per iteration is (t25 − t5) / 20 from the
# medians. Peers: Debian's scikit-learn (/usr/bin/python3) and the current one
# from PyPI (tests/peers/setup-venv.sh), which fits in float32 when given
# float32 data. Prints JSON lines; the last is the summary.

import argparse
import gzip
import json
import os
import statistics
import subprocess
import sys
import tempfile
import warnings
from pathlib import Path

import numpy as np
from sklearn.decomposition import PCA
from sklearn.mixture import GaussianMixture
sys.path.insert(0, str(Path(__file__).resolve().parent))
from bench_machine import machine_record  # noqa: E402

ROOT = Path(__file__).resolve().parents[2]
K, DIMS, COUNTS = 10, 16, (5, 25)


def peer_env():
    env = dict(os.environ)
    env.pop("OPENBLAS_CORETYPE", None)
    env.pop("OPENBLAS_L2_SIZE", None)
    return env


def lines(text):
    return [json.loads(l) for l in text.splitlines() if l.startswith("{")]


def main():
    parser = argparse.ArgumentParser()
    parser.add_argument("build_dir")
    parser.add_argument("--repeat", type=int, default=5)
    parser.add_argument("--no-pypi", action="store_true")
    args = parser.parse_args()
    print(json.dumps(machine_record(**vars(args))), flush=True)
    # The one-iteration fit that makes the common start warns about stopping.
    warnings.filterwarnings("ignore", module="sklearn")

    with gzip.open("/usr/share/datasets/fashion-mnist/train-images-idx3-ubyte.gz") as f:
        pixels = np.frombuffer(f.read(), np.uint8, offset=16).reshape(-1, 784)
    x = PCA(DIMS, random_state=0).fit_transform(pixels.astype(np.float32) / np.float32(255)).astype(np.float32)
    gm = GaussianMixture(K, covariance_type="full", max_iter=1, random_state=0).fit(x)

    results = {}
    with tempfile.TemporaryDirectory() as d:
        tmp = Path(d)
        np.save(tmp / "x.npy", x)
        np.savetxt(tmp / "x.csv", x, delimiter=",", fmt="%.9g")
        (tmp / "start.json").write_text(json.dumps({"means": gm.means_.tolist(),
                                                     "covariances": gm.covariances_.tolist(),
                                                     "weights": gm.weights_.tolist()}))
        ours = subprocess.run([f"{args.build_dir}/tests/bench/latent-bench", "gmm", "--data", str(tmp / "x.csv"),
                               "--k", str(K), "--init", f"@{tmp / 'start.json'}",
                               "--iterations", ",".join(map(str, COUNTS)), "--repeat", str(args.repeat)],
                              capture_output=True, text=True, check=True)
        runs = lines(ours.stdout)
        med = {c: statistics.median(r["total_ms"] for r in runs if r["iterations"] == c) for c in COUNTS}
        results["latent-opencl"] = (med[25] - med[5]) / 20
        print(json.dumps({"bench": "gmm", "impl": "latent-opencl", "per_iteration_ms": results["latent-opencl"],
                          "log_likelihood": runs[-1]["objective"]}))

        pythons = [("debian", "/usr/bin/python3")]
        venv = Path(os.environ.get("LATENT_PEERS_VENV", Path.home() / ".cache/latent/peers-venv")) / "bin/python"
        if not args.no_pypi and venv.exists():
            pythons.append(("pypi", str(venv)))
        for flavour, python in pythons:
            out = subprocess.run([python, str(ROOT / "tests/bench/sklearn_gmm.py"), "--data", str(tmp / "x.npy"),
                                  "--start", str(tmp / "start.json"), "--k", str(K),
                                  "--iterations", ",".join(map(str, COUNTS)), "--repeat", str(args.repeat)],
                                 capture_output=True, text=True, check=True, env=peer_env())
            rec = {r["iterations"]: r for r in lines(out.stdout)}
            name = f"{rec[5]['impl']}-{flavour}"
            results[name] = (rec[25]["median_ms"] - rec[5]["median_ms"]) / 20
            print(json.dumps({"bench": "gmm", "impl": name, "per_iteration_ms": results[name],
                              "log_likelihood": rec[25]["log_likelihood"]}))

    peers = {k: v for k, v in results.items() if k.startswith("sklearn")}
    best = min(peers, key=peers.get)
    print(json.dumps({"bench": "gmm-summary", "n": len(x), "d": DIMS, "k": K,
                      "latent_ms": results["latent-opencl"], "best_peer": best, "best_peer_ms": peers[best],
                      "speedup": peers[best] / results["latent-opencl"]}))


if __name__ == "__main__":
    sys.exit(main())
