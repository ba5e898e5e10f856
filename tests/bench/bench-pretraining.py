#!/usr/bin/python3
# bench-pretraining.py — the WTA autoencoder's seed experiment on
# Fashion-MNIST: does a network learn better from the autoencoder's first
# layer than from random weights? Not a test; its figures are in
# docs/NETWORK.md.
#
# SPDX-License-Identifier: GPL-3.0-or-later
#
# Usage: /usr/bin/python3 tests/bench/bench-pretraining.py BUILD_DIR [--epochs N] [--labelled N]
#
# What runs, all through latent-cli on the 60,000 training images (or the
# first --labelled of them for the supervised runs) and judged on the
# 10,000 test images:
#   wta:           the autoencoder with its defaults (1,024 units, lifetime
#                  sparsity 5 %, 5 epochs) on all 60,000 images, unlabelled;
#   logreg-pixels: logistic regression on the pixels (its defaults: L-BFGS
#                  to its tolerance);
#   logreg-wta:    the same on the autoencoder's features (--features);
#   mlp-random:    a network of one hidden layer of 1,024 ReLU units from
#                  Glorot's random start, Adam at 0.001, batches of 200,
#                  N epochs (20), tol 0;
#   mlp-wta:       the same network with its first layer from the
#                  autoencoder (init=@wta.json), trained end to end.
# The networks' test accuracy is given after epoch 1, 5 and N (their
# per-epoch accuracies in the JSON).
#
# JSON lines on stdout: a "machine" line, one "pretraining" line per run,
# and a "pretraining-table" line in Markdown. Progress on stderr.

import argparse
import json
import subprocess
import sys
import tempfile
import time
from pathlib import Path

from bench_machine import machine_record


def note(message):
    print(message, file=sys.stderr, flush=True)


def emit(record):
    print(json.dumps(record), flush=True)


def run(cli, tmp, name, algorithm, args):
    out = Path(tmp) / f"{name}.json"
    argv = [cli, "run", algorithm, "--seed", "1", "--json", str(out)] + [str(a) for a in args]
    note("$ " + " ".join(argv))
    start = time.perf_counter()
    proc = subprocess.run(argv, capture_output=True, text=True)
    seconds = time.perf_counter() - start
    if proc.returncode != 0:
        raise RuntimeError(f"{name}: latent-cli exited {proc.returncode}: {proc.stderr.strip()}")
    return json.loads(out.read_text()), seconds, out


def labelled_data(tmp, n):
    """The first n training images as an IDX pair latent-cli reads, or the whole set."""
    if n >= 60000:
        return "fashion-mnist"
    import gzip
    import os
    src = Path(os.environ.get("LATENT_FASHION_MNIST_DIR", "/usr/share/datasets/fashion-mnist"))
    with gzip.open(src / "train-images-idx3-ubyte.gz") as f:
        images = f.read()
    with gzip.open(src / "train-labels-idx1-ubyte.gz") as f:
        labels = f.read()
    path = Path(tmp) / f"train-{n}-images-idx3-ubyte"
    path.write_bytes(images[:4] + n.to_bytes(4, "big") + images[8:16] + images[16:16 + n * 784])
    Path(tmp, f"train-{n}-labels-idx1-ubyte").write_bytes(labels[:4] + n.to_bytes(4, "big") + labels[8:8 + n])
    return str(path)


def main():
    parser = argparse.ArgumentParser()
    parser.add_argument("build_dir")
    parser.add_argument("--epochs", type=int, default=20)
    parser.add_argument("--labelled", type=int, default=60000)
    args = parser.parse_args()
    cli = str(Path(args.build_dir) / "app" / "latent-cli")
    emit(machine_record(epochs=args.epochs, labelled=args.labelled))
    rows = []
    with tempfile.TemporaryDirectory() as tmp:
        data = labelled_data(tmp, args.labelled)
        test = ["--test", "fashion-mnist-test"]
        wta, seconds, wta_path = run(cli, tmp, "wta", "wta", ["--data", "fashion-mnist"])
        emit({"bench": "pretraining", "run": "wta", "seconds": seconds, "units": wta["hidden"],
              "epochs": wta["epochs_done"], "validation_error": wta["validation_error"]})
        runs = [
            ("logreg-pixels", "logreg", ["--data", data] + test),
            ("logreg-wta", "logreg", ["--data", data, "--features", wta_path] + test),
            ("mlp-random", "mlp", ["--data", data] + test + ["--param", f"hidden-1={wta['hidden']:.0f}",
                                                               "--param", f"epochs={args.epochs}", "--param", "tol=0"]),
            ("mlp-wta", "mlp", ["--data", data] + test + ["--param", f"init=@{wta_path}",
                                                            "--param", f"epochs={args.epochs}", "--param", "tol=0"]),
        ]
        for name, algorithm, argv in runs:
            r, seconds, _ = run(cli, tmp, name, algorithm, argv)
            per_epoch = r.get("epoch_test_accuracy") or []
            record = {"bench": "pretraining", "run": name, "seconds": seconds, "epochs": r["epochs_done"],
                      "test_accuracy": r["test_accuracy"]}
            if algorithm == "mlp":
                record["after_epochs"] = {str(e): per_epoch[e - 1] for e in (1, 5, args.epochs) if e <= len(per_epoch)}
            note(f"{name}: test accuracy {r['test_accuracy']:.4f} in {seconds:.1f} s")
            emit(record)
            rows.append(record)
    table = ["| run | test accuracy | after epoch 1 | after epoch 5 | seconds |", "|---|---|---|---|---|"]
    for r in rows:
        after = r.get("after_epochs", {})
        cells = [f"{100 * after[k]:.2f} %" if k in after else "" for k in ("1", "5")]
        table.append(f"| {r['run']} | {100 * r['test_accuracy']:.2f} % | {cells[0]} | {cells[1]} | {r['seconds']:.0f} |")
    emit({"bench": "pretraining-table", "markdown": "\n".join(table)})
    return 0


if __name__ == "__main__":
    sys.exit(main())
