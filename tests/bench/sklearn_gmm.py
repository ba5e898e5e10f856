# sklearn_gmm.py — times scikit-learn's GaussianMixture, prints JSON lines
#
# SPDX-License-Identifier: GPL-3.0-or-later
#
# Run by bench-gmm.py under each Python with a scikit-learn, so every peer runs
# this same code:
#
#   python sklearn_gmm.py --data X.npy --start START.json --k 10 --iterations 5,25 --repeat 3
#
# One JSON line per iteration count: fit() times after one warm-up fit, their
# median, and the mean log-likelihood reached.

import argparse
import json
import statistics
import time
import warnings

import numpy as np
import sklearn
from sklearn.mixture import GaussianMixture

from bench_machine import cpu_model, threadpools


def main():
    parser = argparse.ArgumentParser()
    parser.add_argument("--data", required=True)
    parser.add_argument("--start", required=True)
    parser.add_argument("--k", type=int, required=True)
    parser.add_argument("--iterations", default="5,25")
    parser.add_argument("--repeat", type=int, default=3)
    args = parser.parse_args()
    warnings.filterwarnings("ignore", module="sklearn")

    x = np.load(args.data)
    start = json.load(open(args.start))
    weights = np.array(start["weights"])
    means = np.array(start["means"])
    precisions = np.linalg.inv(np.array(start["covariances"]))
    for count in [int(c) for c in args.iterations.split(",")]:
        def fit():
            gm = GaussianMixture(args.k, covariance_type="full", max_iter=count, tol=0, weights_init=weights,
                                 means_init=means, precisions_init=precisions)
            t = time.perf_counter()
            gm.fit(x)
            return time.perf_counter() - t, gm
        fit()
        runs = [fit() for _ in range(args.repeat)]
        times = [r[0] * 1000 for r in runs]
        print(json.dumps({"impl": f"sklearn-{sklearn.__version__}", "cpu": cpu_model(), "threadpools": threadpools(),
                          "iterations": count,
                          "times_ms": times, "median_ms": statistics.median(times),
                          "log_likelihood": runs[-1][1].lower_bound_, "dtype": str(x.dtype)}), flush=True)


if __name__ == "__main__":
    main()
