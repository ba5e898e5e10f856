#!/usr/bin/python3
# test-peers-prototype.py — latent-cli's nearest prototype (prototype,
# distance=euclidean, no episodes) against scikit-learn's NearestCentroid
#
# SPDX-License-Identifier: GPL-3.0-or-later
#
# Usage: /usr/bin/python3 tests/peers/test-peers-prototype.py path/to/latent-cli
#
# On the same float32 values Latent reads (the CSV parsed to float32; the
# IDX images as byte / 255 in float32), with the OpenCL path (--device auto)
# and the C reference (--device off):
#   iris, held out: Latent's own seeded split (test=0.2); the training rows
#     are those its JSON does not list as test rows;
#   iris, --test:   every fifth row in a test file of its own, the rest in
#     the training file;
#   fashion-mnist:  the 60,000 training images against the 10,000 test
#     images (--test), when /usr/share/datasets/fashion-mnist exists.
# Checks: the --csv predictions (row,predicted,class) identical to
# NearestCentroid's row for row, the JSON's test accuracy and confusion
# matrix equal to scikit-learn's, and the prototypes within 1e-5 of its
# centroids (relative to the largest value). A disagreement is printed with
# both sides' squared distances, so a near tie shows itself as one.
# Exit 0 on success, 1 on a failed comparison, 77 (skip) without
# scikit-learn.

import csv
import gzip
import json
import os
import struct
import subprocess
import sys
import tempfile
from pathlib import Path

SKIP = 77
HERE = Path(__file__).resolve().parent
SOURCE_ROOT = HERE.parent.parent
IRIS = SOURCE_ROOT / "data" / "iris.csv"
FASHION_MNIST_DIR = Path(os.environ.get("LATENT_FASHION_MNIST_DIR") or "/usr/share/datasets/fashion-mnist")
PROTOTYPE_TOL = 1e-5

try:
    import numpy as np
    from sklearn.metrics import confusion_matrix
    from sklearn.neighbors import NearestCentroid
except ImportError as e:
    print(f"test-peers-prototype: SKIP: NumPy and scikit-learn are needed ({e})")
    sys.exit(SKIP)

failures = []


def check(ok, what):
    print(("ok   " if ok else "FAIL ") + what)
    if not ok:
        failures.append(what)


def read_iris(path):
    with open(path) as f:
        rows = list(csv.reader(f))
    header, body = rows[0], [r for r in rows[1:] if r]
    x = np.array([[np.float32(v) for v in r[:-1]] for r in body], dtype=np.float32)
    names = [r[-1] for r in body]
    return header, x, names


def write_iris(path, header, x, names):
    with open(path, "w") as f:
        f.write(",".join(header) + "\n")
        for row, name in zip(x, names):
            f.write(",".join(repr(float(v)) for v in row) + "," + name + "\n")


def read_idx(path):
    with gzip.open(path, "rb") as f:
        data = f.read()
    magic = struct.unpack(">I", data[:4])[0]
    dims = magic & 0xff
    shape = struct.unpack(">" + "I" * dims, data[4:4 + 4 * dims])
    return np.frombuffer(data[4 + 4 * dims:], dtype=np.uint8).reshape(shape)


def run_latent(cli, args, tmp, tag):
    out_json = Path(tmp) / f"{tag}.json"
    out_csv = Path(tmp) / f"{tag}.csv"
    cmd = [cli, "run", "prototype", *args, "--param", "distance=euclidean", "--param", "episodes=0",
           "--json", str(out_json), "--csv", str(out_csv)]
    done = subprocess.run(cmd, capture_output=True, text=True)
    if done.returncode != 0:
        print(" ".join(cmd))
        print(done.stdout, done.stderr)
        check(False, f"{tag}: latent-cli exits 0")
        return None, None
    print(done.stdout.strip())
    with open(out_csv) as f:
        lines = list(csv.reader(f))
    return json.loads(out_json.read_text()), lines


def compare(tag, result, lines, x_train, y_train, x_test, y_test, test_rows):
    """Latent's result against NearestCentroid fitted on the same rows."""
    classes = result["classes"]
    peer = NearestCentroid()   # metric="euclidean", the default
    peer.fit(x_train.astype(np.float64), y_train)
    predicted = peer.predict(x_test.astype(np.float64))

    check(lines[0] == ["row", "predicted", "class"], f"{tag}: the CSV's header")
    body = lines[1:]
    check(len(body) == len(test_rows), f"{tag}: one CSV line per test row ({len(body)} of {len(test_rows)})")
    if len(body) != len(test_rows):
        return
    rows = np.array([int(r[0]) for r in body])
    check(np.array_equal(rows, test_rows), f"{tag}: the CSV's rows are the test rows")
    latent_predicted = np.array([classes.index(r[1]) for r in body])
    latent_true = np.array([classes.index(r[2]) for r in body])
    check(np.array_equal(latent_true, y_test), f"{tag}: the CSV's true classes")
    differ = np.flatnonzero(latent_predicted != predicted)
    for i in differ[:10]:
        d = ((peer.centroids_ - x_test[i].astype(np.float64)) ** 2).sum(axis=1)
        print(f"     row {test_rows[i]}: Latent {latent_predicted[i]}, scikit-learn {predicted[i]}; "
              f"squared distances {d[latent_predicted[i]]:.9g} and {d[predicted[i]]:.9g}")
    check(len(differ) == 0, f"{tag}: predictions identical to NearestCentroid's "
                            f"({len(predicted) - len(differ)} of {len(predicted)})")

    accuracy = float((predicted == y_test).mean())
    check(abs(result["test_accuracy"] - accuracy) < 1e-12,
          f"{tag}: test accuracy {result['test_accuracy']:.4f} (scikit-learn {accuracy:.4f})")
    expected = confusion_matrix(y_test, predicted, labels=range(len(classes)))
    check(np.array_equal(np.array(result["confusion"]), expected), f"{tag}: confusion matrix")

    prototypes = np.array(result["prototypes"], dtype=np.float64)
    scale = max(1.0, float(np.abs(peer.centroids_).max()))
    worst = float(np.abs(prototypes - peer.centroids_).max()) / scale
    check(worst < PROTOTYPE_TOL, f"{tag}: prototypes within {PROTOTYPE_TOL:g} of the centroids ({worst:.2g})")


def iris_held_out(cli, tmp, device):
    header, x, names = read_iris(IRIS)
    result, lines = run_latent(cli, ["--data", str(IRIS), "--param", "test=0.2", "--seed", "7",
                                     "--device", device], tmp, f"iris-held-out-{device}")
    if result is None:
        return
    classes = result["classes"]
    y = np.array([classes.index(n) for n in names])
    test_rows = np.array(result["test_rows"])
    train_rows = np.setdiff1d(np.arange(len(x)), test_rows)
    check(result["n_test"] == 30 and len(train_rows) == 120, f"iris held out ({device}): 120 rows train, 30 test")
    compare(f"iris held out ({device})", result, lines, x[train_rows], y[train_rows], x[test_rows], y[test_rows],
            test_rows)


def iris_test_file(cli, tmp, device):
    header, x, names = read_iris(IRIS)
    test = np.arange(len(x)) % 5 == 4
    train_path, test_path = Path(tmp) / "iris-train.csv", Path(tmp) / "iris-test.csv"
    write_iris(train_path, header, x[~test], [n for n, t in zip(names, test) if not t])
    write_iris(test_path, header, x[test], [n for n, t in zip(names, test) if t])
    result, lines = run_latent(cli, ["--data", str(train_path), "--test", str(test_path), "--device", device],
                               tmp, f"iris-test-{device}")
    if result is None:
        return
    classes = result["classes"]
    y = np.array([classes.index(n) for n in names])
    compare(f"iris --test ({device})", result, lines, x[~test], y[~test], x[test], y[test],
            np.arange(int(test.sum())))


def fashion_mnist(cli, tmp, device):
    d = FASHION_MNIST_DIR
    x_train = (read_idx(d / "train-images-idx3-ubyte.gz").reshape(60000, -1) / np.float32(255)).astype(np.float32)
    y_train = read_idx(d / "train-labels-idx1-ubyte.gz").astype(np.int64)
    x_test = (read_idx(d / "t10k-images-idx3-ubyte.gz").reshape(10000, -1) / np.float32(255)).astype(np.float32)
    y_test = read_idx(d / "t10k-labels-idx1-ubyte.gz").astype(np.int64)
    result, lines = run_latent(cli, ["--data", str(d / "train-images-idx3-ubyte.gz"),
                                     "--test", str(d / "t10k-images-idx3-ubyte.gz"), "--device", device],
                               tmp, f"fashion-{device}")
    if result is None:
        return
    print(f"     init {result['timings']['init_ms']:.0f} ms on {result['device']}")
    compare(f"fashion-mnist ({device})", result, lines, x_train, y_train, x_test, y_test, np.arange(10000))


def main():
    if len(sys.argv) != 2:
        print(__doc__ or "usage: test-peers-prototype.py LATENT-CLI")
        return 2
    cli = sys.argv[1]
    with tempfile.TemporaryDirectory(prefix="latent-peers-prototype-") as tmp:
        for device in ("auto", "off"):
            iris_held_out(cli, tmp, device)
            iris_test_file(cli, tmp, device)
            if (FASHION_MNIST_DIR / "t10k-images-idx3-ubyte.gz").exists():
                fashion_mnist(cli, tmp, device)
            else:
                print(f"skip fashion-mnist: {FASHION_MNIST_DIR} is not there")
    if failures:
        print(f"{len(failures)} comparison(s) failed")
        return 1
    return 0


if __name__ == "__main__":
    sys.exit(main())
