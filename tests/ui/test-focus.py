#!/usr/bin/python3
# test-focus.py — the keyboard's way through the window (issue 40, item 15):
# Tab never stops on a text that is only to read (the metrics, the error),
# and the figure, which takes Space and the arrows, shows a ring when the
# keyboard brings the focus to it
#
# SPDX-License-Identifier: GPL-3.0-or-later
#
# Run through run-ui-test.sh. Iris with k-means, run once so the metrics
# have text. Then Tab, forty times, reading the focused control each time
# from the accessibility tree: no label among them.
# With the figure focused by the keyboard, its screenshot has a ring of the
# accent colour (Adwaita's blue at half strength over the background) along
# its edges, which it had not before the figure had the focus. Accessible names used:
# "Run", "Status", "Metrics", "Figure".

import os
import sys
import time

if not os.environ.get('LATENT_EXECUTABLE'):
    print('SKIP: LATENT_EXECUTABLE is not set; run this through run-ui-test.sh')
    sys.exit(77)

import pyatspi  # noqa: E402

import latent_ui as ui  # noqa: E402
from latent_ui import Failure, log  # noqa: E402

SOURCE_DIR = os.path.normpath(os.path.join(os.path.dirname(os.path.abspath(__file__)), '..', '..'))
IRIS = os.path.join(SOURCE_DIR, 'data', 'iris.csv')
# Adwaita's accent #3584e4 at half strength over its light background #fafafa.
RING = (0x97, 0xbf, 0xef)
BASELINE = os.path.join(ui.scratch_dir(), 'figure-unfocused.png')

app = ui.App()
status, wait_status = app.status, app.wait_status


def focused():
    """The node that has the keyboard, or None."""
    found = ui.find_all(app.window, lambda n: ui._safe(lambda: n.getState().contains(pyatspi.STATE_FOCUSED),
                                                       False))
    return found[-1] if found else None


def ring_pixels(path):
    hist = ui.colour_histogram(path)
    return ui.count_near(hist, RING, 14)


def step_start():
    app.start()
    app.button('Run', timeout=30, what='a push button named "Run"')
    app.open_file(IRIS)
    wait_status(r'(?i)iris', 30, 'Iris to load')
    app.press('Run')
    wait_status(r'(?i)converged', 60, 'k-means to finish')
    time.sleep(0.7)
    app.screenshot(BASELINE, app.find(None, 'Figure', what='the figure'))


def step_tab():
    figure = app.find(None, 'Figure', what='the figure')
    ui.raw_click(figure)
    time.sleep(0.5)
    seen = []
    for _ in range(40):
        ui.press_key('Tab')
        time.sleep(0.15)
        node = focused()
        seen.append((ui.role_of(node), ui.name_of(node)) if node else (None, None))
    log(f'  Tab stops: {sorted(set(seen))}')
    labels = [s for s in seen if s[0] == 'label']
    if labels:
        raise Failure(f'Tab stops on texts that are only to read: {sorted(set(labels))}')


def step_ring():
    figure = app.find(None, 'Figure', what='the figure')
    ui.raw_click(figure)
    # Away and back by the keyboard: the focus is the keyboard's now.
    ui.key_combo('<Shift>Tab')
    ui.press_key('Tab')
    time.sleep(0.7)
    keyed = os.path.join(ui.artifacts_dir(), 'ui-focus-keyboard.png')
    app.screenshot(keyed, figure)
    before, after = ring_pixels(BASELINE), ring_pixels(keyed)
    log(f'  ring-coloured pixels: before the figure had the focus {before}, with it {after}; saved {keyed}')
    if after < before + 1000:
        raise Failure(f'no focus ring on the figure: {after} ring-coloured pixels against {before} without the focus')


def main():
    return ui.run_and_quit('ui-focus', app, [
        ('open Iris and run k-means', step_start),
        ('Tab through the window: no stop on a text', step_tab),
        ('the figure rings when the keyboard brings the focus to it', step_ring),
    ])


if __name__ == '__main__':
    sys.exit(main())
