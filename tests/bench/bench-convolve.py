#!/usr/bin/python3
# bench-convolve.py — Latent's OpenCL convolution beside OpenCV's filter2D and sepFilter2D
#
# SPDX-License-Identifier: GPL-3.0-or-later
#
# Usage: /usr/bin/python3 tests/bench/bench-convolve.py BUILD_DIR [--repeat 7]
#            [--sizes 3,7,11,15,31] [--shapes 3840x2160,640x480] [--no-pypi] [--quick]
#
# A benchmark, not a test: JSON lines on stdout (progress on stderr), then
# a table. Float32, one channel, 3840 × 2160 and 640 × 480, BORDER_REFLECT_101
# ("mirror"), kernel sizes 3, 7, 11, 15, 31, two kinds:
#   random    uniform random weights (not separable): OpenCV's filter2D
#             (which switches to a DFT from about 12 × 12) against Latent's
#             methods for full kernels;
#   gaussian  OpenCV's default Gaussian for the size: sepFilter2D against
#             Latent's methods for separable kernels.
# Latent's time is the median of --repeat batches, each passes back to back
# for about 25 ms with the image on the device (repeat mode), divided by
# the passes;
# its single-pass latency (enqueue to completion) is printed beside it.
# OpenCV's is the median of --repeat batches of calls into a preallocated
# output (each batch about 25 ms, after a warm-up), divided by the calls. Peers run in their own processes, in the same session:
# Debian's OpenCV (/usr/bin/python3) and the current PyPI release (the
# venv of tests/peers/setup-venv.sh). The ratio is Latent's MP/s for "auto"
# over the faster OpenCV's: above 1 means Latent is faster.

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

OPENCV_SCRIPT = r"""
import json, sys, time
import cv2, numpy as np

repeat = int(sys.argv[1])
sizes = [int(s) for s in sys.argv[2].split(",")]
shapes = json.loads(sys.argv[3])
rng = np.random.default_rng(0)

def median_ms(f):
    # Batches of calls lasting about 25 ms, as for Latent's passes.
    f()
    t = time.perf_counter()
    f()
    calls = max(1, min(500, int(0.025 / max(time.perf_counter() - t, 1e-6))))
    times = []
    for _ in range(repeat):
        t = time.perf_counter()
        for _ in range(calls):
            f()
        times.append((time.perf_counter() - t) / calls)
    times.sort()
    return 1e3 * times[len(times) // 2]

for w, h in shapes:
    x = rng.uniform(0, 1, (h, w)).astype(np.float32)
    out = np.empty_like(x)
    for k in sizes:
        kern = rng.uniform(0, 1, (k, k)).astype(np.float32)
        kern /= kern.sum()
        ms = median_ms(lambda: cv2.filter2D(x, -1, kern, dst=out, borderType=cv2.BORDER_REFLECT_101))
        print(json.dumps({"width": w, "height": h, "kernel": k, "kind": "random", "call": "filter2D",
                          "ms": ms, "opencv": cv2.__version__, "threads": cv2.getNumThreads()}), flush=True)
        g = cv2.getGaussianKernel(k, 0, cv2.CV_32F)
        ms = median_ms(lambda: cv2.sepFilter2D(x, -1, g, g, dst=out, borderType=cv2.BORDER_REFLECT_101))
        print(json.dumps({"width": w, "height": h, "kernel": k, "kind": "gaussian", "call": "sepFilter2D",
                          "ms": ms, "opencv": cv2.__version__, "threads": cv2.getNumThreads()}), flush=True)
"""


def note(message):
    print(f"bench-convolve: {message}", file=sys.stderr, flush=True)


def run(argv):
    note("$ " + " ".join(str(a) for a in argv[:4]) + (" …" if len(argv) > 4 else ""))
    try:
        proc = subprocess.run([str(a) for a in argv], capture_output=True, text=True, timeout=TIMEOUT_S)
    except subprocess.TimeoutExpired:
        raise RuntimeError(f"{argv[0]} took more than {TIMEOUT_S} s")
    if proc.returncode != 0:
        raise RuntimeError(f"{argv[0]} exited {proc.returncode}:\n{proc.stderr.strip()}")
    return [json.loads(line) for line in proc.stdout.splitlines() if line.startswith("{")]


def main():
    parser = argparse.ArgumentParser(description=__doc__)
    parser.add_argument("build_dir", type=Path)
    parser.add_argument("--repeat", type=int, default=7)
    parser.add_argument("--sizes", default="3,7,11,15,31")
    parser.add_argument("--no-pypi", action="store_true", help="skip the PyPI venv's OpenCV")
    parser.add_argument("--shapes", default="3840x2160,640x480", help="image sizes, WxH,…")
    parser.add_argument("--quick", action="store_true", help="auto only")
    args = parser.parse_args()
    # default=str: the build directory is a Path.
    print(json.dumps(machine_record(**vars(args)), default=str), flush=True)

    bench = args.build_dir / "tests" / "bench" / "latent-bench-convolve"
    if not bench.exists():
        sys.exit(f"bench-convolve: {bench} does not exist; build it first (ninja -C {args.build_dir})")
    shapes = [tuple(int(v) for v in shape.split("x")) for shape in args.shapes.split(",")]
    methods = "auto" if args.quick else "auto,direct,tiled,separable,fft"

    records = []
    peers = [("opencv-debian", DEBIAN_PYTHON)]
    venv = Path(os.environ.get("LATENT_PEERS_VENV", Path.home() / ".cache/latent/peers-venv")) / "bin/python"
    if not args.no_pypi and venv.exists():
        peers.append(("opencv-pypi", str(venv)))
    elif not args.no_pypi:
        note(f"{venv} is missing: run tests/peers/setup-venv.sh for the current OpenCV")

    # Ours and the peers alternate per shape, so a burst of load elsewhere
    # on the machine hits both rather than one.
    for w, h in shapes:
        for r in run([bench, "--width", w, "--height", h, "--sizes", args.sizes, "--methods", methods,
                      "--repeat", args.repeat]):
            records.append(r)
            print(json.dumps(r), flush=True)
        for impl, python in peers:
            for r in run([python, "-c", OPENCV_SCRIPT, args.repeat, args.sizes, json.dumps([[w, h]])]):
                r["impl"] = impl
                r["mpix_s"] = r["width"] * r["height"] / (r["ms"] * 1e3)
                records.append(r)
                print(json.dumps(r), flush=True)

    # The table: ours (auto, and each method) against the faster OpenCV.
    print()
    print(f"{'size':>11} {'kernel':>9} {'kind':>8}  {'auto':>14} {'MP/s':>7} {'direct':>7} {'tiled':>7} "
          f"{'separ.':>7} {'fft':>7}  {'opencv':>14} {'MP/s':>7}  {'ratio':>5}")
    for w, h in shapes:
        for k in (int(s) for s in args.sizes.split(",")):
            for kind in ("random", "gaussian"):
                mine = {r["method"]: r for r in records
                        if r.get("impl") == "latent-opencl" and r["width"] == w and r["kernel"] == k
                        and r["kind"] == kind}
                theirs = [r for r in records if r.get("impl", "").startswith("opencv") and r["width"] == w
                          and r["kernel"] == k and r["kind"] == kind]
                if "auto" not in mine or not theirs:
                    continue
                best = max(theirs, key=lambda r: r["mpix_s"])
                ratio = mine["auto"]["mpix_s"] / best["mpix_s"]
                cells = [f"{mine[m]['mpix_s']:7.0f}" if m in mine else f"{'–':>7}"
                         for m in ("direct", "tiled", "separable", "fft")]
                print(f"{w:>5} × {h:<4} {k:>3} × {k:<3} {kind:>8}  {mine['auto']['method_used']:>9} "
                      f"{mine['auto']['ms']:4.1f} {mine['auto']['mpix_s']:7.0f} {' '.join(cells)}  "
                      f"{best['impl'][7:]:>6} {best['ms']:6.2f} {best['mpix_s']:7.0f}  {ratio:5.2f}")
                print(json.dumps({"width": w, "height": h, "kernel": k, "kind": kind,
                                  "latent_method": mine["auto"]["method_used"],
                                  "latent_mpix_s": round(mine["auto"]["mpix_s"], 1),
                                  "versus": best["impl"], "opencv": best["opencv"],
                                  "peer_mpix_s": round(best["mpix_s"], 1), "ratio": round(ratio, 3)}),
                      file=sys.stderr, flush=True)


if __name__ == "__main__":
    try:
        main()
    except RuntimeError as e:
        sys.exit(f"bench-convolve: {e}")
