#!/usr/bin/python3
# test-embedding.py — t-SNE in the window, as a person runs it: the points
# move while it runs, the classes come apart, and the embedding becomes
# the data for k-means
#
# SPDX-License-Identifier: GPL-3.0-or-later
#
# Run through run-ui-test.sh (Xvfb, a session bus, the accessibility bus).
# The data: scikit-learn's handwritten digits (1,797 × 64, ten classes),
# written as a CSV whose last column names the digit.

import os
import re
import sys
import time

if not os.environ.get('LATENT_EXECUTABLE'):
    print('SKIP: LATENT_EXECUTABLE is not set; run this through run-ui-test.sh')
    sys.exit(77)

import latent_ui as ui  # noqa: E402
from latent_ui import Failure, log  # noqa: E402

SCRATCH = ui.scratch_dir()
DIGITS = os.path.join(SCRATCH, 'digits.csv')

app = ui.App()
status, wait_status, metrics = app.status, app.wait_status, app.metrics


def write_digits():
    from sklearn.datasets import load_digits
    d = load_digits()
    with open(DIGITS, 'w') as f:
        f.write(','.join(f'p{i}' for i in range(64)) + ',digit\n')
        for row, label in zip(d.data, d.target):
            f.write(','.join(str(int(v)) for v in row) + f',d{label}\n')


def figure_shot(name):
    figure = app.find(None, 'Figure', what='the figure')
    path = os.path.join(ui.artifacts_dir(), name)
    app.screenshot(path, figure)
    return path


def step_start():
    write_digits()
    app.start()
    app.button('Run', timeout=30, what='a push button named "Run"')
    app.open_file(DIGITS)
    wait_status(r'digits', 30, 'the digits to load')


def step_live():
    app.select_dropdown('Algorithm', 't-SNE')
    wait_status(r't-SNE · iteration 0\b', 20, 't-SNE to be ready')
    # 750 iterations at the default 10 a second would take 75 s.
    ui.click(app.find('check box', 'As fast as possible', what='the check box "As fast as possible"'))
    app.press('Run')
    seen = set()
    shots = []
    deadline = time.monotonic() + 240
    while time.monotonic() < deadline:
        text = status()
        m = re.search(r'iteration (\d+)', text)
        if m and 0 < int(m.group(1)) < 750 and int(m.group(1)) not in seen:
            seen.add(int(m.group(1)))
            if len(shots) < 2 and (not shots or int(m.group(1)) > 300):
                shots.append(figure_shot(f'ui-embedding-iteration-{m.group(1)}.png'))
        if re.search(r'(?i)converged', text):
            break
        time.sleep(0.05)
    log(f'  iterations seen while running: {sorted(seen)[:12]}… ({len(seen)} in all)')
    if len(seen) < 3:
        raise Failure(f'the run was seen at {len(seen)} iterations only: the view is not live')
    wait_status(r'(?i)converged', 60, 't-SNE to finish')
    text = metrics()
    log(f'  status: {status()!r}\n  metrics: {text!r}')
    kl = re.search(r'KL divergence ([\d.]+)', text)
    trust = re.search(r'Trustworthiness ([\d.]+)', text)
    if not kl or not trust:
        raise Failure(f'the metrics give no KL divergence or trustworthiness: {text!r}')
    if float(trust.group(1)) < 0.98:
        raise Failure(f'trustworthiness {trust.group(1)} on the digits; scikit-learn reaches 0.99')
    end = figure_shot('ui-embedding-end.png')
    log(f'  the figure while running: {shots}; at the end: {end}')
    if not shots:
        raise Failure('no figure was caught while the run went')
    if open(shots[0], 'rb').read() == open(end, 'rb').read():
        raise Failure('the figure while running is the end figure: the points did not move')


def step_kmeans_on_it():
    app.choose_menu_item('Dataset', 'Use Its Features')
    wait_status(r'→ tsne · 1797 × 2\b', 20, 'the embedding to become the data')
    app.select_dropdown('Algorithm', 'k-means')
    spin = app.find('spin button', 'Clusters', what='the spin button "Clusters"')
    ui.set_value(spin, 10)
    app.press('Run')
    wait_status(r'(?i)converged', 60, 'k-means to finish')
    text = metrics()
    log(f'  metrics: {text!r}')
    m = re.search(r'Accuracy ([\d.]+)', text)
    if not m or float(m.group(1)) < 0.8:
        raise Failure(f'k-means on the embedding should match the digits to 0.8 or more: {text!r}')


def main():
    ui.run_steps('ui-embedding', app, [
        ('start the window and open the digits', step_start),
        ('t-SNE runs live: several iterations seen, the digits apart at the end', step_live),
        ('Use Its Features, then k-means on the embedding matches the digits', step_kmeans_on_it),
    ])
    status_code = app.stop()
    if status_code != 0:
        log(f'FAIL: the application exited with status {status_code} when asked to quit')
        return 1
    return 0


if __name__ == '__main__':
    sys.exit(main())
