#!/usr/bin/python3
# bench-wta.py — the winner-take-all autoencoder (wta) on Fashion-MNIST
# beside the same model in NumPy (Debian's and PyPI's) and PyTorch (CPU),
# in the same run. Not a test.
#
# SPDX-License-Identifier: GPL-3.0-or-later
#
# Usage: /usr/bin/python3 tests/bench/bench-wta.py BUILD_DIR [--epochs N] [--warmup W]
#                         [--no-pypi] [--no-torch] [--reference]
#
# What runs: the training set, 60,000 × 784 float32 in [0, 1], 1024 hidden
# units, mini-batches of 100 (600 steps an epoch), lifetime sparsity with
# rate 0.05 (5 winners per unit and batch), tied weights, momentum 0.9,
# learning rate 0.01, no validation split; every side draws its own random
# start (N(0, 0.01²)) and its own shuffle.
#   latent-opencl:      BUILD_DIR/tests/bench/latent-bench-wta (--device auto),
#                       which prints one line per epoch;
#   latent-reference:   the same with --device off, with --reference only
#                       (the C oracle, slow by design);
#   numpy-debian:       tests/peers/wta_numpy.py under /usr/bin/python3;
#   numpy-pypi:         the same under the peers venv's python
#                       (tests/peers/setup-venv.sh);
#   torch-pypi:         wta_numpy.WtaTorch (autograd, torch.optim.SGD) under
#                       $LATENT_TORCH_VENV (default ~/.cache/latent/torch-venv)
#                       or the peers venv, whichever's torch imports (it is
#                       not in requirements.txt: see README.md).
# The peers pick winners with np.argpartition and torch.topk rather than
# the stable sort the peers test needs for Latent's tie rule (to the lower
# row): the same code but for exact ties among positive activations, in
# a third to a half of the sort's time (about 1 ms against 2.5 ms a step).
# Every side runs W warm-up epochs (default 1) and then N timed ones
# (default 1); the time per epoch is the median of the timed ones. Latent's
# first epoch also holds its set-up (scaling, buffers, kernels), so it is a
# warm-up; the peers time their training loop alone (data loaded and
# converted first), the gather of each batch included, as in Latent.
#
# GFLOP/s are nominal: every step counts as 4 dense products of 2·B·H·D
# flops (encoder X Wᵀ, decoder S W, back-propagation E Wᵀ and the weight
# gradient), 4 · 2 · 100 · 1024 · 784 = 642 MFLOP a step, 385 GFLOP an epoch,
# whatever the implementation really does: the dense peers do a fifth (the
# tied weights' second gradient term Sᵀ E), Latent's OpenCL path skips the
# zeros of the sparse code. They compare speed, not arithmetic.
#
# JSON lines on stdout: a "machine" line, one "wta" line per implementation,
# "wta-note" lines for what could not run, and a last "wta-summary" line with
# Latent's seconds per epoch, its nominal GFLOP/s and the ratio of its epoch
# time to the fastest peer's (below 1 when Latent is faster). Progress on
# stderr. Exit 0 when every implementation asked for ran, 1 otherwise.
#
# The script is also its own peer runner: bench-wta.py --peer numpy|torch
# runs one peer under whatever python runs it and prints its line.

import argparse
import gzip
import json
import os
import platform
import statistics
import subprocess
import sys
import time
from pathlib import Path

from bench_machine import cpu_model, git_commit, mem_total_gib, os_name, threadpools, torch_python

HERE = Path(__file__).resolve().parent
SOURCE_ROOT = HERE.parents[1]
PEERS = SOURCE_ROOT / "tests" / "peers"
DEBIAN_PYTHON = "/usr/bin/python3"
VENV = Path(os.environ.get("LATENT_PEERS_VENV") or Path.home() / ".cache" / "latent" / "peers-venv")
FASHION_MNIST_DIR = Path(os.environ.get("LATENT_FASHION_MNIST_DIR") or "/usr/share/datasets/fashion-mnist")
TIMEOUT_S = 7200

HIDDEN, BATCH, RATE, LEARNING_RATE, MOMENTUM = 1024, 100, 0.05, 0.01, 0.9
PARAMS = {"hidden": HIDDEN, "batch": BATCH, "sparsity": "lifetime", "rate": RATE, "tied": True,
          "optimizer": "momentum", "learning-rate": LEARNING_RATE, "momentum": MOMENTUM}
N_ROWS, N_COLS = 60000, 784
STEPS_PER_EPOCH = N_ROWS // BATCH
NOMINAL_FLOPS_PER_STEP = 4 * 2 * BATCH * HIDDEN * N_COLS
NOMINAL_NOTE = "nominal: 4 products of 2·B·H·D flops per step (B = 100, H = 1024, D = 784)"


def note(message):
    print(f"bench-wta: {message}", file=sys.stderr, flush=True)


def emit(record):
    print(json.dumps(record), flush=True)


def json_lines(text):
    return [json.loads(line) for line in text.splitlines() if line.startswith("{")]


def nominal_gflops(seconds_per_epoch):
    if not seconds_per_epoch or seconds_per_epoch <= 0:
        return None
    return NOMINAL_FLOPS_PER_STEP * STEPS_PER_EPOCH / seconds_per_epoch / 1e9


# --- the peer runner, under Debian's python or the venv's ---------------------------------

def load_fashion_mnist():
    import numpy as np

    with gzip.open(FASHION_MNIST_DIR / "train-images-idx3-ubyte.gz") as f:
        raw = np.frombuffer(f.read(), np.uint8, offset=16).reshape(-1, N_COLS)
    # Latent reads bytes as v / 255 and scales images by 1 / their largest
    # value (1 here): the same float32 inputs.
    x = raw.astype(np.float32) / np.float32(255)
    return x * (np.float32(1) / x.max())


def peer_main(kind, label, warmup, epochs):
    import numpy as np

    sys.path.insert(0, str(PEERS))
    import wta_numpy

    x = load_fashion_mnist()
    rng = np.random.default_rng(0)
    init = wta_numpy.random_init(rng, HIDDEN, N_COLS, True, sigma=0.01)
    record = {"bench": "wta", "impl": label, "python": platform.python_version(), "executable": sys.executable,
              "numpy": np.__version__}
    if kind == "torch":
        import torch

        model = wta_numpy.WtaTorch(init, PARAMS, exact_ties=False)
        data = torch.from_numpy(x)
        record.update({"torch": torch.__version__, "torch_threads": torch.get_num_threads()})

        def batches(epoch):
            g = torch.Generator().manual_seed(epoch)
            return torch.randperm(N_ROWS, generator=g)[:STEPS_PER_EPOCH * BATCH].view(STEPS_PER_EPOCH, BATCH)
    else:
        model = wta_numpy.WtaNumpy(init, PARAMS, exact_ties=False)
        data = x

        def batches(epoch):
            order = np.random.default_rng(epoch).permutation(N_ROWS)
            return order[:STEPS_PER_EPOCH * BATCH].reshape(STEPS_PER_EPOCH, BATCH)
    record["threadpools"] = threadpools()

    seconds, losses, dead = [], [], []
    for epoch in range(warmup + epochs):
        order = batches(epoch)
        model.wins = model.wins * 0
        start = time.perf_counter()
        total = 0.0
        for rows in order:
            total += model.step(data[rows])
        seconds.append(time.perf_counter() - start)
        losses.append(total / STEPS_PER_EPOCH)
        dead.append(float((np.asarray(model.wins) == 0).mean()))
        print(f"bench-wta: {label} epoch {epoch + 1}: {seconds[-1]:.2f} s, loss {losses[-1]:.4f}",
              file=sys.stderr, flush=True)
    timed = seconds[warmup:]
    record.update({"warmup_epochs": warmup, "epochs": epochs, "epoch_seconds": seconds,
                   "seconds_per_epoch": statistics.median(timed), "train_loss": losses,
                   "dead_fraction": dead})
    print(json.dumps(record), flush=True)
    return 0


# --- the driver ---------------------------------------------------------------------------

def peer_env():
    # NumPy's and PyTorch's BLAS choose their own kernels and cache sizes:
    # settings meant for this machine's other programs would skew the peers.
    env = dict(os.environ)
    env.pop("OPENBLAS_CORETYPE", None)
    env.pop("OPENBLAS_L2_SIZE", None)
    return env


def run(argv, env=None):
    note("$ " + " ".join(str(a) for a in argv))
    proc = subprocess.run([str(a) for a in argv], stdout=subprocess.PIPE, stderr=None, text=True,
                          env=env, timeout=TIMEOUT_S)
    if proc.returncode != 0:
        raise RuntimeError(f"{' '.join(str(a) for a in argv)} exited {proc.returncode}")
    return proc.stdout


def bench_latent(build_dir, device, warmup, epochs):
    bench = build_dir / "tests" / "bench" / "latent-bench-wta"
    argv = [bench, "--data", "fashion-mnist", "--device", device, "--param", f"epochs={warmup + epochs}",
            "--param", "validation=0"]
    for name, value in PARAMS.items():
        argv += ["--param", f"{name}={str(value).lower() if isinstance(value, bool) else value}"]
    lines = json_lines(run(argv))
    per_epoch = [line for line in lines if line.get("bench") == "wta-epoch"]
    final = next(line for line in lines if line.get("bench") == "wta")
    seconds = [line["seconds"] for line in per_epoch]
    timed = seconds[warmup:] or seconds
    return {"bench": "wta", "impl": final["impl"], "device": final["device"], "warmup_epochs": warmup,
            "epochs": epochs, "epoch_seconds": seconds, "first_epoch_includes_setup": True,
            "seconds_per_epoch": statistics.median(timed), "total_seconds": final["total_seconds"],
            "train_loss": [line["train_loss"] for line in per_epoch],
            "dead_fraction": [line["dead_fraction"] for line in per_epoch]}


def main():
    parser = argparse.ArgumentParser(description="wta on Fashion-MNIST: Latent, NumPy and PyTorch")
    parser.add_argument("build_dir", nargs="?")
    parser.add_argument("--epochs", type=int, default=1, help="timed epochs (the median counts)")
    parser.add_argument("--warmup", type=int, default=1, help="epochs before the timed ones")
    parser.add_argument("--no-pypi", action="store_true", help="skip the venv (NumPy and PyTorch from PyPI)")
    parser.add_argument("--no-torch", action="store_true", help="skip PyTorch")
    parser.add_argument("--reference", action="store_true", help="also time Latent's C reference (slow)")
    parser.add_argument("--peer", choices=("numpy", "torch"), help=argparse.SUPPRESS)
    parser.add_argument("--label", help=argparse.SUPPRESS)
    args = parser.parse_args()
    if args.epochs < 1 or args.warmup < 0:
        parser.error("--epochs must be at least 1, --warmup at least 0")
    if args.peer:
        return peer_main(args.peer, args.label or args.peer, args.warmup, args.epochs)
    if not args.build_dir:
        parser.error("BUILD_DIR is needed")
    if not (FASHION_MNIST_DIR / "train-images-idx3-ubyte.gz").exists():
        emit({"bench": "wta-note", "note": f"Fashion-MNIST is not in {FASHION_MNIST_DIR}"})
        return 1
    build_dir = Path(args.build_dir).resolve()

    emit({"bench": "machine", "cpu": cpu_model(), "nproc": os.cpu_count(), "memory_gib": mem_total_gib(),
          "os": os_name(), "kernel": platform.release(), "commit": git_commit(),
          "settings": {"data": "fashion-mnist train", "n": N_ROWS, "d": N_COLS, **PARAMS,
                       "steps_per_epoch": STEPS_PER_EPOCH, "warmup_epochs": args.warmup, "epochs": args.epochs,
                       "gflops": NOMINAL_NOTE}})

    results, failed = [], False
    devices = ["auto"] + (["off"] if args.reference else [])
    for device in devices:
        try:
            record = bench_latent(build_dir, device, args.warmup, args.epochs)
        except (RuntimeError, OSError, StopIteration, subprocess.TimeoutExpired) as e:
            emit({"bench": "wta-note", "impl": f"latent --device {device}", "note": str(e)})
            failed = True
            continue
        record["gflops_nominal"] = nominal_gflops(record["seconds_per_epoch"])
        emit(record)
        results.append(record)

    peers = [("numpy-debian", DEBIAN_PYTHON, "numpy")]
    venv_python = VENV / "bin" / "python"
    if not args.no_pypi:
        if not venv_python.exists():
            emit({"bench": "wta-note", "impl": "numpy-pypi",
                  "note": f"no venv at {VENV}: run tests/peers/setup-venv.sh"})
            failed = True
        else:
            peers.append(("numpy-pypi", str(venv_python), "numpy"))
            if not args.no_torch:
                python = torch_python()
                if python:
                    peers.append(("torch-pypi", python, "torch"))
                else:
                    emit({"bench": "wta-note", "impl": "torch-pypi",
                          "note": f"torch imports neither in the torch venv nor in {venv_python}: "
                                  f"{venv_python} -m pip install torch (see tests/bench/README.md)"})
    for label, python, kind in peers:
        try:
            out = run([python, Path(__file__).resolve(), "--peer", kind, "--label", label,
                       "--warmup", str(args.warmup), "--epochs", str(args.epochs)], env=peer_env())
            record = json_lines(out)[-1]
        except (RuntimeError, OSError, IndexError, subprocess.TimeoutExpired) as e:
            emit({"bench": "wta-note", "impl": label, "note": str(e)})
            failed = True
            continue
        record["gflops_nominal"] = nominal_gflops(record["seconds_per_epoch"])
        emit(record)
        results.append(record)

    ours = next((r for r in results if r["impl"] == "latent-opencl"), None)
    theirs = [r for r in results if not r["impl"].startswith("latent")]
    summary = {"bench": "wta-summary", "flops": NOMINAL_NOTE}
    if ours:
        summary.update({"latent_seconds_per_epoch": ours["seconds_per_epoch"],
                        "latent_gflops_nominal": ours["gflops_nominal"]})
    if theirs:
        best = min(theirs, key=lambda r: r["seconds_per_epoch"])
        summary.update({"best_peer": best["impl"], "best_peer_seconds_per_epoch": best["seconds_per_epoch"],
                        "peers_seconds_per_epoch": {r["impl"]: r["seconds_per_epoch"] for r in theirs}})
        if ours:
            summary["ratio_to_best_peer"] = ours["seconds_per_epoch"] / best["seconds_per_epoch"]
            summary["ratios"] = {r["impl"]: ours["seconds_per_epoch"] / r["seconds_per_epoch"] for r in theirs}
    emit(summary)
    return 1 if failed else 0


if __name__ == "__main__":
    sys.exit(main())
