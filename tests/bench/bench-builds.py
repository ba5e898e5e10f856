#!/usr/bin/python3
# bench-builds.py — the same workloads timed in two builds, in turn, in one run.
#
# SPDX-License-Identifier: GPL-3.0-or-later
#
# Usage: bench-builds.py OLD_BUILD_DIR NEW_BUILD_DIR [--repeat N]
#
# A change of design must not cost speed: each workload runs in the old
# build's benchmark program, then the new one's, N times in turn (ABAB…, so
# a drift of the machine's speed falls on both), and the median of each
# side's own measure is compared: milliseconds per iteration from the
# engine's step times (k-means, GMM), the whole fit (PCA, which computes in
# its initialisation), seconds per epoch (the autoencoder, logistic
# regression). One JSON line per workload, after the machine record, with
# the ratios new / old of the medians and of the fastest runs. Needs Fashion-MNIST (dataset-fashion-mnist).

import argparse
import json
import os
import statistics
import subprocess
import sys

sys.path.insert(0, os.path.dirname(os.path.abspath(__file__)))
from bench_machine import machine_record  # noqa: E402


def per_iteration(run):
    steps = [ms for _, ms in run['history']]
    return statistics.median(steps)


WORKLOADS = [
    ('kmeans-opencl-k10', 'latent-bench', ['kmeans', '--data', 'fashion-mnist', '--k', '10',
                                           '--iterations', '20'], per_iteration, 'ms per iteration'),
    ('kmeans-opencl-k100', 'latent-bench', ['kmeans', '--data', 'fashion-mnist', '--k', '100',
                                            '--iterations', '10'], per_iteration, 'ms per iteration'),
    ('kmeans-reference-k10', 'latent-bench', ['kmeans', '--data', 'blobs:n=20000,k=10,dims=64,seed=1',
                                              '--k', '10', '--iterations', '10', '--device', 'off'],
     per_iteration, 'ms per iteration'),
    ('gmm-opencl-full', 'latent-bench', ['gmm', '--data', 'blobs:n=100000,k=10,dims=16,seed=1', '--k', '10', '--init', 'kmeans',
                                         '--iterations', '10'], per_iteration, 'ms per iteration'),
    ('gmm-reference-full', 'latent-bench', ['gmm', '--data', 'blobs:n=20000,k=10,dims=16,seed=1', '--k', '10', '--init', 'kmeans',
                                            '--iterations', '5', '--device', 'off'],
     per_iteration, 'ms per iteration'),
    ('pca-opencl-50', 'latent-bench', ['pca', '--data', 'fashion-mnist', '--param', 'components=50',
                                       '--iterations', '1'], lambda r: r['total_ms'], 'ms per fit'),
    ('wta-opencl-epoch', 'latent-bench-wta', ['--data', 'fashion-mnist', '--param', 'epochs=1'],
     lambda r: 1000 * r['total_seconds'], 'ms per epoch'),
    ('logreg-opencl-adam', 'latent-bench-logreg', ['--data', 'fashion-mnist', '--test', 'fashion-mnist-test',
                                                   '--param', 'epochs=2', '--param', 'optimizer=adam'],
     lambda r: 1000 * r['total_seconds'] / 2, 'ms per epoch'),
]


def measure(build, program, args, pick):
    out = subprocess.run([os.path.join(build, 'tests', 'bench', program), *args], capture_output=True,
                         text=True, check=True, timeout=900).stdout
    runs = [json.loads(line) for line in out.splitlines() if line.startswith('{')]
    # The result line, not per-epoch records or the machine's.
    runs = [r for r in runs if 'history' in r or 'total_seconds' in r]
    return pick(runs[-1])


def main():
    parser = argparse.ArgumentParser(description=__doc__)
    parser.add_argument('old')
    parser.add_argument('new')
    parser.add_argument('--repeat', type=int, default=5)
    parser.add_argument('--only', help='a comma-separated list of workload names')
    args = parser.parse_args()
    print(json.dumps(machine_record()), flush=True)
    only = set(args.only.split(',')) if args.only else None
    for name, program, argv, pick, unit in WORKLOADS:
        if only and name not in only:
            continue
        old, new = [], []
        measure(args.new, program, argv, pick)  # warm-up: kernels built and cached, data in the page cache
        for _ in range(args.repeat):
            old.append(measure(args.old, program, argv, pick))
            new.append(measure(args.new, program, argv, pick))
        o, n = statistics.median(old), statistics.median(new)
        # The fastest run says what the code costs when nothing else runs;
        # the median, what a person sees on this machine.
        print(json.dumps({'bench': 'builds', 'workload': name, 'unit': unit, 'old_median': o, 'new_median': n,
                          'ratio_new_over_old': n / o, 'old_min': min(old), 'new_min': min(new),
                          'ratio_of_mins': min(new) / min(old), 'old': old, 'new': new}), flush=True)


if __name__ == '__main__':
    main()
