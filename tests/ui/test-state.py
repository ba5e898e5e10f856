#!/usr/bin/python3
# test-state.py — what the window must not throw away or corrupt (issue 34, §3),
# driven by real input (xdotool clicks and keys)
#
# SPDX-License-Identifier: GPL-3.0-or-later
#
# Run under run-ui-test.sh. On the blobs the window opens with:
# - K = 7 typed into "Clusters" survives a visit to the Gaussian mixture;
# - Space on the focused "Colour by class" ticks it and runs nothing, while
#   Space on the figure still runs;
# - Run on a converged run goes on past convergence without setting
#   "Tolerance" to 0: the panel says so in a note, and Reset (Ctrl+R) takes
#   the note away with the tolerance as it was.
# Then on Iris: a finished PCA stays finished when test data is chosen, and
# Use Its Features still works from it.
# Accessible names used: "Clusters", "Tolerance", "Algorithm", "Components",
# "Colour by class", "Run", "Status", "Figure", "Dataset".

import os
import re
import shutil
import subprocess
import sys
import time

if not os.environ.get('LATENT_EXECUTABLE'):
    print('SKIP: LATENT_EXECUTABLE is not set; run this through run-ui-test.sh')
    sys.exit(77)
if shutil.which('xdotool') is None:
    print('SKIP: xdotool is missing (Debian: xdotool)')
    sys.exit(77)

import latent_ui as ui  # noqa: E402
from latent_ui import Failure, log  # noqa: E402

SOURCE_DIR = os.path.normpath(os.path.join(os.path.dirname(os.path.abspath(__file__)), '..', '..'))
IRIS = os.path.join(SOURCE_DIR, 'data', 'iris.csv')
GOING_ON = 'Going on past convergence'

app = ui.App()


def xdotool(*args):
    subprocess.run(['xdotool'] + [str(a) for a in args], check=True, capture_output=True)
    time.sleep(0.2)


def click_at(node):
    """A real click at the centre of node, once it is laid out (a control just
    made reports no size for a moment)."""
    ui.wait_until(lambda: ui.extents_of(node)[2] > 0 and ui.extents_of(node)[3] > 0, 5,
                  f'{ui.describe(node)} to be laid out')
    time.sleep(0.3)
    x, y, w, h = ui.screen_rect(node)
    log(f'  click {ui.describe(node)} at {x + w // 2}, {y + h // 2}')
    xdotool('mousemove', x + w // 2, y + h // 2)
    xdotool('click', 1)


def choose_algorithm(title):
    app.select_dropdown('Algorithm', title)
    # Its list may stay open over the panel after the choice; Escape closes it
    # (and does nothing in the window).
    time.sleep(0.5)
    xdotool('key', 'Escape')


def status():
    return ui.text_of(app.find(None, 'Status', timeout=10))


def wait_status(pattern, timeout, what):
    return ui.wait_until(lambda: re.search(pattern, status()), timeout,
                         lambda: f'{what} (status: {status()!r})')


def spin(name):
    return app.find('spin button', name, what=f'the spin button {name!r}')


def value(node):
    ui._safe(node.clear_cache)
    return float(ui._safe(lambda: node.value, float('nan')))


def type_into(node, text):
    """Clicks into a spin button, selects what it holds and types, then Return."""
    click_at(node)
    xdotool('key', 'ctrl+a')
    xdotool('type', '--delay', '60', text)
    xdotool('key', 'Return')


def notes():
    return [ui.text_of(n) for n in ui.find_all(app.window, lambda n: ui.role_of(n) == 'label'
                                                and GOING_ON in (ui.text_of(n) or ''))]


def checked(node):
    ui._safe(node.clear_cache)
    return bool(ui._safe(lambda: node.getState().contains(ui.pyatspi.STATE_CHECKED), False))


# ------------------------------------------------------------------------ steps

def step_start():
    app.start()
    app.button('Run', timeout=30, what='a push button named "Run"')
    wait_status(r'iteration 0\b', 60, 'the blobs to load, k-means ready')


def step_params_kept():
    clusters = spin('Clusters')
    type_into(clusters, '7')
    ui.wait_until(lambda: value(clusters) == 7, 5, lambda: f'K to read 7 (it reads {value(clusters)})')
    choose_algorithm('Gaussian mixture (EM)')
    spin('Components')
    choose_algorithm('k-means')
    clusters = spin('Clusters')
    k = value(clusters)
    log(f'  K after a visit to the Gaussian mixture: {k:g}')
    if k != 7:
        raise Failure(f'K = 7 was not kept for k-means while the Gaussian mixture was chosen: it reads {k:g}')
    type_into(clusters, '3')
    ui.wait_until(lambda: value(clusters) == 3, 5, 'K to read 3 again')


def step_space_on_a_check_box():
    box = app.find('check box', 'Colour by class', what='the check box "Colour by class"')
    before = checked(box)
    wait_status(r'iteration 0\b', 10, 'k-means to be at its start')
    # A click ticks it and gives it the keyboard, as for a person.
    click_at(box)
    ui.wait_until(lambda: checked(box) != before, 5, 'a click to tick the check box')
    ui.wait_until(lambda: ui._safe(lambda: box.getState().contains(ui.pyatspi.STATE_FOCUSED), False), 5,
                  'the clicked check box to have the focus')
    xdotool('key', 'space')
    ui.wait_until(lambda: checked(box) == before, 5,
                  lambda: f'Space on the focused check box to untick it (status {status()!r})')
    time.sleep(1.0)
    if not re.search(r'iteration 0\b', status()):
        raise Failure(f'Space on the focused check box ran the algorithm: status {status()!r}')
    # From the figure, Space runs.
    click_at(app.find(None, 'Figure'))
    xdotool('key', 'space')
    wait_status(r'(?i)converged', 60, 'Space on the figure to run k-means to convergence')
    log(f'  status: {status()!r}')


def step_going_on_keeps_the_tolerance():
    # Its text: AT-SPI's value of a spin button is rounded (1e-4 reads 0).
    tolerance = spin('Tolerance')
    tol = ui.text_of(tolerance)
    log(f'  tolerance {tol!r}')
    if not float(tol) > 0:
        raise Failure(f'the tolerance reads {tol!r} before going on')
    click_at(app.button('Run'))
    ui.wait_until(lambda: notes(), 10, 'the panel to say that the run goes on past convergence')
    log(f'  note: {notes()[0]!r}')
    log(f'  screenshot: {app.screenshot(os.path.join(ui.artifacts_dir(), "state-going-on.png"))}')
    wait_status(r'(?i)converged|limit|stopped|finished', 120, 'the run to end again')
    now = ui.text_of(tolerance)
    log(f'  tolerance before going on {tol!r}, after {now!r}')
    if now != tol:
        raise Failure(f'going on past convergence set the tolerance to {now!r} (it was {tol!r})')
    xdotool('key', 'ctrl+r')
    wait_status(r'iteration 0\b', 20, 'Ctrl+R to reset the run')
    ui.wait_until(lambda: not notes(), 5, 'Reset to take the note away')
    if ui.text_of(tolerance) != tol:
        raise Failure(f'after Reset the tolerance reads {ui.text_of(tolerance)!r}, not {tol!r}')
    click_at(app.button('Run'))
    wait_status(r'(?i)converged', 60, 'the reset run to converge with the tolerance again')


def step_test_data_keeps_a_model():
    app.open_file(IRIS)
    wait_status(r'(?i)iris', 30, 'Iris to load')
    choose_algorithm('Principal component analysis')
    ui.set_value(spin('Components'), 2)
    wait_status(r'iteration 0 of', 15, 'PCA to start again with 2 components')
    click_at(app.button('Run'))
    wait_status(r'(?i)converged', 60, 'PCA to finish')
    before = status()
    log(f'  before test data: {before!r}')
    app.open_file(IRIS, item='Open Test Data…')
    time.sleep(1.5)
    after = status()
    log(f'  after test data: {after!r}')
    if re.search(r'iteration 0\b', after) or not re.search(r'(?i)converged', after):
        raise Failure(f'choosing test data threw the finished PCA away: status {after!r} (was {before!r})')
    app.choose_menu_item('Dataset', 'Use Its Features')
    wait_status(r'→', 20, 'Use Its Features to make the features the data')
    log(f'  features: {status()!r}')


ui.run_steps('state', app, [
    ('start on the blobs, k-means ready', step_start),
    ('K typed for k-means survives a visit to another algorithm', step_params_kept),
    ('Space on a focused check box ticks it, Space on the figure runs', step_space_on_a_check_box),
    ('going on past convergence leaves the tolerance as set', step_going_on_keeps_the_tolerance),
    ('test data keeps a finished PCA, whose features are then used', step_test_data_keeps_a_model),
])
