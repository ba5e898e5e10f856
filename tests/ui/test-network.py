#!/usr/bin/python3
# test-network.py — a small network learning two moons in the window, as a
# person watches it: the decision regions redraw while it learns, end where
# no line could (test accuracy ≥ 95 %; a linear model reaches about 87 %),
# and each hidden unit's answer over the plane is drawn
#
# SPDX-License-Identifier: GPL-3.0-or-later
#
# Run through run-ui-test.sh (Xvfb, a session bus, the accessibility bus).
# The data: scikit-learn's make_moons (600 rows, noise 0.15, seed 0) as a
# CSV whose last column names the moon. The network: 2 hidden layers of 8
# and 4 ReLU units, Adam at 0.01 for 80 epochs (240 steps), at the window's
# own pace, so its steps are seen one by one. Then a WTA autoencoder of 64
# units on 10,000 Fashion-MNIST images, a network started from it,
# few-shot episodes with the shots curve on the same images, and UMAP
# coloured by a k-means run's clusters. Accessible names used:
# "Algorithm", "Hidden layer 1", "Hidden layer 2", "Learning rate",
# "Epochs", "Run", "Status", "Metrics", "View", "Figure", "Dataset",
# "Hidden units", "As fast as possible", "Shots curve", "Episodes",
# "Clusters".

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
MOONS = os.path.join(SCRATCH, 'moons.csv')

app = ui.App()
status, wait_status, metrics = app.status, app.wait_status, app.metrics


def write_moons():
    from sklearn.datasets import make_moons
    x, y = make_moons(600, noise=0.15, random_state=0)
    with open(MOONS, 'w') as f:
        f.write('x,y,moon\n')
        for (a, b), label in zip(x, y):
            f.write(f'{a:.6f},{b:.6f},moon {"ab"[label]}\n')


def figure_shot(name):
    figure = app.find(None, 'Figure', what='the figure')
    path = os.path.join(ui.artifacts_dir(), name)
    app.screenshot(path, figure)
    return path


def differing_pixels(a, b):
    """How many pixels of two screenshots of one size differ by more than 5 %."""
    proc = subprocess.run(['/usr/bin/compare', '-metric', 'AE', '-fuzz', '5%', a, b, 'null:'],
                          capture_output=True, text=True)
    return int(float(proc.stderr.split()[0]))


def coloured_pixels(path):
    """Pixels of a strong colour (channels more than 80 apart)."""
    raw = subprocess.run(['/usr/bin/convert', path, '-alpha', 'off', '-depth', '8', 'rgb:-'],
                         check=True, capture_output=True).stdout
    return sum(1 for i in range(0, len(raw) - 2, 3) if max(raw[i:i + 3]) - min(raw[i:i + 3]) > 80)


def step_start():
    write_moons()
    app.start()
    app.button('Run', timeout=30, what='a push button named "Run"')
    app.open_file(MOONS)
    wait_status(r'moons', 30, 'the moons to load')


def step_network():
    app.select_dropdown('Algorithm', 'Neural network (MLP)')
    wait_status(r'Neural network \(MLP\) · iteration 0\b', 20, 'the network to be ready')
    ui.set_value(app.find('spin button', 'Hidden layer 1', what='the spin button "Hidden layer 1"'), 8)
    ui.set_value(app.find('spin button', 'Hidden layer 2', what='the spin button "Hidden layer 2"'), 4)
    ui.set_value(app.find('spin button', 'Learning rate', what='the spin button "Learning rate"'), 0.01)
    ui.set_value(app.find('spin button', 'Epochs', what='the spin button "Epochs"'), 80)
    wait_status(r'iteration 0\b', 20, 'the network to start again with its new layers')


def step_live_regions():
    app.select_dropdown('View', 'Decision regions')
    app.press('Run')
    shots, steps = [], []
    deadline = time.monotonic() + 150
    while time.monotonic() < deadline:
        text = status()
        m = re.search(r'iteration (\d+)', text)
        # Three steps make an epoch: shots ten epochs apart.
        if m and int(m.group(1)) >= 3 and (not steps or int(m.group(1)) >= steps[-1] + 30) and len(shots) < 3:
            steps.append(int(m.group(1)))
            shots.append(figure_shot(f'ui-network-step-{m.group(1)}.png'))
        if re.search(r'(?i)converged|finished \d+ epochs', text):
            break
        time.sleep(0.1)
    wait_status(r'(?i)converged|finished \d+ epochs', 60, 'the network to finish')
    end = figure_shot('ui-network-regions.png')
    text = metrics()
    log(f'  status: {status()!r}\n  metrics: {text!r}\n  shots at steps {steps}: {shots}; end: {end}')
    if len(shots) < 2:
        raise Failure(f'the regions were caught at {len(shots)} steps while it learnt: the view is not live')
    changes = [differing_pixels(a, b) for a, b in zip(shots + [end], shots[1:] + [end]) if a != b]
    log(f'  pixels that changed from shot to shot: {changes}')
    if sum(1 for c in changes if c > 500) < 2:
        raise Failure(f'the decision regions did not redraw as the network learnt: {changes} pixels changed')
    m = re.search(r'Test accuracy ([\d.]+) %', text)
    if not m or float(m.group(1)) < 95:
        raise Failure(f'the network should separate the moons (test accuracy ≥ 95 %, a line gets ~87 %): {text!r}')


def step_units():
    app.select_dropdown('View', 'Hidden units')
    time.sleep(0.7)
    path = figure_shot('ui-network-units.png')
    coloured = coloured_pixels(path)
    log(f'  {coloured} strongly coloured pixels in {path}')
    if coloured < 5000:
        raise Failure(f'the hidden units figure has {coloured} coloured pixels: no unit maps are drawn')


def step_pretrain():
    """An autoencoder on images, then Dataset ▸ Train a Network on It: the
    network starts from its units (the metrics say from which file) and
    learns the classes; its first layer is drawn as images."""
    app.choose_menu_item('Dataset', 'Fashion-MNIST, first 10,000')
    wait_status(r'10000 × 784', 60, 'the first 10,000 Fashion-MNIST images to load')
    app.select_dropdown('Algorithm', 'Winner-take-all autoencoder')
    ui.set_value(app.find('spin button', 'Hidden units', what='the spin button "Hidden units"'), 64)
    fast = app.find('check box', 'As fast as possible', what='the check box "As fast as possible"')
    if not ui.is_checked(fast):
        ui.click(fast)
    app.press('Run')
    wait_status(r'(?i)finished \d+ epochs|converged', 120, 'the autoencoder to finish')
    app.choose_menu_item('Dataset', 'Train a Network on It')
    wait_status(r'Neural network \(MLP\) · iteration 0\b', 20, 'a network to be ready')
    ui.set_value(app.find('spin button', 'Epochs', what='the spin button "Epochs"'), 5)
    app.press('Run')
    wait_status(r'(?i)finished 5 epochs|converged', 120, 'the network to finish')
    text = metrics()
    log(f'  status: {status()!r}\n  metrics: {text!r}')
    if not re.search(r'First layer from wta-[\d-]+\.json', text):
        raise Failure(f'the metrics do not say the first layer came from the autoencoder: {text!r}')
    m = re.search(r'Test accuracy ([\d.]+) %', text)
    if not m or float(m.group(1)) < 75:
        raise Failure(f'the pretrained network should reach 75 % on Fashion-MNIST in 5 epochs: {text!r}')
    app.select_dropdown('View', 'Hidden units')
    time.sleep(0.7)
    path = figure_shot('ui-network-pretrained-units.png')
    coloured = coloured_pixels(path)
    log(f'  {coloured} strongly coloured pixels in {path}')
    if coloured < 5000:
        raise Failure(f'the first layer is not drawn as images: {coloured} coloured pixels')


def step_shots_curve():
    """The same images, few-shot episodes with the shots curve: its three
    methods drawn as lines in the palette's first three colours."""
    app.select_dropdown('Algorithm', 'Nearest prototype')
    wait_status(r'Nearest prototype · iteration 0\b', 20, 'the prototypes to be ready')
    curve = app.find('check box', 'Shots curve', what='the check box "Shots curve"')
    if not ui.is_checked(curve):
        ui.click(curve)
    ui.set_value(app.find('spin button', 'Episodes', what='the spin button "Episodes"'), 20)
    app.press('Run')
    wait_status(r'(?i)finished 20 episodes|converged', 120, 'twenty episodes')
    app.select_dropdown('View', 'Shots curve')
    time.sleep(0.7)
    path = figure_shot('ui-network-shots.png')
    hist = ui.colour_histogram(path)
    counts = [ui.count_near(hist, rgb, 12) for rgb in ((0x00, 0x72, 0xb2), (0xe6, 0x9f, 0x00), (0x00, 0x9e, 0x73))]
    log(f'  pixels of the three methods\' colours: {counts}; saved {path}')
    if min(counts) < 300:
        raise Failure(f'the shots curve does not draw all three methods: {counts} pixels of their colours')


def step_clusters_as_classes():
    """k-means on the same images, Dataset ▸ Use Its Clusters as Classes,
    then UMAP: the embedding is coloured by the five clusters, not by the
    ten classes of clothing."""
    app.select_dropdown('Algorithm', 'k-means')
    ui.set_value(app.find('spin button', 'Clusters', what='the spin button "Clusters"'), 5)
    app.press('Run')
    wait_status(r'(?i)converged|iteration limit', 120, 'k-means to finish')
    app.choose_menu_item('Dataset', 'Use Its Clusters as Classes')
    wait_status(r'kmeans clusters · 10000 × 784', 20, 'the clusters to become the classes')
    app.select_dropdown('Algorithm', 'UMAP')
    app.press('Run')
    wait_status(r'(?i)finished \d+ epochs|converged', 180, 'UMAP to finish')
    time.sleep(0.7)
    path = figure_shot('ui-network-umap-clusters.png')
    hist = ui.colour_histogram(path)
    palette = ((0x00, 0x72, 0xb2), (0xe6, 0x9f, 0x00), (0x00, 0x9e, 0x73), (0xd5, 0x5e, 0x00), (0x56, 0xb4, 0xe9),
               (0xcc, 0x79, 0xa7), (0xf0, 0xe4, 0x42))
    counts = [ui.count_near(hist, rgb, 12) for rgb in palette]
    log(f'  pixels of the palette\'s first seven colours: {counts}; saved {path}')
    if min(counts[:5]) < 200:
        raise Failure(f'the embedding is not coloured by five clusters: {counts[:5]} pixels of their colours')
    if max(counts[5:]) > 50:
        raise Failure(f'the embedding shows colours beyond the five clusters: {counts[5:]}')


def main():
    return ui.run_and_quit('ui-network', app, [
        ('start the window and open the moons', step_start),
        ('Neural network with layers of 8 and 4 and a learning rate of 0.01', step_network),
        ('the decision regions redraw as it learns and end around the moons', step_live_regions),
        ('View ▸ Hidden units draws each unit over the plane', step_units),
        ('an autoencoder, then Dataset ▸ Train a Network on It starts a network from it', step_pretrain),
        ('few-shot episodes with the shots curve: three methods drawn', step_shots_curve),
        ('k-means, Use Its Clusters as Classes, then UMAP coloured by the clusters', step_clusters_as_classes),
    ])


if __name__ == '__main__':
    sys.exit(main())
