#!/usr/bin/python3
# test-peers-spca.py — latent-cli's sparse PCA (spca) against
# scikit-learn's SparsePCA: the same objective, the same sparsity
#
# SPDX-License-Identifier: GPL-3.0-or-later
#
# Usage: /usr/bin/python3 tests/peers/test-peers-spca.py path/to/latent-cli
#
# Both minimise ½ ‖X − U V‖² + α ‖V‖₁ over the centred rows X with every
# code column ‖U_j‖ ≤ 1, from the principal axes, stopping when an
# iteration lowers the cost by less than 1e-8 of it (scikit-learn's
# defaults: tol 1e-8, max_iter 1000). The data: scikit-learn's digits
# (1,797 × 64, values / 16), 8 components, α = 1 and 5; and the first
# 2,000 Fashion-MNIST training images (bytes / 255), 8 components, α = 1
# (scikit-learn takes about half a minute on it). Checks, for each:
#   the final cost (Latent's JSON "cost", scikit-learn's error_[-1]) is
#   within 1e-6 of scikit-learn's on the C reference path (--device off),
#   and within 1e-4 on OpenCL (its products in float);
#   the share of zero weights in the components is within 0.01 of
#   scikit-learn's on both (zeros of a lasso solved to a tolerance can
#   differ at its margin);
#   each of Latent's unit components is within 0.05 of one of scikit-learn's
#   (|cos| ≥ 0.99, after matching them).
# Exit 0 on success, 1 on a failed comparison, 77 (skip) without NumPy or
# scikit-learn.

import gzip
import json
import os
import subprocess
import sys
import tempfile
import time
from pathlib import Path

SKIP = 77
COST_REFERENCE = 1e-6
COST_OPENCL = 1e-4
SPARSITY = 0.01
COSINE = 0.99

try:
    import numpy as np
    from sklearn.datasets import load_digits
    from sklearn.decomposition import SparsePCA
except ImportError as e:
    print(f"test-peers-spca: SKIP: NumPy and scikit-learn are needed ({e})")
    sys.exit(SKIP)


def fashion(rows):
    path = Path(os.environ.get("LATENT_FASHION_MNIST_DIR") or "/usr/share/datasets/fashion-mnist")
    try:
        with gzip.open(path / "train-images-idx3-ubyte.gz") as f:
            raw = np.frombuffer(f.read(), np.uint8, offset=16)
    except OSError:
        return None
    return raw.reshape(-1, 784)[:rows].astype(np.float32) / np.float32(255)


def matched_cosines(ours, theirs):
    """For each of Latent's components the best |cos| with a scikit-learn one, each used once."""
    cos = np.abs(ours @ theirs.T)
    out, used = [], set()
    for i in np.argsort(-cos.max(axis=1)):
        j = max((j for j in range(len(theirs)) if j not in used), key=lambda j: cos[i, j])
        used.add(j)
        out.append(cos[i, j])
    return out


def main():
    if len(sys.argv) != 2:
        print("usage: test-peers-spca.py LATENT-CLI", file=sys.stderr)
        return 2
    cli = sys.argv[1]
    cases = [("digits", (load_digits().data / 16.0).astype(np.float32), 8, 1.0),
             ("digits", (load_digits().data / 16.0).astype(np.float32), 8, 5.0)]
    images = fashion(2000)
    if images is not None:
        cases.append(("fashion-mnist 2000", images, 8, 1.0))
    else:
        print("Fashion-MNIST is not installed: digits only")
    failures = []
    with tempfile.TemporaryDirectory() as tmp:
        for name, x, k, alpha in cases:
            path = Path(tmp) / f"{name.split()[0]}.npy"
            np.save(path, x)
            start = time.perf_counter()
            model = SparsePCA(k, alpha=alpha, random_state=0).fit(x.astype(np.float64))
            sk_seconds = time.perf_counter() - start
            sk_cost, sk_sparsity = model.error_[-1], float((model.components_ == 0).mean())
            print(f"{name}, {k} components, α = {alpha}: scikit-learn cost {sk_cost:.10g}, sparsity "
                  f"{sk_sparsity:.4f}, {len(model.error_)} iterations, {sk_seconds:.2f} s", flush=True)
            for device, tolerance in (("off", COST_REFERENCE), ("auto", COST_OPENCL)):
                out = Path(tmp) / f"spca-{device}.json"
                argv = [cli, "run", "spca", "--data", str(path), "--param", f"components={k}",
                        "--param", f"alpha={alpha}", "--device", device, "--json", str(out)]
                start = time.perf_counter()
                proc = subprocess.run(argv, capture_output=True, text=True)
                seconds = time.perf_counter() - start
                if proc.returncode != 0:
                    failures.append(f"{name} --device {device}: latent-cli exited {proc.returncode}: {proc.stderr}")
                    continue
                r = json.loads(out.read_text())
                ours = np.asarray(r["components"], np.float64).reshape(k, -1)
                cosines = matched_cosines(ours, model.components_)
                rel = abs(r["cost"] - sk_cost) / sk_cost
                print(f"  latent --device {device}: cost {r['cost']:.10g} ({rel:.2e} from scikit-learn's), "
                      f"sparsity {r['sparsity']:.4f}, {r['iterations']:.0f} iterations, {seconds:.2f} s; "
                      f"smallest matched |cos| {min(cosines):.4f}", flush=True)
                label = f"{name}, α = {alpha}, --device {device}"
                if rel > tolerance:
                    failures.append(f"{label}: cost {r['cost']:.10g} is {rel:.2e} from scikit-learn's {sk_cost:.10g}")
                if abs(r["sparsity"] - sk_sparsity) > SPARSITY:
                    failures.append(f"{label}: sparsity {r['sparsity']:.4f} against scikit-learn's {sk_sparsity:.4f}")
                if min(cosines) < COSINE:
                    failures.append(f"{label}: a component is {min(cosines):.4f} in |cos| from scikit-learn's nearest")
    for f in failures:
        print("FAIL: " + f)
    return 1 if failures else 0


if __name__ == "__main__":
    sys.exit(main())
