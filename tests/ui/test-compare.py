#!/usr/bin/python3
# test-compare.py — comparing runs (issue 40, item 19): each run that ends
# is kept with its parameters, result and thumbnail, and two are shown side
# by side with what changed between them
#
# SPDX-License-Identifier: GPL-3.0-or-later
#
# Run through run-ui-test.sh. k-means on the bundled blobs runs to the end
# with 3 clusters, then with 4; Main Menu ▸ Compare Runs… shows run 1 on the
# left and run 2 on the right, says K went from 3 to 4 and how the inertia
# moved, and draws the two figures differently. A click on run 1 in the list
# puts it on the right and run 2 on the left. Accessible names used: "Run",
# "Status", "Clusters", "Main Menu", "Left run", "Right run", "Comparison",
# "Left figure", "Right figure", "Runs".

import os
import re
import sys
import time

if not os.environ.get('LATENT_EXECUTABLE'):
    print('SKIP: LATENT_EXECUTABLE is not set; run this through run-ui-test.sh')
    sys.exit(77)

import latent_ui as ui  # noqa: E402
from latent_ui import Failure, log  # noqa: E402

app = ui.App()
status, wait_status = app.status, app.wait_status
state = {}


def run_to_the_end(what):
    ui.click(app.find('check box', 'As fast as possible', what='the check box "As fast as possible"'))
    app.press('Run')
    wait_status(r'converged|finished', 60, what)
    log(f'  {status()!r}')


def step_two_runs():
    app.start()
    app.button('Run', timeout=30, what='a push button named "Run"')
    wait_status(r'(?i)blobs .*k-means', 30, 'the blobs to load with k-means')
    ui.set_value(app.find('spin button', 'Clusters', what='the spin button "Clusters"'), 3)
    run_to_the_end('k-means to converge with 3 clusters')
    ui.set_value(app.find('spin button', 'Clusters'), 4)
    wait_status(r'iteration 0 of', 30, 'a new run with 4 clusters')
    app.press('Run')
    wait_status(r'converged|finished', 60, 'k-means to converge with 4 clusters')
    log(f'  {status()!r}')


def dropdown_text(name):
    node = app.find('combo box', name, what=f'the drop-down "{name}"')
    labels = ui.find_all(node, lambda n: ui.role_of(n) == 'label' and ui.text_of(n))
    return ' '.join(ui.text_of(n) for n in labels)


def comparison():
    return ui.text_of(app.find(None, 'Comparison', what='the comparison line'))


def step_open():
    app.choose_menu_item('Main Menu', 'Compare Runs…')
    window = state['window'] = ui.wait_until(
        lambda: next((w for w in app.windows() if ui.name_of(w) == 'Compare Runs'), None), 10,
        'a window "Compare Runs"')
    left = ui.wait_until(lambda: dropdown_text('Left run') or None, 10, 'the left run')
    right = dropdown_text('Right run')
    said = comparison()
    log(f'  left {left!r}, right {right!r}; {said!r}')
    if not left.startswith('Run 1 · k-means') or not right.startswith('Run 2 · k-means'):
        raise Failure(f'the runs side by side are {left!r} and {right!r}, not runs 1 and 2 of k-means')
    if not re.search(r'Changed: .*\b3 → 4\b', said) or not re.search(r'inertia [\d.e+]+ → [\d.e+]+ \([+−-]', said):
        raise Failure(f'the comparison does not say K went from 3 to 4 and how the inertia moved: {said!r}')
    time.sleep(1.0)
    shots = [app.screenshot(os.path.join(ui.scratch_dir(), f'{side}.png'), app.find(None, f'{side} figure'))
             for side in ('Left', 'Right')]
    hists = [ui.colour_histogram(shot) for shot in shots]
    colours = [len([c for c, n in h.items() if n > 50]) for h in hists]
    log(f'  figures: {colours[0]} and {colours[1]} colours of more than 50 pixels')
    if hists[0] == hists[1]:
        raise Failure('the two runs\' figures are drawn the same')
    app.screenshot(os.path.join(ui.artifacts_dir(), 'ui-compare-runs.png'), window)


def step_click():
    """A click on run 1 in the list puts it on the right, run 2 on the left."""
    runs = app.find(None, 'Runs', what='the list of runs')
    rows = ui.wait_until(lambda: [n for n in ui.find_all(runs, lambda n: ui.name_of(n).startswith('Run 1 ·'))] or None,
                         10, 'run 1 in the list')
    ui.raw_click(rows[0])
    ui.wait_until(lambda: dropdown_text('Right run').startswith('Run 1 ·') or None, 5,
                  lambda: f'run 1 to go on the right (it shows {dropdown_text("Right run")!r})')
    left = dropdown_text('Left run')
    log(f'  left {left!r}, right {dropdown_text("Right run")!r}; {comparison()!r}')
    if not left.startswith('Run 2 ·'):
        raise Failure(f'run 2 did not move to the left: {left!r}')
    if not re.search(r'\b4 → 3\b', comparison()):
        raise Failure(f'the comparison does not say K went from 4 to 3: {comparison()!r}')


def main():
    return ui.run_and_quit('ui-compare', app, [
        ('k-means runs to the end with 3 clusters, then with 4', step_two_runs),
        ('Compare Runs shows runs 1 and 2 side by side, and what changed', step_open),
        ('a click on run 1 puts it on the right', step_click),
    ])


if __name__ == '__main__':
    sys.exit(main())
