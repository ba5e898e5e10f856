#!/usr/bin/python3
# bench-gemm.py — Latent's OpenCL matrix product beside NumPy's float32 matmul
#
# SPDX-License-Identifier: GPL-3.0-or-later
#
# Usage: /usr/bin/python3 tests/bench/bench-gemm.py BUILD_DIR [--repeat 3] [--no-pypi]
#
# A benchmark, not a test: JSON lines on stdout (progress on stderr). The
# cases: the PCA covariance X.T @ X with X 60,000 × 784 (NumPy hands it to
# OpenBLAS's SYRK; Latent computes the upper triangle and mirrors it), a
# square 2048³ product, and the PCA-shaped products 784 × 784 · 784 × 50
# ("narrow", too small to be more than launch overhead) and 60,000 × 784 ·
# 784 × 50 ("project"); where the device has products of 8-bit row pairs
# or quads, also "ata-pairs" and "ata-quads": X.T @ X of integer data those
# ways, set beside the peers' float "ata" (what PCA of 8-bit images
# computes either way). GFLOP/s is the nominal 2·m·n·k for both, for every
# implementation, so the ratios compare times. Each implementation runs in
# its own process, one after another in the same session; the best of
# REPEAT timed runs counts, after one warm-up.

import argparse
import json
import os
import subprocess
import sys
from pathlib import Path

sys.path.insert(0, str(Path(__file__).resolve().parent))
from bench_machine import machine_record  # noqa: E402

DEBIAN_PYTHON = "/usr/bin/python3"
TIMEOUT_S = 1800

NUMPY_SCRIPT = r"""
import json, sys, time
import numpy as np

repeat = int(sys.argv[1])
rng = np.random.default_rng(0)

def best(f):
    f()
    times = []
    for _ in range(repeat):
        t = time.perf_counter()
        f()
        times.append(time.perf_counter() - t)
    return min(times)

x = rng.uniform(-1, 1, size=(60000, 784)).astype(np.float32)
s = best(lambda: x.T @ x)
print(json.dumps({"case": "ata", "m": 784, "n": 784, "k": 60000, "seconds": s,
                  "numpy": np.__version__}), flush=True)
del x
for case, m, n, k in (("square", 2048, 2048, 2048), ("narrow", 784, 50, 784),
                      ("project", 60000, 50, 784)):
    a = rng.uniform(-1, 1, size=(m, k)).astype(np.float32)
    b = rng.uniform(-1, 1, size=(k, n)).astype(np.float32)
    s = best(lambda: a @ b)
    print(json.dumps({"case": case, "m": m, "n": n, "k": k, "seconds": s,
                      "numpy": np.__version__}), flush=True)
"""


def note(message):
    print(f"bench-gemm: {message}", file=sys.stderr, flush=True)


def peer_env():
    # OpenBLAS must pick its own kernels and cache sizes: settings meant for
    # this machine's other programs would skew the peer.
    env = dict(os.environ)
    env.pop("OPENBLAS_CORETYPE", None)
    env.pop("OPENBLAS_L2_SIZE", None)
    return env


def run(argv, env=None):
    note("$ " + " ".join(str(a) for a in argv[:2]) + (" …" if len(argv) > 2 else ""))
    try:
        proc = subprocess.run([str(a) for a in argv], capture_output=True, text=True,
                              env=env, timeout=TIMEOUT_S)
    except subprocess.TimeoutExpired:
        raise RuntimeError(f"{argv[0]} took more than {TIMEOUT_S} s")
    if proc.returncode != 0:
        raise RuntimeError(f"{argv[0]} exited {proc.returncode}:\n{proc.stderr.strip()}")
    return [json.loads(line) for line in proc.stdout.splitlines() if line.startswith("{")]


def main():
    parser = argparse.ArgumentParser(description=__doc__)
    parser.add_argument("build_dir", type=Path)
    parser.add_argument("--repeat", type=int, default=3)
    parser.add_argument("--no-pypi", action="store_true", help="skip the PyPI venv's NumPy")
    args = parser.parse_args()
    print(json.dumps(machine_record(**vars(args))), flush=True)

    bench = args.build_dir / "tests" / "bench" / "latent-bench-gemm"
    if not bench.exists():
        sys.exit(f"bench-gemm: {bench} does not exist; build it first (ninja -C {args.build_dir})")

    records = []
    for r in run([bench, "--repeat", args.repeat]):
        r["impl"] = "latent-opencl"
        records.append(r)

    pythons = [("numpy-debian", DEBIAN_PYTHON)]
    venv = Path(os.environ.get("LATENT_PEERS_VENV", Path.home() / ".cache/latent/peers-venv")) / "bin/python"
    if not args.no_pypi and venv.exists():
        pythons.append(("numpy-pypi", str(venv)))
    for impl, python in pythons:
        for r in run([python, "-c", NUMPY_SCRIPT, args.repeat], env=peer_env()):
            r["impl"] = impl
            r["gflops"] = 2.0 * r["m"] * r["n"] * r["k"] / r["seconds"] * 1e-9
            records.append(r)

    for r in records:
        print(json.dumps(r), flush=True)

    ours = {r["case"]: r for r in records if r["impl"] == "latent-opencl"}
    for r in records:
        for case in (r["case"], r["case"] + "-pairs", r["case"] + "-quads"):
            if r["impl"] == "latent-opencl" or case not in ours:
                continue
            mine = ours[case]
            print(json.dumps({"case": case, "versus": r["impl"],
                              "latent_gflops": round(mine["gflops"], 1),
                              "peer_gflops": round(r["gflops"], 1),
                              "ratio": round(mine["gflops"] / r["gflops"], 3)}), flush=True)


if __name__ == "__main__":
    try:
        main()
    except RuntimeError as e:
        sys.exit(f"bench-gemm: {e}")
