#!/usr/bin/python3
# test-peers-gmm.py — latent-cli's GMM-EM against scikit-learn's GaussianMixture
#
# SPDX-License-Identifier: GPL-3.0-or-later
#
# Usage: /usr/bin/python3 tests/peers/test-peers-gmm.py path/to/latent-cli
#
# Both sides start from the same model (means, covariances, weights, taken
# from a one-iteration scikit-learn fit) and run the same number of EM
# iterations (tol = 0). Their mean log-likelihoods must agree within 1e-4
# absolute, for each covariance type, on Iris and on a Fashion-MNIST subset
# reduced to 16 dimensions by PCA. Exit 0 on success, 1 on a failed
# comparison, 77 (skip) without scikit-learn.

import gzip
import json
import os
import subprocess
import sys
import tempfile
import warnings
from pathlib import Path

SKIP = 77
LL_ABS_MAX = 1e-4
ITERATIONS = 20
SOURCE_ROOT = Path(__file__).resolve().parents[2]
IRIS_CSV = SOURCE_ROOT / "data" / "iris.csv"
FASHION_MNIST_DIR = Path(os.environ.get("LATENT_FASHION_MNIST_DIR") or "/usr/share/datasets/fashion-mnist")

try:
    import numpy as np
    from sklearn.decomposition import PCA
    from sklearn.metrics import adjusted_rand_score
    from sklearn.mixture import GaussianMixture
except ImportError as e:
    print(f"test-peers-gmm: SKIP: scikit-learn and NumPy are needed ({e})")
    sys.exit(SKIP)


def load_iris():
    rows = [line.split(",")[:4] for line in IRIS_CSV.read_text().splitlines()[1:] if line]
    return np.array(rows, dtype=np.float32)


def load_fmnist_pca(rows, dims):
    path = FASHION_MNIST_DIR / "train-images-idx3-ubyte.gz"
    if not path.exists():
        return None
    with gzip.open(path) as f:
        x = np.frombuffer(f.read(), np.uint8, offset=16).reshape(-1, 784)[:rows] / 255.0
    return PCA(dims, random_state=0).fit_transform(x).astype(np.float32)


def start_model(x, k, covariance):
    """A common starting point: scikit-learn after one EM iteration from k-means."""
    gm = GaussianMixture(k, covariance_type=covariance, max_iter=1, random_state=0).fit(x)
    return gm.weights_, gm.means_, gm.covariances_


def compare(name, x, k, covariance, cli, tmp, device):
    weights, means, covariances = start_model(x, k, covariance)
    data = tmp / f"{name}.csv"
    np.savetxt(data, x, delimiter=",", fmt="%.9g")
    start = tmp / f"{name}-{covariance}-start.json"
    start.write_text(json.dumps({"means": means.tolist(), "covariances": np.asarray(covariances).tolist(),
                                 "weights": weights.tolist()}))
    result = tmp / f"{name}-{covariance}-{device}.json"
    cmd = [cli, "run", "gmm", "--data", str(data), "--param", f"k={k}",
           "--param", f"covariance={covariance}", "--param", f"init=@{start}",
           "--param", "tol=0", "--param", f"max-iterations={ITERATIONS}", "--device", device,
           "--json", str(result)]
    p = subprocess.run(cmd, capture_output=True, text=True, timeout=600)
    if p.returncode != 0:
        raise AssertionError(f"{' '.join(cmd)} failed: {p.stderr}")
    ours = json.loads(result.read_text())

    precisions = (np.linalg.inv(covariances) if covariance == "full" else 1.0 / np.asarray(covariances))
    gm = GaussianMixture(k, covariance_type=covariance, max_iter=ITERATIONS, tol=0, weights_init=weights,
                         means_init=means, precisions_init=precisions, reg_covar=1e-6).fit(x)
    theirs_ll = gm.lower_bound_
    ours_ll = ours["history"][-1]
    ari = adjusted_rand_score(gm.predict(x), ours["labels"])
    score = gm.score(x)
    print(f"  {name:8} {covariance:9} {device:4} iterations {ours['iterations']:3}/{gm.n_iter_:3}  "
          f"log-likelihood {ours_ll:.7f} vs {theirs_ll:.7f} (Δ {ours_ll - theirs_ll:+.2e})  "
          f"final {ours['log_likelihood']:.7f} vs {score:.7f}  ARI {ari:.4f}")
    if ours["iterations"] != gm.n_iter_:
        raise AssertionError(f"{name} {covariance}: {ours['iterations']} iterations, scikit-learn {gm.n_iter_}")
    if abs(ours_ll - theirs_ll) > LL_ABS_MAX:
        raise AssertionError(f"{name} {covariance} {device}: mean log-likelihood {ours_ll} vs {theirs_ll}")
    if abs(ours["log_likelihood"] - score) > LL_ABS_MAX:
        raise AssertionError(f"{name} {covariance} {device}: final log-likelihood {ours['log_likelihood']} vs {score}")
    if not np.isfinite(ours["bic"]) or abs(ours["bic"] - gm.bic(x)) > 1e-3 * abs(gm.bic(x)) + 1:
        raise AssertionError(f"{name} {covariance}: BIC {ours['bic']} vs {gm.bic(x)}")


def main():
    cli = sys.argv[1]
    # Both sides stop at ITERATIONS on purpose; scikit-learn warns about it.
    warnings.filterwarnings("ignore", module="sklearn")
    cases = [("iris", load_iris(), 3)]
    fmnist = load_fmnist_pca(5000, 16)
    if fmnist is not None:
        cases.append(("fmnist16", fmnist, 10))
    elif os.environ.get("CI") == "true":
        print("test-peers-gmm: Fashion-MNIST is missing in CI")
        return 1
    failures = 0
    with tempfile.TemporaryDirectory() as d:
        tmp = Path(d)
        for name, x, k in cases:
            for covariance in ("full", "diag", "spherical"):
                for device in ("auto", "off"):
                    try:
                        compare(name, x, k, covariance, cli, tmp, device)
                    except AssertionError as e:
                        print(f"FAIL: {e}")
                        failures += 1
    return 1 if failures else 0


if __name__ == "__main__":
    sys.exit(main())
