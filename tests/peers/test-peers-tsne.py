#!/usr/bin/python3
# test-peers-tsne.py — latent-cli's t-SNE against scikit-learn's TSNE
#
# SPDX-License-Identifier: GPL-3.0-or-later
#
# Usage: /usr/bin/python3 tests/peers/test-peers-tsne.py path/to/latent-cli
#
# On scikit-learn's handwritten digits (1,797 × 64, bundled with it) and on
# the first 3,000 Fashion-MNIST training images (when installed), Latent
# runs with its defaults on the OpenCL device and on the C reference path
# (digits: all 64 columns, so the exact repulsion; Fashion-MNIST: 50
# principal components first and the FFT repulsion); scikit-learn's TSNE
# runs with init="pca", learning_rate="auto" and perplexity 30 (Barnes–Hut)
# on the same input. Checks, for each of Latent's runs:
#   its KL divergence within 5 % of scikit-learn's (or below it);
#   trustworthiness (scikit-learn's, k = 10) within 0.01 of scikit-learn's
#   embedding's (or above it);
#   the trustworthiness Latent reports itself within 0.002 of
#   scikit-learn's for the same embedding (digits: every row is ranked);
#   the embedding centred, its rows those of the data (--csv).

import json
import os
import subprocess
import sys
import tempfile
import gzip
from pathlib import Path

SKIP = 77
FASHION_MNIST_DIR = Path(os.environ.get("LATENT_FASHION_MNIST_DIR") or "/usr/share/datasets/fashion-mnist")

try:
    import numpy as np
    from sklearn.datasets import load_digits
    from sklearn.decomposition import PCA
    from sklearn.manifold import TSNE, trustworthiness
except ImportError as e:
    print(f"test-peers-tsne: SKIP: NumPy and scikit-learn are needed ({e})")
    sys.exit(SKIP)

failures = []


def check(ok, what):
    print(("ok   " if ok else "FAIL ") + what)
    if not ok:
        failures.append(what)


def run_latent(cli, data, device, tmp, params=()):
    out = os.path.join(tmp, f"tsne-{device}.json")
    cmd = [cli, "run", "tsne", "--data", data, "--device", device, "--seed", "1", "--json", out]
    for p in params:
        cmd += ["--param", p]
    subprocess.run(cmd, check=True, stdout=subprocess.DEVNULL)
    return json.load(open(out))


def compare(name, cli, x, pcs, tmp, params=()):
    data = os.path.join(tmp, f"{name}.npy")
    np.save(data, x.astype(np.float32))
    peer = TSNE(n_components=2, perplexity=30, init="pca", learning_rate="auto", random_state=0)
    y_peer = peer.fit_transform(pcs)
    t_peer = trustworthiness(x, y_peer, n_neighbors=10)
    print(f"{name}: scikit-learn KL {peer.kl_divergence_:.4f}, trustworthiness {t_peer:.4f}")
    for device in ("auto", "off"):
        r = run_latent(cli, data, device, tmp, params)
        y = np.array(r["embedding"])
        t = trustworthiness(x, y, n_neighbors=10)
        print(f"{name} on {r['device']}: KL {r['kl_divergence']:.4f}, trustworthiness {t:.4f} "
              f"(its own estimate {r['trustworthiness']:.4f} from {r['trustworthiness_rows']} rows)")
        check(y.shape == x[:, :2].shape, f"{name} ({device}): one place per row")
        check(np.all(np.abs(y.mean(axis=0)) < 1e-3 * np.abs(y).max()), f"{name} ({device}): the embedding is centred")
        check(r["kl_divergence"] <= 1.05 * peer.kl_divergence_,
              f"{name} ({device}): KL {r['kl_divergence']:.4f} within 5 % of scikit-learn's {peer.kl_divergence_:.4f}")
        check(t >= t_peer - 0.01,
              f"{name} ({device}): trustworthiness {t:.4f} within 0.01 of scikit-learn's {t_peer:.4f}")
        if r["trustworthiness_rows"] == len(x) and r["input_columns"] == x.shape[1]:
            check(abs(r["trustworthiness"] - t) < 0.002,
                  f"{name} ({device}): its own trustworthiness {r['trustworthiness']:.4f} is scikit-learn's {t:.4f}")


def main():
    if len(sys.argv) != 2:
        print("usage: test-peers-tsne.py LATENT_CLI", file=sys.stderr)
        return 2
    cli = sys.argv[1]
    with tempfile.TemporaryDirectory() as tmp:
        digits = load_digits().data
        compare("digits", cli, digits, digits, tmp)
        images = FASHION_MNIST_DIR / "train-images-idx3-ubyte.gz"
        if images.exists():
            with gzip.open(images) as f:
                x = np.frombuffer(f.read(), dtype=np.uint8, offset=16).reshape(-1, 784)[:3000] / 255.0
            pcs = PCA(n_components=50, random_state=0).fit_transform(x)
            compare("fashion-mnist-3000", cli, x, pcs, tmp)
    if failures:
        print(f"{len(failures)} failed")
        return 1
    return 0


if __name__ == "__main__":
    sys.exit(main())
