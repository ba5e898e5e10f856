#!/usr/bin/python3
# bench-torch.py — PyTorch as a peer on its own best device: k-means (Lloyd),
# the matrix product and 2-D convolution, on the workloads of bench-kmeans,
# bench-gemm and bench-convolve
#
# SPDX-License-Identifier: GPL-3.0-or-later
#
# Usage: tests/bench/bench-torch.py [BUILD_DIR] [--python PY] [--quick] [--repeat 25]
#
# A benchmark, not a test: JSON lines on stdout, one per workload, each
# {"bench": "torch-kmeans" | "torch-gemm" | "torch-conv2d", "impl":
# "torch-VERSION-DEVICE", ...}. PyTorch runs under PY (default
# $LATENT_TORCH_PYTHON, else /usr/bin/python3) on CUDA where it has a GPU,
# else on the CPU. BUILD_DIR is accepted, and ignored, as for the other
# drivers. When PY has no torch it prints one "torch-note" line and exits 0.
#
#   k-means   Fashion-MNIST's 60000 × 784 training rows ($LATENT_FASHION_MNIST_DIR,
#             else /usr/share/datasets/fashion-mnist), K = 10 and 100, from
#             K rows picked with a fixed seed; a Lloyd step as people write
#             it in PyTorch: |x|² − 2 x·cᵀ + |c|², argmin, index_add_ of
#             the rows, division by the counts. Median time of a step.
#   gemm      2048³ in float32 with TF32 off (Latent computes in float32).
#   conv2d    one channel, 3840 × 2160, 3 × 3 and 15 × 15 random weights,
#             zero padding to the same size.
# Times are medians over --repeat runs after three warm-up runs; on CUDA
# from events around each run, on the CPU from the wall clock.

import argparse
import json
import os
import subprocess
import sys
from pathlib import Path

sys.path.insert(0, str(Path(__file__).resolve().parent))
from bench_machine import machine_record  # noqa: E402

SCRIPT = r"""
import gzip, json, os, sys, time
import numpy as np
import torch

repeat, quick = int(sys.argv[1]), sys.argv[2] == "1"
dev = "cuda" if torch.cuda.is_available() else "cpu"
name = torch.cuda.get_device_name(0) if dev == "cuda" else "cpu"
impl = f"torch-{torch.__version__.split('+')[0]}-{dev}"
torch.backends.cuda.matmul.allow_tf32 = False
torch.backends.cudnn.allow_tf32 = False


def sync():
    if dev == "cuda":
        torch.cuda.synchronize()


def median_ms(fn):
    for _ in range(3):
        fn()
    sync()
    times = []
    for _ in range(repeat):
        if dev == "cuda":
            a, b = torch.cuda.Event(enable_timing=True), torch.cuda.Event(enable_timing=True)
            a.record(); fn(); b.record(); sync()
            times.append(a.elapsed_time(b))
        else:
            t = time.perf_counter(); fn()
            times.append(1e3 * (time.perf_counter() - t))
    return float(np.median(times))


def emit(record):
    record.update({"impl": impl, "torch_device": name})
    print(json.dumps(record), flush=True)


folder = os.environ.get("LATENT_FASHION_MNIST_DIR") or "/usr/share/datasets/fashion-mnist"
path = os.path.join(folder, "train-images-idx3-ubyte.gz")
if os.path.exists(path):
    with gzip.open(path) as f:
        x = np.frombuffer(f.read(), np.uint8, offset=16).reshape(-1, 784).astype(np.float32)
    if quick:
        x = x[:10000]
    X = torch.from_numpy(x).to(dev)
    xx = (X * X).sum(1, keepdim=True)
    for k in (10, 100):
        pick = torch.randperm(X.shape[0], generator=torch.Generator().manual_seed(0))[:k]
        state = {"c": X[pick.to(dev)].clone()}

        def step(k=k):
            c = state["c"]
            labels = (xx - 2 * X @ c.T + (c * c).sum(1)).argmin(1)
            sums = torch.zeros_like(c).index_add_(0, labels, X)
            counts = torch.bincount(labels, minlength=k).clamp_min(1).unsqueeze(1).to(X.dtype)
            state["c"] = sums / counts

        emit({"bench": "torch-kmeans", "n": X.shape[0], "d": 784, "k": k, "ms_per_iteration": median_ms(step)})
else:
    print(json.dumps({"bench": "torch-note", "note": f"no Fashion-MNIST in {folder}: no k-means"}), flush=True)

size = 512 if quick else 2048
A = torch.randn(size, size, device=dev)
B = torch.randn(size, size, device=dev)
ms = median_ms(lambda: A @ B)
emit({"bench": "torch-gemm", "m": size, "n": size, "k": size, "ms": ms, "gflops": 2 * size ** 3 / ms / 1e6})

width, height = (640, 480) if quick else (3840, 2160)
image = torch.rand(1, 1, height, width, device=dev)
for s in (3, 15):
    w = torch.rand(1, 1, s, s, device=dev)
    ms = median_ms(lambda: torch.nn.functional.conv2d(image, w, padding=s // 2))
    emit({"bench": "torch-conv2d", "width": width, "height": height, "kernel": s, "ms": ms,
          "mpix_s": width * height / ms / 1e3})
"""


def main():
    parser = argparse.ArgumentParser(description="PyTorch's k-means step, matrix product and convolution")
    parser.add_argument("build_dir", nargs="?", help="ignored, as the other drivers take one")
    parser.add_argument("--python", default=os.environ.get("LATENT_TORCH_PYTHON", "/usr/bin/python3"))
    parser.add_argument("--repeat", type=int, default=25)
    parser.add_argument("--quick", action="store_true", help="10000 rows, 512³, 640 × 480")
    parser.add_argument("--no-pypi", action="store_true", help="accepted, as the other drivers take it")
    args = parser.parse_args()
    print(json.dumps(machine_record(**vars(args))), flush=True)

    if subprocess.run([args.python, "-c", "import torch, numpy"], capture_output=True).returncode != 0:
        print(json.dumps({"bench": "torch-note", "note": f"{args.python} has no torch: no PyTorch peer"}))
        return 0
    return subprocess.run([args.python, "-c", SCRIPT, str(args.repeat), "1" if args.quick else "0"]).returncode


if __name__ == "__main__":
    sys.exit(main())
