#!/usr/bin/python3
# bench-stream.py — k-means and PCA over a NumPy file larger than memory
#
# Usage: bench-stream.py [--size GB] [--memory SIZE] [--dir DIR] [--keep]
#
# Writes a seeded float32 .npy file (by default 1.5 × this machine's
# memory, 784 columns, ten clusters), reads it once with dd for the disk's
# rate, then streams it through `latent-cli run kmeans` (three Lloyd
# passes) and `latent-cli run pca` under the memory budget, and prints JSON
# lines: each pass's rate in GB/s beside dd's, and the peak resident memory
# beside the budget. Page caches are dropped before each read where this
# user may (root); otherwise the file's size, larger than memory, keeps
# most of it out of the cache anyway.
#
# SPDX-License-Identifier: GPL-3.0-or-later

import argparse
import json
import os
import re
import struct
import subprocess
import sys
import time

sys.path.insert(0, os.path.dirname(os.path.abspath(__file__)))
from bench_machine import SOURCE_ROOT, machine_record, mem_total_gib  # noqa: E402

COLS = 784
CLUSTERS = 10


def write_file(path, rows, seed):
    """ROWS × COLS float32 rows, centre + noise, from SEED: a table of noise
    blocks drawn once and reused with shifted centres keeps the writing at
    the disk's pace rather than the generator's."""
    import numpy as np
    rng = np.random.default_rng(seed)
    centres = rng.normal(0, 4, (CLUSTERS, COLS)).astype(np.float32)
    block = 16384
    noise = [rng.standard_normal((block, COLS), dtype=np.float32) for _ in range(4)]
    header = "{'descr': '<f4', 'fortran_order': False, 'shape': (%d, %d), }" % (rows, COLS)
    header += " " * (63 - (10 + len(header)) % 64) + "\n"
    with open(path, "wb") as f:
        f.write(b"\x93NUMPY\x01\x00" + struct.pack("<H", len(header)) + header.encode())
        for i, first in enumerate(range(0, rows, block)):
            n = min(block, rows - first)
            labels = rng.integers(0, CLUSTERS, n)
            f.write((centres[labels] + noise[i % 4][:n]).tobytes())


def drop_caches():
    try:
        os.sync()
        with open("/proc/sys/vm/drop_caches", "w") as f:
            f.write("3\n")
        return True
    except OSError:
        return False


def dd_rate(path):
    size = os.path.getsize(path)
    start = time.monotonic()
    subprocess.run(["dd", f"if={path}", "of=/dev/null", "bs=16M"], check=True, capture_output=True)
    return size / (time.monotonic() - start) / 1e9


def timed_run(cli, args):
    """The output (summary and progress) and the peak resident set (MiB) of
    one latent-cli run."""
    p = subprocess.run(["/usr/bin/time", "-f", "peak-rss-kib %M", cli, "run", *args],
                       capture_output=True, text=True)
    if p.returncode != 0:
        sys.exit(f"latent-cli {' '.join(args)} failed:\n{p.stderr}")
    rss = int(re.search(r"peak-rss-kib (\d+)", p.stderr).group(1)) / 1024
    return p.stdout + p.stderr, rss


def main():
    ap = argparse.ArgumentParser(description="k-means and PCA over a NumPy file larger than memory")
    ap.add_argument("--size", type=float, default=None, help="file size in GB (default 1.5 × memory)")
    ap.add_argument("--memory", default="2G", help="latent-cli's memory budget")
    ap.add_argument("--dir", default=str(SOURCE_ROOT / "build"), help="where the file is written")
    ap.add_argument("--keep", action="store_true", help="keep the file (and reuse one of the same size)")
    ap.add_argument("--cli", default=str(SOURCE_ROOT / "build" / "app" / "latent-cli"))
    args = ap.parse_args()

    size_gb = args.size or 1.5 * mem_total_gib() * 2**30 / 1e9
    rows = int(size_gb * 1e9 / (COLS * 4))
    path = os.path.join(args.dir, f"stream-{rows}x{COLS}.npy")
    print(json.dumps(machine_record(file=path, rows=rows, cols=COLS, memory=args.memory)), flush=True)

    if not os.path.exists(path):
        start = time.monotonic()
        write_file(path, rows, 20261206)
        print(json.dumps({"bench": "stream", "work": "write", "gb": round(os.path.getsize(path) / 1e9, 2),
                          "seconds": round(time.monotonic() - start, 1)}), flush=True)
    file_gb = os.path.getsize(path) / 1e9
    try:
        dropped = drop_caches()
        dd = dd_rate(path)
        print(json.dumps({"bench": "stream", "work": "dd", "gb": round(file_gb, 2), "gbps": round(dd, 3),
                          "caches_dropped": dropped}), flush=True)

        drop_caches()
        err, rss = timed_run(args.cli, ["kmeans", "--data", path, "--memory", args.memory, "--param",
                                        f"k={CLUSTERS}", "--param", "tol=0", "--iterations", "3", "--progress"])
        passes = [float(ms) for ms in re.findall(r"iteration \d+: .*\(([\d.]+) ms\)", err)]
        for i, ms in enumerate(passes):
            gbps = file_gb / (ms / 1000)
            print(json.dumps({"bench": "stream", "work": "kmeans-pass", "iteration": i + 1, "gb": round(file_gb, 2),
                              "seconds": round(ms / 1000, 2), "gbps": round(gbps, 3),
                              "dd_gbps": round(dd, 3), "of_dd": round(gbps / dd, 2)}), flush=True)
        total = float(re.search(r"^kmeans on .*, ([\d.]+) ms$", err, re.M).group(1))
        print(json.dumps({"bench": "stream", "work": "kmeans-run", "seconds": round(total / 1000, 1),
                          "peak_rss_mib": round(rss), "budget": args.memory,
                          "storage": re.search(r"streamed from disk[^\n]*", err).group(0),
                          "start": (re.search(r"Started by [^.]*\.", err) or [None])[0]}), flush=True)

        drop_caches()
        err, rss = timed_run(args.cli, ["pca", "--data", path, "--memory", args.memory, "--param", "components=10"])
        ms = float(re.search(r"^pca on .*, ([\d.]+) ms$", err, re.M).group(1))
        # Two reads: the moments, then the figure's projection on two components.
        gbps = 2 * file_gb / (ms / 1000)
        print(json.dumps({"bench": "stream", "work": "pca-run", "reads": 2, "seconds": round(ms / 1000, 1),
                          "gbps": round(gbps, 3), "dd_gbps": round(dd, 3), "of_dd": round(gbps / dd, 2),
                          "peak_rss_mib": round(rss), "budget": args.memory}), flush=True)
    finally:
        if not args.keep:
            os.unlink(path)


if __name__ == "__main__":
    main()
