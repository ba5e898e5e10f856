#!/usr/bin/python3
# bench-umap.py — UMAP on all 70,000 Fashion-MNIST images against umap-learn
# in the same run. Not a test.
#
# SPDX-License-Identifier: GPL-3.0-or-later
#
# Usage: /usr/bin/python3 tests/bench/bench-umap.py BUILD_DIR [--rows N] [--no-pypi]
#
# The data: the training and test images, float32 in [0, 1], 70,000 × 784,
# written once as a .npy. Latent runs latent-cli run umap with its defaults
# (50 principal components, 15 neighbours, 200 epochs, the principal
# components as the start). umap-learn (PyPI, in the peers venv) gets the
# same 50 principal components (scikit-learn's PCA) and its defaults
# (NN-descent, the spectral start, 200 epochs for this many rows), with
# every CPU (no random_state, which would make it single-threaded); it runs
# twice and the second run is timed, so numba's compilation is left out.
# Each reports its seconds, and scikit-learn's trustworthiness (k = 10) of
# both embeddings is taken on the same 5,000 rows in the 784 pixels. Prints
# JSON lines; the last is the summary.

import argparse
import json
import os
import subprocess
import sys
import tempfile
import time
from pathlib import Path

import numpy as np

sys.path.insert(0, str(Path(__file__).resolve().parent))
from bench_machine import fashion_mnist_all, machine_record, peers_python  # noqa: E402

TRUST_ROWS = 5000


UMAP_LEARN = r"""
import json, sys, time, numpy as np, os
from sklearn.decomposition import PCA
import umap
x = np.load(sys.argv[1])
t0 = time.perf_counter()
pcs = PCA(n_components=50, random_state=0).fit_transform(x)
t1 = time.perf_counter()
umap.UMAP(n_jobs=os.cpu_count()).fit_transform(pcs[:2000])
t2 = time.perf_counter()
emb = umap.UMAP(n_jobs=os.cpu_count()).fit_transform(pcs)
t3 = time.perf_counter()
np.save(sys.argv[2], np.asarray(emb, dtype=np.float32))
print(json.dumps({"version": umap.__version__, "pca_s": t1 - t0, "umap_s": t3 - t2}))
"""


def main():
    parser = argparse.ArgumentParser()
    parser.add_argument("build")
    parser.add_argument("--rows", type=int, default=70000)
    parser.add_argument("--no-pypi", action="store_true")
    args = parser.parse_args()
    cli = os.path.join(args.build, "app", "latent-cli")
    x = fashion_mnist_all()[: args.rows]
    n = len(x)
    print(json.dumps(machine_record(rows=n)), flush=True)
    from sklearn.manifold import trustworthiness
    sample = np.linspace(0, n - 1, min(TRUST_ROWS, n)).astype(int)

    with tempfile.TemporaryDirectory() as tmp:
        data = os.path.join(tmp, "fmnist.npy")
        np.save(data, x)
        result = os.path.join(tmp, "umap.json")
        t0 = time.perf_counter()
        subprocess.run([cli, "run", "umap", "--data", data, "--seed", "1", "--json", result], check=True,
                       stdout=subprocess.DEVNULL)
        wall = time.perf_counter() - t0
        r = json.load(open(result))
        y = np.array(r["embedding"], dtype=np.float32)
        latent = {"bench": "umap", "implementation": "latent", "device": r["device"], "rows": n,
                  "wall_s": wall, "init_s": r["timings"]["init_ms"] / 1000, "total_s": r["timings"]["total_ms"] / 1000,
                  "trustworthiness_own": r["trustworthiness"],
                  "trustworthiness": trustworthiness(x[sample], y[sample], n_neighbors=10)}
        print(json.dumps(latent), flush=True)

        peer = None
        py = None if args.no_pypi else peers_python()
        if py:
            out = os.path.join(tmp, "umap-learn.npy")
            p = subprocess.run([py, "-c", UMAP_LEARN, data, out], check=True, capture_output=True, text=True,
                               env={k: v for k, v in os.environ.items()
                                    if k not in ("OPENBLAS_CORETYPE", "OPENBLAS_L2_SIZE")})
            peer = json.loads(p.stdout.strip().splitlines()[-1])
            yo = np.load(out)
            peer.update({"bench": "umap", "implementation": "umap-learn", "rows": n,
                         "trustworthiness": trustworthiness(x[sample], yo[sample], n_neighbors=10)})
            print(json.dumps(peer), flush=True)

        summary = {"bench": "umap-summary", "rows": n, "latent_s": latent["total_s"],
                   "latent_trust": latent["trustworthiness"]}
        if peer:
            peer_s = peer["pca_s"] + peer["umap_s"]
            summary.update({"umap_learn_s": peer_s, "umap_learn_trust": peer["trustworthiness"],
                            "speedup": peer_s / latent["total_s"],
                            "trust_difference": latent["trustworthiness"] - peer["trustworthiness"]})
        print(json.dumps(summary), flush=True)


if __name__ == "__main__":
    main()
