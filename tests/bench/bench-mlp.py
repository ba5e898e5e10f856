#!/usr/bin/python3
# bench-mlp.py — the network (mlp) on Fashion-MNIST beside scikit-learn's
# MLPClassifier and PyTorch on the CPU, the same network in the same run:
# seconds per epoch and test accuracy. Not a test.
#
# SPDX-License-Identifier: GPL-3.0-or-later
#
# Usage: /usr/bin/python3 tests/bench/bench-mlp.py BUILD_DIR [--epochs N] [--hidden H] [--batch B]
#
# What runs: 784 → H ReLU units (256) → 10 on the 60,000 training images
# (bytes / 255, every column standardised over the training rows), Adam at
# 0.001, mini-batches of B (200) drawn anew each epoch, the penalty
# λ/2 ‖W‖² with λ = 1e-4 on the weights only, N epochs (10), judged on the
# 10,000 test images.
#   latent:  latent-cli run mlp --device auto; its seconds are the steps'
#            (the iteration times in its --json, every epoch's test
#            predictions included), not loading the data;
#   sklearn: MLPClassifier with the same settings (alpha = λ · B, as its
#            penalty is divided by the batch's rows), under the peers venv's
#            python (tests/peers/setup-venv.sh); the fit timed;
#   torch:   torch.nn with the same layers, Glorot's uniform start,
#            torch.optim.Adam (weight decay λ on the weights), on every core,
#            under $LATENT_TORCH_VENV's python (default
#            ~/.cache/latent/torch-venv: python3 -m venv, then pip install
#            torch numpy; several GiB, so not in the peers venv), else the
#            peers venv's; the epochs timed, the test predictions at the
#            end not.
# The peers run with OPENBLAS_CORETYPE and OPENBLAS_L2_SIZE unset.
#
# JSON lines on stdout: a "machine" line, one "mlp" line per implementation
# (seconds per epoch, test accuracy), "mlp-note" lines for what could not
# run, and a last "mlp-summary" with the fastest peer and Latent's speed-up
# over it (its seconds per epoch ÷ Latent's). The script is its own peer
# runner: bench-mlp.py --peer sklearn|torch prints that peer's line.

import argparse
import json
import os
import platform
import subprocess
import sys
import tempfile
import time
from pathlib import Path

from bench_machine import machine_record, peers_python

L2 = 1e-4
LEARNING_RATE = 1e-3


def note(message):
    print(message, file=sys.stderr, flush=True)


def emit(record):
    print(json.dumps(record), flush=True)


def load_fashion():
    import gzip
    import numpy as np
    path = Path(os.environ.get("LATENT_FASHION_MNIST_DIR", "/usr/share/datasets/fashion-mnist"))

    def read(name, offset):
        with gzip.open(path / name) as f:
            return np.frombuffer(f.read(), np.uint8, offset=offset)
    x = read("train-images-idx3-ubyte.gz", 16).reshape(-1, 784).astype(np.float32) / 255
    y = read("train-labels-idx1-ubyte.gz", 8).astype(np.int64)
    xt = read("t10k-images-idx3-ubyte.gz", 16).reshape(-1, 784).astype(np.float32) / 255
    yt = read("t10k-labels-idx1-ubyte.gz", 8).astype(np.int64)
    mean, sd = x.mean(axis=0), x.std(axis=0)
    sd[sd == 0] = 1
    return (x - mean) / sd, y, (xt - mean) / sd, yt


def peer_sklearn(epochs, hidden, batch):
    import warnings
    from sklearn.exceptions import ConvergenceWarning
    from sklearn.neural_network import MLPClassifier
    x, y, xt, yt = load_fashion()
    model = MLPClassifier(hidden_layer_sizes=(hidden,), alpha=L2 * batch, batch_size=batch,
                          learning_rate_init=LEARNING_RATE, max_iter=epochs, tol=0, random_state=1)
    start = time.perf_counter()
    with warnings.catch_warnings():
        warnings.simplefilter("ignore", ConvergenceWarning)
        model.fit(x, y)
    seconds = time.perf_counter() - start
    import sklearn
    return {"impl": "sklearn", "version": sklearn.__version__, "epochs": model.n_iter_,
            "seconds_per_epoch": seconds / model.n_iter_, "test_accuracy": float(model.score(xt, yt))}


def peer_torch(epochs, hidden, batch):
    import torch
    x, y, xt, yt = load_fashion()
    torch.manual_seed(1)
    torch.set_num_threads(os.cpu_count())
    net = torch.nn.Sequential(torch.nn.Linear(784, hidden), torch.nn.ReLU(), torch.nn.Linear(hidden, 10))
    for layer in (net[0], net[2]):
        torch.nn.init.xavier_uniform_(layer.weight)
    weights = [net[0].weight, net[2].weight]
    biases = [net[0].bias, net[2].bias]
    optimiser = torch.optim.Adam([{"params": weights, "weight_decay": L2}, {"params": biases, "weight_decay": 0}],
                                 lr=LEARNING_RATE)
    loss_fn = torch.nn.CrossEntropyLoss()
    xs, ys = torch.from_numpy(x), torch.from_numpy(y)
    start = time.perf_counter()
    for _ in range(epochs):
        order = torch.randperm(len(xs))
        for first in range(0, len(xs), batch):
            rows = order[first:first + batch]
            optimiser.zero_grad()
            loss = loss_fn(net(xs[rows]), ys[rows])
            loss.backward()
            optimiser.step()
    seconds = time.perf_counter() - start
    with torch.no_grad():
        accuracy = float((net(torch.from_numpy(xt)).argmax(1).numpy() == yt).mean())
    return {"impl": "torch", "version": torch.__version__, "threads": torch.get_num_threads(), "epochs": epochs,
            "seconds_per_epoch": seconds / epochs, "test_accuracy": accuracy}


def run_peer(python, which, args):
    env = {k: v for k, v in os.environ.items() if k not in ("OPENBLAS_CORETYPE", "OPENBLAS_L2_SIZE")}
    env["PYTHONPATH"] = str(Path(__file__).resolve().parent)
    proc = subprocess.run([python, __file__, "--peer", which, "--epochs", str(args.epochs),
                           "--hidden", str(args.hidden), "--batch", str(args.batch)],
                          capture_output=True, text=True, env=env)
    if proc.returncode != 0:
        raise RuntimeError(proc.stderr.strip().splitlines()[-1] if proc.stderr.strip() else f"exit {proc.returncode}")
    return json.loads(proc.stdout.strip().splitlines()[-1])


def run_latent(build_dir, args):
    with tempfile.TemporaryDirectory() as tmp:
        out = Path(tmp) / "mlp.json"
        argv = [str(Path(build_dir) / "app" / "latent-cli"), "run", "mlp", "--data", "fashion-mnist",
                "--test", "fashion-mnist-test", "--device", "auto", "--seed", "1", "--json", str(out),
                "--param", f"hidden-1={args.hidden}", "--param", f"batch={args.batch}",
                "--param", f"epochs={args.epochs}", "--param", "tol=0", "--param", f"l2={L2}",
                "--param", f"learning-rate={LEARNING_RATE}"]
        proc = subprocess.run(argv, capture_output=True, text=True)
        if proc.returncode != 0:
            raise RuntimeError(proc.stderr.strip())
        r = json.loads(out.read_text())
    seconds = sum(r["timings"]["iteration_ms"]) / 1000
    return {"impl": "latent", "device": r["device"], "epochs": int(r["epochs_done"]),
            "seconds_per_epoch": seconds / r["epochs_done"], "test_accuracy": r["test_accuracy"]}


def main():
    parser = argparse.ArgumentParser()
    parser.add_argument("build_dir", nargs="?")
    parser.add_argument("--epochs", type=int, default=10)
    parser.add_argument("--hidden", type=int, default=256)
    parser.add_argument("--batch", type=int, default=200)
    parser.add_argument("--peer", choices=("sklearn", "torch"))
    args = parser.parse_args()
    if args.peer:
        record = (peer_sklearn if args.peer == "sklearn" else peer_torch)(args.epochs, args.hidden, args.batch)
        record.update(bench="mlp", python=platform.python_version())
        emit(record)
        return 0
    if not args.build_dir:
        parser.error("BUILD_DIR is needed")

    emit(machine_record(epochs=args.epochs, hidden=args.hidden, batch=args.batch, l2=L2,
                        learning_rate=LEARNING_RATE))
    results, ok = [], True
    torch_venv = os.environ.get("LATENT_TORCH_VENV") or os.path.expanduser("~/.cache/latent/torch-venv")
    torch_python = os.path.join(torch_venv, "bin", "python")
    if not os.path.exists(torch_python):
        torch_python = peers_python()   # where bench-wta.py's README puts it
    runs = [("latent", None), ("sklearn", peers_python()), ("torch", torch_python)]
    for which, python in runs:
        try:
            if which != "latent" and (python is None or not os.path.exists(python)):
                raise RuntimeError(f"no python for {which} ({python})")
            record = run_latent(args.build_dir, args) if which == "latent" else run_peer(python, which, args)
        except (RuntimeError, OSError, ValueError) as e:
            emit({"bench": "mlp-note", "impl": which, "note": str(e)})
            ok = False
            continue
        record["bench"] = "mlp"
        note(f"{which}: {record['seconds_per_epoch']:.3f} s per epoch, test accuracy {record['test_accuracy']:.4f}")
        emit(record)
        results.append(record)
    latent = next((r for r in results if r["impl"] == "latent"), None)
    peers = [r for r in results if r["impl"] != "latent"]
    if latent and peers:
        fastest = min(peers, key=lambda r: r["seconds_per_epoch"])
        emit({"bench": "mlp-summary", "fastest_peer": fastest["impl"],
              "peer_seconds_per_epoch": fastest["seconds_per_epoch"],
              "latent_seconds_per_epoch": latent["seconds_per_epoch"],
              "speedup": fastest["seconds_per_epoch"] / latent["seconds_per_epoch"],
              "accuracy": {r["impl"]: r["test_accuracy"] for r in results}})
    return 0 if ok else 1


if __name__ == "__main__":
    sys.exit(main())
