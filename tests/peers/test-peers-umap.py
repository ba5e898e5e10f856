#!/usr/bin/python3
# test-peers-umap.py — latent-cli's UMAP against umap-learn
#
# SPDX-License-Identifier: GPL-3.0-or-later
#
# Usage: /usr/bin/python3 tests/peers/test-peers-umap.py path/to/latent-cli
#
# umap-learn is not in Debian: it runs in the peers venv, which
# tests/peers/setup-venv.sh makes when it is missing (from PyPI). On
# scikit-learn's handwritten digits (1,797 × 64) and on the first 3,000
# Fashion-MNIST training images (when installed), Latent runs with its
# defaults on the OpenCL device and on the C reference path (digits: all 64
# columns; Fashion-MNIST: 50 principal components first), and umap-learn
# with its defaults (spectral start; 500 epochs for this few rows, where
# Latent takes 200) on the same input. Checks, for each of Latent's runs:
#   trustworthiness (scikit-learn's, k = 10) within 0.01 of umap-learn's
#   (or above it);
#   the classes' neighbourhoods kept: the k = 10 nearest neighbours in the
#   embedding agree with the row's class at least as often as umap-learn's,
#   less 2 points;
#   one place per row, centred.

import json
import gzip
import os
import subprocess
import sys
import tempfile
from pathlib import Path

SKIP = 77
HERE = Path(__file__).resolve().parent
FASHION_MNIST_DIR = Path(os.environ.get("LATENT_FASHION_MNIST_DIR") or "/usr/share/datasets/fashion-mnist")

try:
    import numpy as np
    from sklearn.datasets import load_digits
    from sklearn.decomposition import PCA
    from sklearn.manifold import trustworthiness
    from sklearn.neighbors import KNeighborsClassifier
except ImportError as e:
    print(f"test-peers-umap: SKIP: NumPy and scikit-learn are needed ({e})")
    sys.exit(SKIP)

UMAP_LEARN = r"""
import sys, numpy as np, umap
x = np.load(sys.argv[1])
np.save(sys.argv[2], umap.UMAP(random_state=0).fit_transform(x).astype(np.float32))
"""

failures = []


def check(ok, what):
    print(("ok   " if ok else "FAIL ") + what)
    if not ok:
        failures.append(what)


def neighbour_agreement(y, labels):
    """How often a row's 10 nearest in the embedding share its class."""
    knn = KNeighborsClassifier(n_neighbors=11).fit(y, labels)
    idx = knn.kneighbors(y, return_distance=False)[:, 1:]
    return float(np.mean(labels[idx] == labels[:, None]))


def compare(name, cli, venv_python, x, pcs, labels, tmp):
    data = os.path.join(tmp, f"{name}.npy")
    peer_in = os.path.join(tmp, f"{name}-pcs.npy")
    peer_out = os.path.join(tmp, f"{name}-umap-learn.npy")
    np.save(data, x.astype(np.float32))
    np.save(peer_in, pcs.astype(np.float32))
    subprocess.run([venv_python, "-c", UMAP_LEARN, peer_in, peer_out], check=True,
                   stdout=subprocess.DEVNULL, stderr=subprocess.DEVNULL)
    y_peer = np.load(peer_out)
    t_peer = trustworthiness(x, y_peer, n_neighbors=10)
    a_peer = neighbour_agreement(y_peer, labels)
    print(f"{name}: umap-learn trustworthiness {t_peer:.4f}, neighbours of the same class {a_peer:.4f}")
    for device in ("auto", "off"):
        out = os.path.join(tmp, f"{name}-{device}.json")
        subprocess.run([cli, "run", "umap", "--data", data, "--device", device, "--seed", "1", "--json", out],
                       check=True, stdout=subprocess.DEVNULL)
        r = json.load(open(out))
        y = np.array(r["embedding"])
        t = trustworthiness(x, y, n_neighbors=10)
        a = neighbour_agreement(y, labels)
        print(f"{name} on {r['device']}: trustworthiness {t:.4f}, neighbours of the same class {a:.4f}")
        check(y.shape == (len(x), 2), f"{name} ({device}): one place per row")
        check(np.all(np.abs(y.mean(axis=0)) < 1e-3 * np.abs(y).max()), f"{name} ({device}): the embedding is centred")
        check(t >= t_peer - 0.01,
              f"{name} ({device}): trustworthiness {t:.4f} within 0.01 of umap-learn's {t_peer:.4f}")
        check(a >= a_peer - 0.02,
              f"{name} ({device}): neighbours of the same class {a:.4f}, umap-learn's {a_peer:.4f} less 0.02")


def main():
    if len(sys.argv) != 2:
        print("usage: test-peers-umap.py LATENT_CLI", file=sys.stderr)
        return 2
    cli = sys.argv[1]
    setup = subprocess.run(["sh", str(HERE / "setup-venv.sh")], capture_output=True, text=True)
    if setup.returncode != 0:
        print(setup.stderr)
        print("FAIL the peers venv (tests/peers/setup-venv.sh) could not be made")
        return 1
    venv_python = setup.stdout.strip().splitlines()[-1]
    with tempfile.TemporaryDirectory() as tmp:
        digits = load_digits()
        compare("digits", cli, venv_python, digits.data, digits.data, digits.target, tmp)
        images = FASHION_MNIST_DIR / "train-images-idx3-ubyte.gz"
        if images.exists():
            with gzip.open(images) as f:
                x = np.frombuffer(f.read(), dtype=np.uint8, offset=16).reshape(-1, 784)[:3000] / 255.0
            with gzip.open(FASHION_MNIST_DIR / "train-labels-idx1-ubyte.gz") as f:
                labels = np.frombuffer(f.read(), dtype=np.uint8, offset=8)[:3000]
            pcs = PCA(n_components=50, random_state=0).fit_transform(x)
            compare("fashion-mnist-3000", cli, venv_python, x, pcs, labels, tmp)
    if failures:
        print(f"{len(failures)} failed")
        return 1
    return 0


if __name__ == "__main__":
    sys.exit(main())
