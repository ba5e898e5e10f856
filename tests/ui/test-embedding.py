#!/usr/bin/python3
# test-embedding.py — t-SNE and UMAP in the window, as a person runs them:
# the points move while t-SNE runs, the classes come apart, UMAP keeps the
# neighbours, its embedding becomes the data for k-means, and hovering a
# point of an image dataset shows the image
#
# SPDX-License-Identifier: GPL-3.0-or-later
#
# Run through run-ui-test.sh (Xvfb, a session bus, the accessibility bus).
# The data: scikit-learn's handwritten digits (1,797 × 64, ten classes),
# written as a CSV whose last column names the digit.

import os
import re
import subprocess
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
    # t-SNE's pace: its iterations as fast as they go, drawn once a frame.
    fast = app.find('check box', 'As fast as possible', what='the check box "As fast as possible"')
    if not ui.is_checked(fast):
        raise Failure('t-SNE does not start as fast as possible: 750 iterations at 10 a second take 75 s')
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


def step_umap():
    app.select_dropdown('Algorithm', 'UMAP')
    wait_status(r'UMAP · iteration 0\b', 20, 'UMAP to be ready')
    app.press('Run')
    wait_status(r'(?i)finished 200 epochs|converged', 120, 'UMAP to finish')
    text = metrics()
    log(f'  status: {status()!r}\n  metrics: {text!r}')
    trust = re.search(r'Trustworthiness ([\d.]+)', text)
    if not trust or float(trust.group(1)) < 0.97:
        raise Failure(f'UMAP on the digits should keep trustworthiness 0.97 or more (umap-learn: 0.988): {text!r}')
    figure_shot('ui-embedding-umap.png')


def step_kmeans_on_it():
    app.choose_menu_item('Dataset', 'Use Its Features')
    wait_status(r'→ umap · 1797 × 2\b', 20, 'the embedding to become the data')
    app.select_dropdown('Algorithm', 'k-means')
    spin = app.find('spin button', 'Clusters', what='the spin button "Clusters"')
    ui.set_value(spin, 10)
    # The best of several starts, as a person who wants the clusters would.
    ui.set_value(app.find('spin button', 'Restarts', what='the spin button "Restarts"'), 10)
    app.press('Run')
    wait_status(r'(?i)converged', 60, 'k-means to finish')
    text = metrics()
    log(f'  metrics: {text!r}')
    m = re.search(r'Accuracy ([\d.]+)', text)
    if not m or float(m.group(1)) < 0.85:
        raise Failure(f'k-means on the embedding should match the digits to 0.85 or more: {text!r}')


def step_hover_image():
    app.choose_menu_item('Dataset', 'Fashion-MNIST, first 10,000')
    wait_status(r'10000 × 784', 60, 'the first 10,000 Fashion-MNIST images to load')
    app.select_dropdown('Algorithm', 't-SNE')
    app.press('Run')
    wait_status(r'(?i)converged', 240, 't-SNE on 10,000 images to finish')
    figure = app.find(None, 'Figure', what='the figure')
    fx, fy, fw, fh = ui.screen_rect(figure)
    shot = figure_shot('ui-embedding-fashion.png')
    if any(ui.is_showing(n) for n in ui.find_all(app.window, lambda n: ui.name_of(n) == 'Across')):
        raise Failure('Across and Up are offered for an embedding, whose axes are its own')
    # A point: a strongly coloured pixel near the middle of the plot.
    raw = subprocess.run(['/usr/bin/convert', shot, '-alpha', 'off', '-depth', '8', 'rgb:-'],
                         check=True, capture_output=True).stdout
    target = None
    for radius in range(0, min(fw, fh) // 3, 4):
        for dx, dy in ((radius, 0), (-radius, 0), (0, radius), (0, -radius)):
            x, y = fw // 2 + dx, fh // 2 + dy
            i = 3 * (y * fw + x)
            r, g, b = raw[i], raw[i + 1], raw[i + 2]
            if max(r, g, b) - min(r, g, b) > 80:
                target = (x, y)
                break
        if target:
            break
    if target is None:
        raise Failure('no point found near the middle of the embedding')
    subprocess.run(['xdotool', 'mousemove', str(fx + 5), str(fy + 5)], check=True)
    time.sleep(1.0)
    before = ui.screenshot(os.path.join(SCRATCH, 'before.png'))
    subprocess.run(['xdotool', 'mousemove', str(fx + target[0]), str(fy + target[1])], check=True)
    time.sleep(0.3)
    subprocess.run(['xdotool', 'mousemove', str(fx + target[0] + 1), str(fy + target[1])], check=True)
    time.sleep(2.0)
    after = ui.screenshot(os.path.join(ui.artifacts_dir(), 'ui-embedding-hover.png'))
    box = ui.changed_box(before, after)
    log(f'  hovered ({target[0]}, {target[1]}) of the figure; the screen changed in {box}; saved {after}')
    # A tooltip of text alone is a line high; with the image, 112 pixels more.
    if box is None or box[3] - box[1] < 112:
        raise Failure(f'no tooltip with the image appeared over the point (changed: {box})')


def main():
    return ui.run_and_quit('ui-embedding', app, [
        ('start the window and open the digits', step_start),
        ('t-SNE runs live: several iterations seen, the digits apart at the end', step_live),
        ('UMAP on the digits runs to the end and keeps their neighbours', step_umap),
        ('Use Its Features, then k-means on the embedding matches the digits', step_kmeans_on_it),
        ('t-SNE of 10,000 Fashion-MNIST images: hovering a point shows its image', step_hover_image),
    ])


if __name__ == '__main__':
    sys.exit(main())
