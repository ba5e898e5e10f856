#!/usr/bin/python3
# test-peers-mlp.py — latent-cli's network (mlp) against scikit-learn's
# MLPClassifier with the same settings, on digits
#
# SPDX-License-Identifier: GPL-3.0-or-later
#
# Usage: /usr/bin/python3 tests/peers/test-peers-mlp.py path/to/latent-cli
#
# The data: scikit-learn's 1,797 digits of 8 × 8 pixels, values / 16,
# split by a fixed seed into 1,400 training rows and 397 test rows, written
# as CSV; both standardise every column over the training rows
# (StandardScaler; Latent's standardise=true, its default).
#
# The same settings, two of them:
#   Latent's defaults, which are MLPClassifier's: 100 ReLU units, Adam at
#   0.001, batches of 200, at most 200 epochs, stopping after ten epochs
#   that do not lower the training loss by 1e-4 below its best. Latent's
#   penalty λ/2 ‖W‖² is on the mean cross-entropy; scikit-learn's alpha/2
#   ‖W‖² is divided by the batch's rows, so alpha = λ · 200.
#   Two tanh layers (64, 32) with plain momentum 0.9 at 0.01 (scikit-learn's
#   sgd, constant rate, nesterovs_momentum off), batches of 50, 60 epochs.
# Three seeds each side (the start and the batches differ by seed: single
# runs differ by up to a point between seeds on either side). Checks, per
# setting: Latent's mean test accuracy is within 1 point of scikit-learn's
# (OpenCL, --device auto); the C reference path's (--device off, one seed)
# is within 1.5 points; the defaults stop on their tolerance before the
# budget, as scikit-learn's do.
# Exit 0 on success, 1 on a failed comparison, 77 (skip) without NumPy or
# scikit-learn.

import json
import subprocess
import sys
import tempfile
import time
import warnings
from pathlib import Path

SKIP = 77
SEEDS = (1, 2, 3)
POINTS_MAX = 1.0
REFERENCE_POINTS_MAX = 1.5
TRAIN = 1400

try:
    import numpy as np
    from sklearn.datasets import load_digits
    from sklearn.exceptions import ConvergenceWarning
    from sklearn.neural_network import MLPClassifier
    from sklearn.preprocessing import StandardScaler
except ImportError as e:
    print(f"test-peers-mlp: SKIP: NumPy and scikit-learn are needed ({e})")
    sys.exit(SKIP)

SETTINGS = [
    ("defaults", {},
     dict(hidden_layer_sizes=(100,), alpha=1e-4 * 200)),
    ("tanh 64-32, momentum",
     {"hidden-1": 64, "hidden-2": 32, "activation": "tanh", "optimizer": "momentum", "learning-rate": 0.01,
      "momentum": 0.9, "batch": 50, "epochs": 60, "tol": 0},
     dict(hidden_layer_sizes=(64, 32), activation="tanh", solver="sgd", learning_rate_init=0.01, momentum=0.9,
          nesterovs_momentum=False, batch_size=50, max_iter=60, tol=0, n_iter_no_change=1000,
          alpha=1e-4 * 50)),
]


def write_csv(path, x, y):
    with open(path, "w") as f:
        f.write(",".join(f"p{i}" for i in range(x.shape[1])) + ",label\n")
        for row, label in zip(x, y):
            f.write(",".join(f"{v:.6g}" for v in row) + f",{label}\n")


def run_latent(cli, tmp, params, device, seed):
    out = tmp / f"mlp-{device}-{seed}.json"
    argv = [cli, "run", "mlp", "--data", str(tmp / "train.csv"), "--test", str(tmp / "test.csv"),
            "--device", device, "--seed", str(seed), "--json", str(out)]
    for name, value in params.items():
        argv += ["--param", f"{name}={value}"]
    start = time.perf_counter()
    proc = subprocess.run([str(a) for a in argv], capture_output=True, text=True)
    if proc.returncode != 0:
        raise RuntimeError(f"{' '.join(map(str, argv))}: exited {proc.returncode}: {proc.stderr.strip()}")
    with open(out) as f:
        result = json.load(f)
    return result, time.perf_counter() - start


def main():
    if len(sys.argv) != 2:
        print(__doc__ or "usage: test-peers-mlp.py LATENT-CLI", file=sys.stderr)
        return 2
    cli = sys.argv[1]
    x, y = load_digits(return_X_y=True)
    x = (x / 16.0).astype(np.float32)
    order = np.random.RandomState(0).permutation(len(x))
    train, test = order[:TRAIN], order[TRAIN:]
    scaler = StandardScaler().fit(x[train])
    failures = []

    with tempfile.TemporaryDirectory() as tmp:
        tmp = Path(tmp)
        write_csv(tmp / "train.csv", x[train], y[train])
        write_csv(tmp / "test.csv", x[test], y[test])
        for name, ours, theirs in SETTINGS:
            sk, sk_epochs = [], []
            for seed in SEEDS:
                with warnings.catch_warnings():
                    warnings.simplefilter("ignore", ConvergenceWarning)
                    model = MLPClassifier(random_state=seed, **theirs).fit(scaler.transform(x[train]), y[train])
                sk.append(model.score(scaler.transform(x[test]), y[test]))
                sk_epochs.append(model.n_iter_)
            runs = [run_latent(cli, tmp, ours, "auto", seed) for seed in SEEDS]
            reference, reference_seconds = run_latent(cli, tmp, ours, "off", SEEDS[0])
            mean_sk = float(np.mean(sk))
            ours_accuracy = [r["test_accuracy"] for r, _ in runs]
            mean_ours = float(np.mean(ours_accuracy))
            epochs = [int(r["epochs_done"]) for r, _ in runs]
            print(f"{name}: scikit-learn {', '.join(f'{a:.4f}' for a in sk)} (mean {mean_sk:.4f}, "
                  f"epochs {sk_epochs}); Latent {', '.join(f'{a:.4f}' for a in ours_accuracy)} "
                  f"(mean {mean_ours:.4f}, epochs {epochs}, {np.mean([s for _, s in runs]):.2f} s a run); "
                  f"reference {reference['test_accuracy']:.4f} in {reference_seconds:.2f} s", flush=True)
            if abs(mean_ours - mean_sk) * 100 > POINTS_MAX:
                failures.append(f"{name}: mean test accuracy {mean_ours:.4f} is more than {POINTS_MAX} point "
                                f"from scikit-learn's {mean_sk:.4f}")
            if abs(reference["test_accuracy"] - mean_sk) * 100 > REFERENCE_POINTS_MAX:
                failures.append(f"{name}: the reference path's test accuracy {reference['test_accuracy']:.4f} is "
                                f"more than {REFERENCE_POINTS_MAX} points from scikit-learn's {mean_sk:.4f}")
            if name == "defaults":
                for (r, _), seed in zip(runs, SEEDS):
                    if not r["converged"] or r["epochs_done"] >= 200:
                        failures.append(f"defaults, seed {seed}: ran {r['epochs_done']:.0f} epochs without "
                                        f"converging (scikit-learn stopped after {sk_epochs})")

    for f in failures:
        print("FAIL: " + f)
    return 1 if failures else 0


if __name__ == "__main__":
    sys.exit(main())
