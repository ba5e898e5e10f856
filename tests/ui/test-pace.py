#!/usr/bin/python3
# test-pace.py — each algorithm runs at a pace worth watching, in its own
# unit, and says when the pace is what holds it back (issue 40, item 8):
# k-means a few iterations a second, the autoencoder two epochs a second
# (its mini-batches were held to 10 a second: 54 s an epoch of Fashion-MNIST);
# a pace set for one algorithm is kept for it
#
# SPDX-License-Identifier: GPL-3.0-or-later
#
# Run through run-ui-test.sh. Accessible names used: "Run", "Status",
# "Speed", "As fast as possible", "Algorithm", "Clusters".

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

app = ui.App()
status, wait_status = app.status, app.wait_status


def pace():
    """(the slider's value, whether "As fast as possible" is on, the unit
    shown after the slider)."""
    slider = app.find('slider', 'Speed', what='the slider "Speed"')
    fast = app.find('check box', 'As fast as possible', what='the check box "As fast as possible"')
    units = [ui.text_of(n) for n in ui.find_all(app.window, lambda n: ui.role_of(n) == 'label'
                                                and ui.text_of(n).endswith('/s') and ui.is_showing(n))]
    ui._safe(slider.clear_cache)
    return float(slider.value), ui.is_checked(fast), units[0] if units else None


def step_start():
    app.start()
    app.button('Run', timeout=30, what='a push button named "Run"')
    wait_status(r'(?i)blobs .*k-means', 30, 'the blobs to load with k-means')
    value, fast, unit = pace()
    log(f'  k-means: {value:g} {unit}, as fast as possible {fast}')
    if fast or value != 4 or unit != 'iterations/s':
        raise Failure(f'k-means starts at {value:g} {unit} (as fast as possible: {fast}), not 4 iterations/s')


def step_paced():
    """Slowed to 2, with more clusters to take longer: the status says the
    pace holds the run back."""
    ui.set_value(app.find('slider', 'Speed', what='the slider "Speed"'), 2)
    ui.set_value(app.find('spin button', 'Clusters', what='the spin button "Clusters"'), 12)
    wait_status(r'iteration 0 of .*paused', 30, 'k-means to initialise with 12 clusters')
    app.press('Run')
    said = ui.wait_until(lambda: status() if 'paced at 2 iterations/s' in status() else None, 15,
                         lambda: f'the status to say the run is paced (it reads {status()!r})')
    log(f'  while running: {said!r}')
    # It said "running · paused" while it ran.
    if not said.endswith(' · running'):
        raise Failure(f'the running status does not end in "running": {said!r}')
    app.screenshot(os.path.join(ui.artifacts_dir(), 'ui-pace-kmeans.png'))
    app.press('Pause')
    said = ui.wait_until(lambda: status() if status().endswith(' · paused') else None, 10,
                         lambda: f'the status to end in "paused" (it reads {status()!r})')
    log(f'  paused: {said!r}')


def step_autoencoder():
    """On 10,000 images, long enough to see its mini-batches a second."""
    app.choose_menu_item('Dataset', 'Fashion-MNIST, first 10,000')
    wait_status(r'10000 × 784', 60, 'the first 10,000 Fashion-MNIST images to load')
    app.select_dropdown('Algorithm', 'Winner-take-all autoencoder')
    wait_status(r'Winner-take-all', 30, 'the autoencoder to be chosen')
    value, fast, unit = pace()
    log(f'  autoencoder: {value:g} {unit}, as fast as possible {fast}')
    if fast or value != 2 or unit != 'epochs/s':
        raise Failure(f'the autoencoder starts at {value:g} {unit} (as fast as possible: {fast}), '
                      'not 2 epochs/s')
    app.press('Run')
    said = ui.wait_until(lambda: status() if re.search(r' · (paced at )?[\d.]+ epochs/s', status()) else None, 30,
                         lambda: f'the status to give the epochs a second (it reads {status()!r})')
    first = int(re.search(r'iteration (\d+)', said).group(1))
    time.sleep(2)
    later = status()
    steps = int(re.search(r'iteration (\d+)', later).group(1)) - first
    log(f'  while running: {said!r}, then {later!r}: {steps} mini-batches in 2 s')
    if steps < 40:
        raise Failure(f'{steps} mini-batches in 2 s: the pace holds the autoencoder back')
    # Its five epochs take a few seconds more.
    wait_status(r'finished \d+ epochs', 60, 'the autoencoder to finish')


def step_tile_hover():
    """The autoencoder's weights: hovering a tile shows its unit, its wins
    and its weights large (issue 40, item 9)."""
    app.select_dropdown('View', 'Weights')
    time.sleep(1.0)
    figure = app.find(None, 'Figure', what='the figure')
    fx, fy, fw, fh = ui.screen_rect(figure)
    subprocess.run(['xdotool', 'mousemove', str(fx + 5), str(fy + 5)], check=True)
    time.sleep(1.0)
    before = ui.screenshot(os.path.join(ui.scratch_dir(), 'tiles-before.png'))
    # The middle of the figure is inside the grid of tiles (64 or more).
    x, y = fx + fw // 2, fy + fh // 2
    subprocess.run(['xdotool', 'mousemove', str(x), str(y)], check=True)
    time.sleep(0.3)
    subprocess.run(['xdotool', 'mousemove', str(x + 1), str(y)], check=True)
    time.sleep(2.0)
    after = ui.screenshot(os.path.join(ui.artifacts_dir(), 'ui-pace-tile-hover.png'))
    box = ui.changed_box(before, after, below=y + 4)
    log(f'  hovered the middle of the tiles; the screen changed below the pointer in {box}; saved {after}')
    # The weights at 168 pixels, under a line of text.
    if box is None or box[3] - box[1] < 168:
        raise Failure(f'no tooltip with the unit\'s weights large appeared over a tile (changed: {box})')


def description():
    figure = app.find(None, 'Figure', what='the figure')
    ui._safe(figure.clear_cache)
    return ui._safe(lambda: figure.description, '') or ''


def step_tile_zoom():
    """The wheel magnifies the tiles about the pointer, a click shows the
    tile under it large until clicked away, a double-click shows them all
    (issue 40, item 9)."""
    figure = app.find(None, 'Figure', what='the figure')
    fx, fy, fw, fh = ui.screen_rect(figure)
    x, y = fx + fw // 2, fy + fh // 2
    subprocess.run(['xdotool', 'mousemove', str(x), str(y)], check=True)
    time.sleep(0.3)
    for _ in range(4):
        subprocess.run(['xdotool', 'click', '4'], check=True)
        time.sleep(0.15)
    said = ui.wait_until(lambda: re.search(r'Magnified ([\d.]+) times', description()), 5,
                         lambda: f'the figure to say it is magnified ({description()!r})')
    log(f'  four notches: {said.group(0)!r}')
    if abs(float(said.group(1)) - 1.2 ** 4) > 0.05:
        raise Failure(f'four notches magnified {said.group(1)} times, not 1.2⁴')
    app.screenshot(os.path.join(ui.artifacts_dir(), 'ui-pace-tiles-magnified.png'))
    subprocess.run(['xdotool', 'click', '1'], check=True)

    def enlarged():
        found = ui.find_all(app.node, lambda n: ui.name_of(n).startswith('Unit ') and ui.is_showing(n))
        return found[0] if found else None
    node = ui.wait_until(enlarged, 5, 'a click on a tile to show its unit large')
    log(f'  clicked: {ui.describe(node)}, {ui.screen_rect(node)[2]} px wide')
    if ui.screen_rect(node)[2] < 300:
        raise Failure(f'the clicked tile is shown {ui.screen_rect(node)[2]} px wide, not large')
    app.screenshot(os.path.join(ui.artifacts_dir(), 'ui-pace-tile-enlarged.png'))
    subprocess.run(['xdotool', 'key', 'Escape'], check=True)
    ui.wait_until(lambda: enlarged() is None, 5, 'Escape to close the enlarged tile')
    subprocess.run(['xdotool', 'mousemove', str(x), str(y)], check=True)
    subprocess.run(['xdotool', 'click', '--repeat', '2', '--delay', '80', '1'], check=True)
    ui.wait_until(lambda: 'Showing every tile' in description(), 5,
                  lambda: f'a double-click to show every tile again ({description()!r})')


def step_kept():
    app.select_dropdown('Algorithm', 'k-means')
    time.sleep(0.5)
    value, fast, unit = pace()
    log(f'  k-means again: {value:g} {unit}, as fast as possible {fast}')
    if fast or value != 2 or unit != 'iterations/s':
        raise Failure(f'k-means came back at {value:g} {unit} (as fast as possible: {fast}), not the 2 set for it')


def step_means_click():
    """k-means' means of the images: a click on one shows it large under
    its cluster and size, as the autoencoder's tiles do (issue 40, item 9:
    every tile figure)."""
    app.press('Run')
    wait_status(r'iteration [3-9]', 60, 'k-means to run a few iterations on the images')
    app.press('Pause')
    wait_status(r' · paused', 10, 'k-means to pause')
    figure = app.find(None, 'Figure', what='the figure')
    fx, fy, fw, fh = ui.screen_rect(figure)

    def enlarged():
        found = ui.find_all(app.node, lambda n: ui.name_of(n).startswith('cluster ') and ui.is_showing(n))
        return found[0] if found else None
    # Somewhere in the middle half of the figure lies a mean, not a gap.
    for fx_, fy_ in [(0.5, 0.5), (0.4, 0.45), (0.6, 0.55), (0.45, 0.35), (0.55, 0.65), (0.3, 0.5)]:
        x, y = int(fx + fw * fx_), int(fy + fh * fy_)
        subprocess.run(['xdotool', 'mousemove', str(x), str(y), 'click', '1'], check=True)
        try:
            node = ui.wait_until(enlarged, 2, 'a click on a mean to show it large')
            break
        except Failure:
            continue
    else:
        raise Failure('no click in the middle of the means showed one large')
    log(f'  clicked at {x},{y}: {ui.describe(node)}, {ui.screen_rect(node)[2]} px wide')
    if not re.match(r'cluster \d+ · n = \d+', ui.name_of(node)) or ui.screen_rect(node)[2] < 300:
        raise Failure(f'the clicked mean is shown as {ui.describe(node)}, {ui.screen_rect(node)[2]} px wide')
    app.screenshot(os.path.join(ui.artifacts_dir(), 'ui-pace-mean-enlarged.png'))
    subprocess.run(['xdotool', 'key', 'Escape'], check=True)
    ui.wait_until(lambda: enlarged() is None, 5, 'Escape to close the enlarged mean')


def main():
    return ui.run_and_quit('ui-pace', app, [
        ('k-means starts at 4 iterations/s', step_start),
        ('slowed to 2, the status says the pace holds it back', step_paced),
        ('the autoencoder runs two epochs a second, its mini-batches unheld', step_autoencoder),
        ('hovering a tile of its weights shows the unit large', step_tile_hover),
        ('the wheel magnifies the tiles, a click enlarges one, a double-click shows all', step_tile_zoom),
        ('back to k-means: its 2 iterations/s are kept', step_kept),
        ('a click on a mean of the images shows it large', step_means_click),
    ])


if __name__ == '__main__':
    sys.exit(main())
