# sklearn_kmeans.py — times scikit-learn's k-means on Fashion-MNIST, prints JSON lines
#
# SPDX-License-Identifier: GPL-3.0-or-later
#
# Run by bench-kmeans.py under each Python that has a scikit-learn (Debian's,
# the PyPI venv's), so every peer runs exactly this code:
#
#   python sklearn_kmeans.py --data-dir DIR --rows N --centers C.csv \
#                            --iterations 5,25 --repeat 3 [--algorithm lloyd|elkan|sklearnex|faiss]
#
# sklearnex is Intel's extension's own KMeans (oneDAL, Lloyd), faiss FAISS's
# Kmeans from the same centers (faiss-cpu), both from the peers venv.
#
# One JSON line per iteration count: the fit() times of every repeat (after
# one warm-up fit), their median, the iterations actually run and the inertia.
# The counts take turns (5, 25, 5, 25, …), so the r-th fits of each ran
# side by side and their difference is one measurement.
#
#   python sklearn_kmeans.py --data-dir DIR --rows N --make-centers K --centers C.csv
#
# writes the shared initial centers instead: kmeans_plusplus(X, K, random_state=0).
#
#   python sklearn_kmeans.py --data-dir DIR --rows N --time-init K --repeat 3
#
# times kmeans_plusplus itself (seeds 0, 1, …), with the potential of each
# start: Σ over rows of the squared distance to the nearest center.
#
# --npy FILE.npy replaces --data-dir and --rows: the rows saved by numpy
# (bench-kmeans.py --pixels saves a photo's pixels so).

import argparse
import gzip
import json
import os
import platform
import statistics
import sys
import time

import numpy as np
import sklearn
from sklearn.cluster import KMeans, kmeans_plusplus

from bench_machine import threadpools


def read_idx_images(data_dir, rows):
    for name in ("train-images-idx3-ubyte.gz", "train-images-idx3-ubyte"):
        path = os.path.join(data_dir, name)
        if os.path.isfile(path):
            opener = gzip.open if name.endswith(".gz") else open
            with opener(path, "rb") as f:
                pixels = np.frombuffer(f.read(), dtype=np.uint8, offset=16)
            # Scaled as latent-cli scales them: uint8 / 255 in float32.
            return pixels.reshape(-1, 784)[:rows].astype(np.float32) / np.float32(255)
    sys.exit(f"sklearn_kmeans.py: no train-images-idx3-ubyte[.gz] in {data_dir}")


class FaissFit:
    """FAISS's k-means from given centers, with what the records read of a fit."""

    def __init__(self, x, centers, iterations):
        import faiss
        self.km = faiss.Kmeans(x.shape[1], centers.shape[0], niter=iterations, seed=0,
                               max_points_per_centroid=x.shape[0], verbose=False)
        self.x, self.centers, self.n_iter_ = x, centers, iterations

    def fit(self, _x):
        self.km.train(self.x, init_centroids=self.centers)
        self.inertia_ = float(self.km.obj[-1]) if len(self.km.obj) else float("nan")
        return self


def fit_ms(x, centers, iterations, algorithm):
    if algorithm == "faiss":
        km = FaissFit(x, centers, iterations)
    elif algorithm == "sklearnex":
        from sklearnex.cluster import KMeans as ExKMeans
        km = ExKMeans(n_clusters=centers.shape[0], init=centers, n_init=1, max_iter=iterations, tol=0,
                      algorithm="lloyd")
    else:
        km = KMeans(n_clusters=centers.shape[0], init=centers, n_init=1,
                    max_iter=iterations, tol=0, algorithm=algorithm)
    start = time.perf_counter()
    km.fit(x)
    return (time.perf_counter() - start) * 1000, km


def potential(x, centers):
    x64 = x.astype(np.float64)
    c64 = centers.astype(np.float64)
    cn = (c64 * c64).sum(axis=1)
    total = 0.0
    for start in range(0, x64.shape[0], 4096):
        rows = x64[start:start + 4096]
        d = (rows * rows).sum(axis=1)[:, None] + cn[None, :] - 2.0 * rows @ c64.T
        total += float(np.maximum(d.min(axis=1), 0.0).sum())
    return total


def time_init(x, k, repeat, facts):
    kmeans_plusplus(x, k, random_state=0)   # warm-up: imports, thread pools
    times, potentials = [], []
    for seed in range(repeat):
        start = time.perf_counter()
        centers, _ = kmeans_plusplus(x, k, random_state=seed)
        times.append((time.perf_counter() - start) * 1000)
        potentials.append(potential(x, centers))
    print(json.dumps({"k": k, "n": int(x.shape[0]), "d": int(x.shape[1]), "init_ms": times,
                      "init_ms_median": statistics.median(times), "potentials": potentials,
                      **facts}), flush=True)


def main():
    parser = argparse.ArgumentParser(description=__doc__)
    parser.add_argument("--data-dir")
    parser.add_argument("--npy", help="rows saved by numpy.save, instead of --data-dir")
    parser.add_argument("--rows", type=int, default=60000)
    parser.add_argument("--centers")
    parser.add_argument("--iterations", default="5,25")
    parser.add_argument("--repeat", type=int, default=3)
    parser.add_argument("--make-centers", type=int, metavar="K")
    parser.add_argument("--time-init", type=int, metavar="K")
    parser.add_argument("--algorithm", choices=("lloyd", "elkan", "sklearnex", "faiss"), default="lloyd")
    args = parser.parse_args()

    x = np.load(args.npy) if args.npy else read_idx_images(args.data_dir, args.rows)
    if args.make_centers:
        centers, _ = kmeans_plusplus(x, args.make_centers, random_state=0)
        # %.9g round-trips float32: every reader gets the same numbers.
        np.savetxt(args.centers, centers, delimiter=",", fmt="%.9g")
        return
    facts = {
        "sklearn": sklearn.__version__,
        "numpy": np.__version__,
        "python": platform.python_version(),
        "executable": sys.executable,
        "threadpools": threadpools(),
    }
    if args.time_init:
        time_init(x, args.time_init, args.repeat, facts)
        return
    if not args.centers:
        sys.exit("sklearn_kmeans.py: --centers is needed")
    centers = np.loadtxt(args.centers, delimiter=",", ndmin=2).astype(np.float32)
    counts = [int(c) for c in args.iterations.split(",")]

    # The first fit pays for imports, thread pools and page faults.
    fit_ms(x, centers, counts[0], args.algorithm)
    times = {count: [] for count in counts}
    fits = {}
    for _ in range(args.repeat):
        for count in counts:
            ms, fits[count] = fit_ms(x, centers, count, args.algorithm)
            times[count].append(ms)
    for count in counts:
        km = fits[count]
        print(json.dumps({
            "max_iter": count,
            "n_iter": int(km.n_iter_),
            "n": int(x.shape[0]),
            "d": int(x.shape[1]),
            "k": int(centers.shape[0]),
            "fit_ms": times[count],
            "fit_ms_median": statistics.median(times[count]),
            "inertia": float(km.inertia_),
            **facts,
        }), flush=True)


if __name__ == "__main__":
    main()
