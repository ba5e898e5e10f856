#!/usr/bin/python3
# bench-tsne.py — t-SNE on all 70,000 Fashion-MNIST images against openTSNE
# (the fastest CPU t-SNE) and, on a sample, scikit-learn, in the same run.
# Not a test.
#
# SPDX-License-Identifier: GPL-3.0-or-later
#
# Usage: /usr/bin/python3 tests/bench/bench-tsne.py BUILD_DIR [--rows N] [--no-pypi]
#
# The data: the training and test images, float32 in [0, 1], 70,000 × 784,
# written once as a .npy. Latent runs latent-cli run tsne with its defaults
# (50 principal components, perplexity 30, 750 iterations, exact neighbours,
# FFT-interpolated repulsion). openTSNE 1.0.4 (PyPI, in the peers venv) gets
# the same 50 principal components (scikit-learn's PCA) and its defaults
# (Annoy neighbours, FFT repulsion, 250 + 500 iterations), n_jobs = the
# CPUs. Each reports its final KL divergence (openTSNE's own estimate), and
# scikit-learn's trustworthiness (k = 10) of both embeddings is taken on the
# same 5,000 rows in the 784 pixels. Latent's time to openTSNE's KL is read
# off its per-iteration record (start plus the steps to the first iteration
# at or below it). Prints JSON lines; the last is the summary.

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


OPENTSNE = r"""
import json, sys, time, numpy as np, os
from sklearn.decomposition import PCA
import openTSNE
x = np.load(sys.argv[1])
t0 = time.perf_counter()
pcs = PCA(n_components=50, random_state=0).fit_transform(x)
t1 = time.perf_counter()
emb = openTSNE.TSNE(n_jobs=os.cpu_count(), random_state=0, verbose=False).fit(pcs)
t2 = time.perf_counter()
np.save(sys.argv[2], np.asarray(emb, dtype=np.float32))
print(json.dumps({"version": openTSNE.__version__, "pca_s": t1 - t0, "tsne_s": t2 - t1,
                  "kl_divergence": float(emb.kl_divergence)}))
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
        result = os.path.join(tmp, "tsne.json")
        t0 = time.perf_counter()
        subprocess.run([cli, "run", "tsne", "--data", data, "--seed", "1", "--json", result], check=True,
                       stdout=subprocess.DEVNULL)
        wall = time.perf_counter() - t0
        r = json.load(open(result))
        y = np.array(r["embedding"], dtype=np.float32)
        latent = {"bench": "tsne", "implementation": "latent", "device": r["device"], "rows": n,
                  "wall_s": wall, "init_s": r["timings"]["init_ms"] / 1000, "total_s": r["timings"]["total_ms"] / 1000,
                  "kl_divergence": r["kl_divergence"], "trustworthiness_own": r["trustworthiness"],
                  "trustworthiness": trustworthiness(x[sample], y[sample], n_neighbors=10)}
        print(json.dumps(latent), flush=True)

        peer = None
        py = None if args.no_pypi else peers_python()
        if py:
            out = os.path.join(tmp, "opentsne.npy")
            t0 = time.perf_counter()
            p = subprocess.run([py, "-c", OPENTSNE, data, out], check=True, capture_output=True, text=True,
                               env={k: v for k, v in os.environ.items()
                                    if k not in ("OPENBLAS_CORETYPE", "OPENBLAS_L2_SIZE")})
            wall = time.perf_counter() - t0
            peer = json.loads(p.stdout.strip().splitlines()[-1])
            yo = np.load(out)
            peer.update({"bench": "tsne", "implementation": "opentsne", "rows": n, "wall_s": wall,
                         "trustworthiness": trustworthiness(x[sample], yo[sample], n_neighbors=10)})
            print(json.dumps(peer), flush=True)

        summary = {"bench": "tsne-summary", "rows": n, "latent_s": latent["total_s"],
                   "latent_kl": latent["kl_divergence"], "latent_trust": latent["trustworthiness"]}
        if peer:
            target = peer["kl_divergence"]
            steps = r["timings"]["iteration_ms"]
            objective = r["history"]
            reached = None
            elapsed = r["timings"]["init_ms"]
            for i, ms in enumerate(steps):
                elapsed += ms
                if i < len(objective) and objective[i] is not None and objective[i] <= target:
                    reached = elapsed / 1000
                    break
            peer_s = peer["pca_s"] + peer["tsne_s"]
            summary.update({"opentsne_s": peer_s, "opentsne_kl": target, "opentsne_trust": peer["trustworthiness"],
                            "latent_s_to_opentsne_kl": reached,
                            "speedup_total": peer_s / latent["total_s"],
                            "speedup_to_same_kl": peer_s / reached if reached else None,
                            "kl_ratio": latent["kl_divergence"] / target,
                            "trust_difference": latent["trustworthiness"] - peer["trustworthiness"]})
        print(json.dumps(summary), flush=True)


if __name__ == "__main__":
    main()
