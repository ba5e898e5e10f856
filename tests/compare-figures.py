#!/usr/bin/python3
# compare-figures.py — every figure of every algorithm, exported by two builds, compared.
#
# SPDX-License-Identifier: GPL-3.0-or-later
#
# Usage: compare-figures.py OLD_LATENT_CLI NEW_LATENT_CLI [WORK_DIR]
#
# A refactoring must not change what a person sees: each algorithm runs on
# small data, in a few variants, with a fixed seed on the C reference path
# (--device off, so no device timing enters), and each of its figures is
# exported as SVG by both builds. The SVGs must be byte-identical; a line that differs is printed.
# Measured times are the one thing allowed to differ: the convolution's
# figures print milliseconds per pass, and what is drawn around them follows
# them, so of those only the images are compared. Each figure is also
# exported as PNG, which must be byte-identical too, except where times are
# drawn. Exit 1 when any differs.

import os
import re
import subprocess
import sys
import tempfile

# Data each algorithm runs on, in variants that take other paths through the
# figures (other covariances, whitening, image rows drawn as images, other
# filters); a few iterations, enough for every figure. IMAGES is a small
# labelled image set written below from Fashion-MNIST, when it is installed.
IMAGES = '@images'
RUNS = {
    'kmeans': [['--data', 'iris', '--param', 'k=3'],
               ['--data', 'blobs:n=500,k=4,dims=2,seed=7', '--param', 'k=4', '--param', 'init=random'],
               ['--data', IMAGES, '--param', 'k=6']],
    'gmm': [['--data', 'iris', '--param', 'k=3'],
            ['--data', 'iris', '--param', 'k=3', '--param', 'covariance=diag'],
            ['--data', 'blobs:n=500,k=3,dims=2,seed=4', '--param', 'k=3', '--param', 'covariance=spherical']],
    'pca': [['--data', 'iris', '--param', 'components=2'],
            ['--data', 'iris', '--param', 'components=3', '--param', 'whiten=true'],
            ['--data', IMAGES, '--param', 'components=8']],
    'ppca': [['--data', 'iris', '--param', 'components=2'],
             ['--data', IMAGES, '--param', 'components=6']],
    'fa': [['--data', 'iris', '--param', 'components=2'],
           ['--data', IMAGES, '--param', 'components=6']],
    'wta': [['--data', 'blobs:n=400,k=4,dims=16,seed=3', '--param', 'hidden=16', '--param', 'epochs=2'],
            ['--data', IMAGES, '--param', 'hidden=36', '--param', 'epochs=2']],
    'logreg': [['--data', 'moons:n=400,seed=2', '--iterations', '20'],
               ['--data', IMAGES, '--iterations', '5']],
    'convolve': [['--data', 'pattern:width=96,height=64,seed=2', '--param', 'method=direct'],
                 ['--data', 'pattern:width=96,height=64,seed=2', '--param', 'filter=gradient'],
                 ['--data', 'pattern:width=96,height=64,seed=2', '--param', 'filter=sharpen',
                  '--param', 'iterations=3']],
    'prototype': [['--data', 'blobs:n=600,k=5,dims=4,seed=5', '--param', 'episodes=20', '--param', 'ways=3',
                   '--param', 'shots=2'],
                  ['--data', IMAGES, '--param', 'episodes=5', '--param', 'ways=4', '--param', 'shots=3']],
}


def write_images(folder):
    """The first 600 Fashion-MNIST images and their labels as IDX files, or None."""
    import gzip
    source = '/usr/share/datasets/fashion-mnist'
    n = 600
    try:
        with gzip.open(os.path.join(source, 'train-images-idx3-ubyte.gz')) as f:
            images = f.read(16 + n * 784)
        with gzip.open(os.path.join(source, 'train-labels-idx1-ubyte.gz')) as f:
            labels = f.read(8 + n)
    except OSError:
        return None
    path = os.path.join(folder, 'few-images-idx3-ubyte')
    with open(path, 'wb') as f:
        f.write(images[:4] + n.to_bytes(4, 'big') + images[8:])
    with open(os.path.join(folder, 'few-labels-idx1-ubyte'), 'wb') as f:
        f.write(labels[:4] + n.to_bytes(4, 'big') + labels[8:])
    return path


def figures(cli):
    out = subprocess.run([cli, 'run', '--help'], capture_output=True, text=True, env=ENV).stdout
    return {m.group(1): m.group(2).split(', ') for m in re.finditer(r'^\s+(\w+)\s+.*\(figures: ([^)]*)\)', out, re.M)}


# Figures that print a measured time.
TIMED = {'convolve'}


def comparable(svg, algorithm):
    if algorithm not in TIMED:
        return svg
    # What is drawn around the times (their text, the bars beside them)
    # follows them; the images are what must not change.
    return b'\n'.join(re.findall(rb'<image[^>]*>', svg))


def export(cli, algorithm, variant, figure, path):
    args = [cli, 'run', algorithm, *variant, '--seed', '1', '--device', 'off', '--figure', figure,
            '--export', path, '--size', '800x600']
    p = subprocess.run(args, capture_output=True, text=True, env=ENV, timeout=600)
    return p.returncode, p.stderr.strip()


ENV = dict(os.environ, LANGUAGE='C', LC_ALL='C.UTF-8')
old_cli, new_cli = sys.argv[1], sys.argv[2]
work = sys.argv[3] if len(sys.argv) > 3 else tempfile.mkdtemp(prefix='latent-figures-')
os.makedirs(work, exist_ok=True)
images = write_images(work)
if images is None:
    print('not compared: the image variants (Fashion-MNIST is not installed)')
differ = compared = 0
for algorithm, names in figures(new_cli).items():
    if algorithm not in RUNS:
        print(f'not compared: {algorithm} (no run for it here)')
        differ += 1
        continue
    for v, variant in enumerate(RUNS[algorithm]):
        if IMAGES in variant and images is None:
            continue
        variant = [images if a == IMAGES else a for a in variant]
        # PNG too, but not where measured times are drawn: its pixels follow them.
        for figure, suffix in [(f, s) for f in names for s in ('svg', 'png')
                               if s == 'svg' or algorithm not in TIMED]:
            paths = [os.path.join(work, f'{side}-{algorithm}-{v}-{figure}.{suffix}') for side in ('old', 'new')]
            results = [export(cli, algorithm, variant, figure, path) for cli, path in zip((old_cli, new_cli), paths)]
            compared += 1
            if any(rc != 0 for rc, _ in results):
                print(f'{algorithm} {" ".join(variant)} {figure}: exit {results[0][0]} / {results[1][0]}: '
                      f'{results[0][1]} | {results[1][1]}')
                differ += 1
                continue
            old, new = (comparable(open(p, 'rb').read(), algorithm) for p in paths)
            if old != new:
                differ += 1
                lines = [(a, b) for a, b in zip(old.split(b'\n'), new.split(b'\n')) if a != b]
                print(f'{algorithm} {" ".join(variant)} {figure}: differs ({len(lines)} lines), first: {lines[:1]}')
print(f'{compared} figures compared, {differ} differ ({work})')
sys.exit(1 if differ else 0)
