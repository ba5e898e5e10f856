#!/usr/bin/python3
# bench-kmeans.py — k-means on Fashion-MNIST: Latent (OpenCL, C reference) beside scikit-learn
#
# SPDX-License-Identifier: GPL-3.0-or-later
#
# Usage: /usr/bin/python3 tests/bench/bench-kmeans.py BUILD_DIR [--quick] [--k 10,100]
#                         [--repeat 3] [--runs 3] [--no-reference] [--no-pypi] [--pixels WxH]
#
# --pixels clusters the colours of a photograph instead (Segments): a
# seeded synthetic one of W × H pixels, 3 columns, written as a PNG for
# Latent and as the same floats for scikit-learn.
#
# A benchmark, not a test: it prints JSON lines on stdout (progress on stderr)
# and fails only when something cannot run. Every implementation starts from
# the same centers (scikit-learn's kmeans_plusplus, random_state=0, saved as
# CSV) with tol = 0 and runs 5 and 25 iterations. scikit-learn's time per
# iteration is (t25 − t5) / 20 of its fit() times, so loading, set-up and
# the final assignment cancel out: the mean of its steps 6 to 25. Both its
# algorithms run ("lloyd" and "elkan"), and the faster one is the peer to
# beat. Latent's is the mean of the engine's own step times (latent-bench)
# over the same steps, 6 to 24 (the 25th also makes the final labels pass);
# a difference of whole runs goes negative when a step takes milliseconds
# and the runs' set-up varies more than that. The median of all its steps
# ("engine_median_ms", the figure before 2026-11-28) counts the first
# five, which the bounds make the dearest and the peer's figure leaves out.
# The k-means++ start is timed too ("kmeans-init" records): scikit-learn's
# kmeans_plusplus against Latent's start, which is init_ms with k-means++
# less init_ms from random rows (the rest of the start, the device's set-up
# and the first assignment, is the same in both), with each start's
# potential (Σ squared distance to the nearest center) beside it.
# All of it runs in one session, in rounds of one run of each
# implementation (--repeat rounds), so a slow stretch of a shared machine
# falls on all of them alike; "speedup" is the median of the rounds'
# ratios to the fastest peer ("speedup_of_medians" beside it). Within a
# round each implementation runs --runs times and its median counts: one
# run of Latent's 19 steps lasts about 40 ms, short enough for a busy
# neighbour on a shared machine to fall on it alone.

import argparse
import json
import os
import platform
import statistics
import subprocess
import sys
import tempfile
from pathlib import Path

from bench_machine import cpu_model, git_commit, mem_total_gib, os_name

HERE = Path(__file__).resolve().parent
SOURCE_ROOT = HERE.parents[1]
HELPER = HERE / "sklearn_kmeans.py"
SETUP_VENV = SOURCE_ROOT / "tests" / "peers" / "setup-venv.sh"
DEBIAN_PYTHON = "/usr/bin/python3"
TIMEOUT_S = 3600

ITERATIONS = (5, 25)
# The C reference is the readable oracle, slow by design (≈ 7 s an iteration at
# K = 100): fewer iterations and one run are enough to place it.
REFERENCE_ITERATIONS = (1, 5)
REFERENCE_REPEAT = 1


def note(message):
    print(f"bench-kmeans: {message}", file=sys.stderr, flush=True)


def emit(record):
    print(json.dumps(record), flush=True)


def peer_env():
    # numpy/OpenBLAS must pick their own kernels and cache sizes: settings
    # meant for this machine's other programs would skew the peers.
    env = dict(os.environ)
    env.pop("OPENBLAS_CORETYPE", None)
    env.pop("OPENBLAS_L2_SIZE", None)
    return env


def run(argv, env=None):
    note("$ " + " ".join(str(a) for a in argv))
    try:
        proc = subprocess.run([str(a) for a in argv], capture_output=True, text=True,
                              env=env, timeout=TIMEOUT_S)
    except subprocess.TimeoutExpired:
        raise RuntimeError(f"{argv[0]} took more than {TIMEOUT_S} s")
    if proc.returncode != 0:
        raise RuntimeError(f"{' '.join(str(a) for a in argv)} exited {proc.returncode}:\n"
                           f"{proc.stderr.strip()}")
    return proc.stdout


def json_lines(text):
    return [json.loads(line) for line in text.splitlines() if line.startswith("{")]


# --- machine facts ------------------------------------------------------------------------

# --- one record per implementation and K --------------------------------------------------

def per_iteration(impl, k, n, d, counts, medians, runs, extra, engine_ms=None, paired=False):
    """ENGINE_MS when the implementation times its own steps, else
    (t_long − t_short) / (iterations between); and nominal GFLOP/s: the
    2·n·k·d of a plain Lloyd iteration, even where bounds skip distances.
    PAIRED runs took turns (sklearn_kmeans.py): the difference is then the
    median of the pairs', so a slow stretch falls on both runs of a pair."""
    (short, long_), (t_short, t_long) = counts, medians
    difference = (t_long - t_short) / (long_ - short) if long_ > short else None
    if paired and difference is not None and len(runs[0]) == len(runs[1]) > 1:
        difference = statistics.median((b - a) / (long_ - short) for a, b in zip(*runs))
    ms = engine_ms if engine_ms else difference
    record = {
        "bench": "kmeans", "impl": impl, "k": k, "n": n, "d": d,
        "iterations": list(counts), "ms_median": list(medians), "runs_ms": runs,
        "per_iteration_ms": ms, "difference_ms": difference,
        "gflops": 2.0 * n * k * d / (ms / 1e3) / 1e9 if ms and ms > 0 else None,
    }
    record.update(extra)
    return record


def merge_rounds(rounds):
    """One record from an implementation's rounds: the first round's
    facts, all their runs, the medians of their figures, and each round's
    time per iteration."""
    record = dict(rounds[0])
    record["runs_ms"] = [[t for r in rounds for t in r["runs_ms"][i]] for i in range(len(record["runs_ms"]))]
    record["ms_median"] = [statistics.median(runs) for runs in record["runs_ms"]]
    record["rounds_ms"] = [r["per_iteration_ms"] for r in rounds]
    timed = [ms for ms in record["rounds_ms"] if ms]
    ms = statistics.median(timed) if timed else None
    record["per_iteration_ms"] = ms
    record["gflops"] = 2.0 * record["n"] * record["k"] * record["d"] / (ms / 1e3) / 1e9 if ms and ms > 0 else None
    for key in ("difference_ms", "engine_median_ms"):
        values = [r[key] for r in rounds if r.get(key) is not None]
        if values:
            record[key] = statistics.median(values)
    return record


def bench_latent(build_dir, spec, centers, k, device, counts, repeat):
    bench = build_dir / "tests" / "bench" / "latent-bench"
    cli = build_dir / "app" / "latent-cli"
    impl = "latent-reference" if device == "off" else "latent-opencl"
    if bench.is_file() and os.access(bench, os.X_OK):
        lines = json_lines(run([bench, "kmeans", "--data", spec, "--k", k,
                                "--init", f"@{centers}", "--iterations",
                                ",".join(map(str, counts)), "--repeat", repeat,
                                "--device", device]))
        tool = "latent-bench"
    elif cli.is_file() and os.access(cli, os.X_OK):
        # Before latent-bench existed: the CLI's own timings (loading excluded).
        lines = []
        with tempfile.TemporaryDirectory(prefix="latent-bench-") as tmp:
            out = Path(tmp) / "r.json"
            for count in counts:
                for _ in range(repeat):
                    run([cli, "run", "kmeans", "--data", spec, "--param", f"k={k}",
                         "--param", f"init=@{centers}", "--param", "tol=0",
                         "--param", f"max-iterations={count}", "--device", device,
                         "--json", out])
                    r = json.loads(out.read_text())
                    lines.append({"impl": impl, "device": r["device"], "n": r["dataset"]["rows"],
                                  "d": r["dataset"]["columns"], "iterations": r["iterations"],
                                  "max_iterations": count, "total_ms": r["timings"]["total_ms"],
                                  "objective": r["inertia"]})
        tool = "latent-cli"
    else:
        raise RuntimeError(f"neither {bench} nor {cli} is built")

    # Both tools print the runs in order: every repeat of the first count, then the next.
    if len(lines) != len(counts) * repeat:
        raise RuntimeError(f"{tool} printed {len(lines)} results, expected {len(counts) * repeat}")
    groups = [lines[i * repeat:(i + 1) * repeat] for i in range(len(counts))]
    runs = [[line["total_ms"] for line in group] for group in groups]
    first, last = groups[0][0], groups[-1][0]
    # A run that converged before its budget is timed for what it did.
    done = [group[0]["iterations"] for group in groups]
    steps = [line["iteration_ms_median"] for line in groups[-1] if line.get("iteration_ms_median")]
    # Steps short+1 … long−1 of each long run, as the peer's (t_long − t_short) / Δ.
    short = counts[0]
    windows = [statistics.mean(step for _, step in line["history"][short:-1])
               for line in groups[-1] if len(line.get("history", [])) > short + 1]
    return per_iteration(first.get("impl", impl), k, first["n"], first["d"], done,
                         [statistics.median(r) for r in runs], runs,
                         {"device": first.get("device"), "tool": tool,
                          "inertia": last.get("objective"), "load_ms": first.get("load_ms"),
                          "engine_median_ms": statistics.median(steps) if steps else None},
                         engine_ms=statistics.median(windows) if windows else None)


def bench_sklearn(python, flavour, algorithm, source, centers, k, counts, repeat):
    lines = json_lines(run([python, HELPER, *source, "--centers", centers, "--iterations", ",".join(map(str, counts)),
                            "--repeat", repeat, "--algorithm", algorithm], env=peer_env()))
    if len(lines) != len(counts):
        raise RuntimeError(f"{HELPER.name} under {python} printed {len(lines)} results, "
                           f"expected {len(counts)}")
    first = lines[0]
    name = {"faiss": f"faiss-{flavour}", "sklearnex": f"sklearnex-{flavour}"}.get(
        algorithm, f"sklearn-{first['sklearn']}-{algorithm}-{flavour}")
    return per_iteration(name, k, first["n"], first["d"],
                         [line["n_iter"] for line in lines],
                         [line["fit_ms_median"] for line in lines],
                         [line["fit_ms"] for line in lines],
                         {"python": first["python"], "numpy": first["numpy"],
                          "executable": first["executable"], "threadpools": first["threadpools"],
                          "inertia": lines[-1]["inertia"]}, paired=True)


def faster_peers(python):
    """Intel's extension and FAISS, where the Python at hand has them."""
    have = []
    for algorithm, module in (("sklearnex", "sklearnex"), ("faiss", "faiss")):
        proc = subprocess.run([python, "-c", f"import {module}"], capture_output=True, env=peer_env())
        if proc.returncode == 0:
            have.append(algorithm)
    return tuple(have)


def bench_seed_latent(build_dir, spec, k, repeat):
    bench = build_dir / "tests" / "bench" / "latent-bench"
    medians, potential, device = {}, None, None
    for init in ("random", "kmeans++"):
        lines = json_lines(run([bench, "kmeans", "--data", spec, "--k", k, "--init", init,
                                "--iterations", "1", "--repeat", repeat]))
        medians[init] = statistics.median(line["init_ms"] for line in lines)
        if init == "kmeans++":
            potential = lines[0].get("initial_objective")
            device = lines[0].get("device")
    return {"bench": "kmeans-init", "impl": "latent-opencl", "device": device, "k": k,
            "init_ms": medians["kmeans++"] - medians["random"], "start_ms": medians,
            "potentials": [potential]}


def bench_seed_sklearn(python, flavour, source, k, repeat):
    lines = json_lines(run([python, HELPER, *source, "--time-init", k, "--repeat", repeat], env=peer_env()))
    if len(lines) != 1:
        raise RuntimeError(f"{HELPER.name} under {python} printed {len(lines)} results, expected 1")
    line = lines[0]
    return {"bench": "kmeans-init", "impl": f"sklearn-{line['sklearn']}-kmeans_plusplus-{flavour}",
            "k": k, "init_ms": line["init_ms_median"], "runs_ms": line["init_ms"],
            "potentials": line["potentials"], "python": line["python"], "numpy": line["numpy"]}


def write_photo(width, height, directory):
    """A seeded photograph-like picture: smooth colour fields, edges and a
    little noise, 8 bits per channel, as a PNG and as the floats Latent
    reads from it (value / 255); returns both paths."""
    import cv2
    import numpy as np
    rng = np.random.default_rng(7)
    yy, xx = np.mgrid[0:height, 0:width].astype(np.float32)
    channels = []
    for _ in range(3):
        field = np.zeros((height, width), np.float32)
        for _ in range(4):
            fx, fy, phase = rng.uniform(0.5, 6, 2).tolist() + [rng.uniform(0, 6.3)]
            field += np.sin(xx / width * fx * 6.28 + yy / height * fy * 6.28 + phase)
        channels.append(np.floor(field))   # steps: regions with edges
    image = np.stack(channels, axis=-1)
    image = (image - image.min()) / (image.max() - image.min()) * 230 + rng.normal(0, 6, image.shape)
    pixels = np.clip(np.rint(image), 0, 255).astype(np.uint8)
    png = Path(directory) / f"photo-{width}x{height}.png"
    if not cv2.imwrite(str(png), pixels[:, :, ::-1]):   # OpenCV writes BGR
        raise RuntimeError(f"cannot write {png}")
    npy = Path(directory) / f"photo-{width}x{height}.npy"
    np.save(npy, pixels.reshape(-1, 3).astype(np.float32) / np.float32(255))
    return png, npy


def pypi_python():
    """The venv's python from setup-venv.sh (which creates it when needed)."""
    proc = subprocess.run(["sh", str(SETUP_VENV)], capture_output=True, text=True,
                          timeout=TIMEOUT_S)
    if proc.returncode != 0:
        raise RuntimeError(f"{SETUP_VENV} failed:\n{proc.stderr.strip()}")
    for line in proc.stderr.splitlines():
        note(line)
    return proc.stdout.strip().splitlines()[-1]


def main():
    parser = argparse.ArgumentParser(description="k-means benchmark: Latent beside scikit-learn")
    parser.add_argument("build_dir", type=Path, help="a configured and built Meson build directory")
    parser.add_argument("--quick", action="store_true", help="10000 rows instead of 60000 (smoke run)")
    parser.add_argument("--k", default="10,100", help="comma-separated cluster counts (default 10,100)")
    parser.add_argument("--repeat", type=int, default=3, help="rounds (one measurement of each implementation "
                        "a round); the median of the rounds' ratios counts")
    parser.add_argument("--runs", type=int, default=3, help="runs of each implementation within a round; "
                        "their median is the round's figure")
    parser.add_argument("--no-reference", action="store_true", help="skip Latent's C reference path")
    parser.add_argument("--no-pypi", action="store_true", help="skip the PyPI scikit-learn (no venv)")
    parser.add_argument("--pixels", metavar="WxH",
                        help="cluster a synthetic photograph's pixels instead of Fashion-MNIST")
    args = parser.parse_args()

    build_dir = args.build_dir.resolve()
    ks = [int(k) for k in args.k.split(",")]
    work = tempfile.TemporaryDirectory(prefix="latent-bench-kmeans-")
    if args.pixels:
        width, height = (int(v) for v in args.pixels.lower().split("x"))
        png, npy = write_photo(width, height, work.name)
        rows, spec, source = width * height, str(png), ["--npy", npy]
    else:
        data_dir = Path(os.environ.get("LATENT_FASHION_MNIST_DIR") or "/usr/share/datasets/fashion-mnist")
        if not any((data_dir / f).is_file() for f in ("train-images-idx3-ubyte.gz", "train-images-idx3-ubyte")):
            note(f"Fashion-MNIST is not in {data_dir}: install the Debian package dataset-fashion-mnist "
                 "or set LATENT_FASHION_MNIST_DIR")
            return 1
        rows = 10000 if args.quick else 60000
        spec = f"fashion-mnist:n={rows}" if args.quick else "fashion-mnist"
        source = ["--data-dir", data_dir, "--rows", rows]

    peers = [(DEBIAN_PYTHON, "debian")]
    if not args.no_pypi:
        try:
            peers.append((pypi_python(), "pypi"))
        except (RuntimeError, OSError, subprocess.TimeoutExpired) as e:
            note(f"no PyPI scikit-learn: {e}")
            emit({"bench": "kmeans-note", "note": f"PyPI scikit-learn skipped: {e}"})

    emit({"bench": "machine", "cpu": cpu_model(), "nproc": os.cpu_count(),
          "mem_total_gib": mem_total_gib(), "os": os_name(), "kernel": platform.release(),
          "python": platform.python_version(), "latent_commit": git_commit(),
          "build_dir": str(build_dir), "dataset": spec, "rows": rows, "quick": args.quick,
          "repeat": args.repeat, "runs": args.runs, "iterations": list(ITERATIONS),
          "opencl_env": os.environ.get("LATENT_OPENCL"),
          "openblas_env": {v: os.environ[v] for v in ("OPENBLAS_CORETYPE", "OPENBLAS_L2_SIZE",
                                                      "OPENBLAS_NUM_THREADS", "OMP_NUM_THREADS")
                           if v in os.environ}})

    failed = False
    with work as tmp:
        for k in ks:
            centers = Path(tmp) / f"centers-k{k}.csv"
            run([DEBIAN_PYTHON, HELPER, *source, "--make-centers", k, "--centers", centers], env=peer_env())

            # (name, one round of it, whether it runs in the first round only)
            jobs = [("latent-opencl",
                     lambda: bench_latent(build_dir, spec, centers, k, "auto", ITERATIONS, args.runs), False)]
            if not args.no_reference:
                jobs.append(("latent-reference",
                             lambda: bench_latent(build_dir, spec, centers, k, "off",
                                                  REFERENCE_ITERATIONS, REFERENCE_REPEAT), True))
            for python, flavour in peers:
                for algorithm in ("lloyd", "elkan") + faster_peers(python):
                    jobs.append((f"sklearn-{algorithm}-{flavour}",
                                 lambda python=python, flavour=flavour, algorithm=algorithm:
                                 bench_sklearn(python, flavour, algorithm, source, centers, k, ITERATIONS,
                                               args.runs),
                                 False))

            # Round by round, every implementation once, so a stretch when
            # the shared machine is slow falls on all of them alike.
            rounds = {name: [] for name, _, _ in jobs}
            for r in range(args.repeat):
                for name, job, once in jobs:
                    if rounds[name] is None or (once and r > 0):
                        continue
                    try:
                        rounds[name].append(job())
                    except (RuntimeError, OSError, ValueError, KeyError) as e:
                        note(f"{name}, K = {k}: {e}")
                        emit({"bench": "kmeans-note", "impl": name, "k": k, "note": str(e)})
                        rounds[name] = None
                        failed = True
            records = [merge_rounds(done) for done in rounds.values() if done]
            for record in records:
                emit(record)

            def best(prefix):
                timed = [r for r in records if r["impl"].startswith(prefix) and r["per_iteration_ms"]]
                return min(timed, key=lambda r: r["per_iteration_ms"]) if timed else None

            latent = next((r for r in records if r["impl"] == "latent-opencl" and r["per_iteration_ms"]),
                          None) or best("latent-")
            # The fastest of every peer: stock scikit-learn, Intel's extension, FAISS.
            peer = best(("sklearn-", "sklearnex-", "faiss-"))
            paired = ([p / q for p, q in zip(peer["rounds_ms"], latent["rounds_ms"]) if p and q]
                      if latent and peer and len(latent["rounds_ms"]) == len(peer["rounds_ms"]) else [])
            emit({"bench": "kmeans-summary", "k": k, "n": rows,
                  "latent": latent["impl"] if latent else None,
                  "latent_device": latent.get("device") if latent else None,
                  "latent_ms": latent["per_iteration_ms"] if latent else None,
                  "best_peer": peer["impl"] if peer else None,
                  "best_peer_ms": peer["per_iteration_ms"] if peer else None,
                  "speedup": (statistics.median(paired) if paired else
                              peer["per_iteration_ms"] / latent["per_iteration_ms"] if latent and peer else None),
                  "speedup_rounds": paired,
                  "speedup_of_medians": (peer["per_iteration_ms"] / latent["per_iteration_ms"]
                                         if latent and peer else None)})

            seeds = [("latent-opencl", lambda: bench_seed_latent(build_dir, spec, k, args.repeat))]
            for python, flavour in peers:
                seeds.append((f"sklearn-kmeans_plusplus-{flavour}",
                              lambda python=python, flavour=flavour:
                              bench_seed_sklearn(python, flavour, source, k, args.repeat)))
            starts = []
            for name, job in seeds:
                try:
                    record = job()
                except (RuntimeError, OSError, ValueError, KeyError) as e:
                    note(f"{name} start, K = {k}: {e}")
                    emit({"bench": "kmeans-note", "impl": name, "k": k, "note": str(e)})
                    failed = True
                    continue
                emit(record)
                starts.append(record)
            mine = next((r for r in starts if r["impl"] == "latent-opencl"), None)
            others = [r for r in starts if r["impl"] != "latent-opencl"]
            rival = min(others, key=lambda r: r["init_ms"]) if others else None
            emit({"bench": "kmeans-init-summary", "k": k, "n": rows,
                  "latent_ms": mine["init_ms"] if mine else None,
                  "best_peer": rival["impl"] if rival else None,
                  "best_peer_ms": rival["init_ms"] if rival else None,
                  "speedup": rival["init_ms"] / mine["init_ms"] if mine and rival and mine["init_ms"] > 0
                  else None})
    return 1 if failed else 0


if __name__ == "__main__":
    sys.exit(main())
