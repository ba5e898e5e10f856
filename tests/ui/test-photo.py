#!/usr/bin/python3
# test-photo.py — a photo with a classifier chosen (issue 40, item 18): the
# window stays up, says why the classifier cannot start, and points to what
# works on an image instead of leaving the figure blank
#
# SPDX-License-Identifier: GPL-3.0-or-later
#
# Run through run-ui-test.sh. The photo: latent-cli's test pattern written
# as a 320 × 240 PNG. Opened, it shows k-means' segments; choosing Logistic
# regression then crashed the window (the status read k-means' parameters
# as logistic regression's). Now the error bar names the photo and its
# missing labels, the figure's text names the convolution filter, and the
# convolution filter then runs on the photo. The photo shows, faded, under
# the words. Accessible names used:
# "Dataset", "Algorithm", "Figure", "Error", "Run", "Status".

import os
import subprocess
import sys
import time

if not os.environ.get('LATENT_EXECUTABLE'):
    print('SKIP: LATENT_EXECUTABLE is not set; run this through run-ui-test.sh')
    sys.exit(77)

import latent_ui as ui  # noqa: E402
from latent_ui import Failure, log  # noqa: E402

CLI = os.path.join(os.path.dirname(os.environ['LATENT_EXECUTABLE']), 'latent-cli')
PHOTO = os.path.join(ui.scratch_dir(), 'photo.png')

app = ui.App()
status, wait_status = app.status, app.wait_status


def error_text():
    labels = ui.find_all(app.window, lambda n: ui.role_of(n) == 'label' and ui.name_of(n) == 'Error')
    return ' '.join(ui.text_of(n) for n in labels)


def figure_description():
    figure = app.find(None, 'Figure', what='the figure')
    return ui._safe(lambda: figure.description, '') or ''


def step_start():
    subprocess.run([CLI, 'run', 'convolve', '--data', 'pattern:width=320,height=240', '--output', PHOTO],
                   check=True, capture_output=True)
    app.start()
    app.button('Run', timeout=30, what='a push button named "Run"')
    app.open_file(PHOTO)
    wait_status(r'photo\.png · 320 × 240 px', 30, 'the photo to load')
    log(f'  status: {status()!r}')


def step_classifier():
    app.select_dropdown('Algorithm', 'Logistic regression')
    time.sleep(1.5)
    if not app.alive():
        raise Failure(f'the window died when a classifier was chosen for a photo (exit {app.process.poll()})')
    text = ui.wait_until(lambda: error_text() or None, 10, 'an error about the photo')
    log(f'  error: {text!r}')
    if 'photo.png' not in text or 'labels' not in text:
        raise Failure(f'the error does not name the photo and its missing labels: {text!r}')
    said = ui.wait_until(lambda: figure_description() or None, 10, 'the figure to say something')
    log(f'  the figure says: {said!r}')
    if 'convolution filter' not in said:
        raise Failure(f'the figure does not point to the convolution filter: {said!r}')
    app.screenshot(os.path.join(ui.artifacts_dir(), 'ui-photo-classifier.png'))
    # The photo shows under the words (it was blank): most of the figure
    # is not the background, where the words alone cover a few per cent.
    shot = app.screenshot(os.path.join(ui.scratch_dir(), 'photo-figure.png'), app.find(None, 'Figure'))
    hist = ui.colour_histogram(shot)
    total = sum(hist.values())
    drawn = sum(n for rgb, n in hist.items() if min(rgb) < 240)
    log(f'  {drawn} of {total} pixels of the figure drawn on')
    if drawn < total * 0.3:
        raise Failure(f'the figure does not show the photo: {drawn} of {total} pixels drawn on')


def step_filter():
    app.select_dropdown('Algorithm', 'Convolution filter')
    app.press('Run')
    wait_status(r'(?i)pass \d+ of \d+|finished|converged', 60, 'the filter to run on the photo')
    log(f'  status: {status()!r}')


def step_kernel_editor():
    """Issue 40, item 10: the kernel editor is a heat map. A preset from its
    menu, a real click on a cell, a number typed on the grid and Enter:
    the weight changes, the selection moves on, and Apply filters with it."""
    app.press('Edit Kernel…')
    dialog = ui.wait_until(lambda: next((w for w in app.windows() if ui.name_of(w) == 'Custom Kernel'), None),
                           10, 'the kernel editor')
    time.sleep(1)
    app.screenshot(os.path.join(ui.artifacts_dir(), 'ui-kernel-editor-open.png'), dialog)
    app.choose_menu_item('Preset', 'Sobel X')
    entry = app.find(None, 'Selected weight', what='the entry of the selected weight')
    grid = app.find(None, 'Weights', what='the heat map')
    size = app.find(None, 'Kernel size')
    ui.wait_until(lambda: ui.text_of(size) == '3' or None, 5,
                  lambda: f'the preset to make the kernel 3 × 3 (size {ui.text_of(size)!r})')
    x, y, w, h = ui.screen_rect(grid)
    cell = min(min(w, h) // 3, 52)
    x0, y0 = x + (w - 3 * cell) // 2, y + (h - 3 * cell) // 2
    # The top left cell: Sobel X's −1.
    ui.rawinput.click(x0 + cell // 2, y0 + cell // 2, 1)
    ui.wait_until(lambda: ui.text_of(entry) == '-1' or None, 5,
                  lambda: f'a click on the top left cell to select it (entry {ui.text_of(entry)!r})')
    ui.type_text('4')
    ui.wait_until(lambda: ui.text_of(entry) == '4' or None, 5,
                  lambda: f'typing on the grid to edit the weight (entry {ui.text_of(entry)!r})')
    ui.press_key('Return')
    # Enter goes on to the next weight, Sobel X's 0.
    ui.wait_until(lambda: ui.text_of(entry) == '0' or None, 5,
                  lambda: f'Enter to move on to the next weight (entry {ui.text_of(entry)!r})')
    summary = app.find(None, 'Kernel Summary')
    ui.wait_until(lambda: 'not separable' in ui.text_of(summary) or None, 5,
                  lambda: f'the summary to say the kernel is not separable ({ui.text_of(summary)!r})')
    log(f'  summary: {ui.text_of(summary)!r}')
    shot = app.screenshot(os.path.join(ui.artifacts_dir(), 'ui-kernel-editor.png'), dialog)
    # The heat map is drawn: deep red (the 4 and the 2s) and deep blue (the −1 and −2).
    hist = ui.colour_histogram(shot)
    red = sum(n for (r, g, b), n in hist.items() if r > 150 and g < 90 and b < 90)
    blue = sum(n for (r, g, b), n in hist.items() if b > 150 and r < 90)
    log(f'  heat map: {red} red and {blue} blue pixels')
    if red < 500 or blue < 500:
        raise Failure(f'the heat map shows no deep colours ({red} red, {blue} blue pixels)')
    app.press('Apply')
    ui.wait_until(lambda: dialog not in app.windows() or None, 10, 'the kernel editor to close')
    # Not separable now: another method than the last run's.
    wait_status(r'(Direct 2-D|Tiled 2-D|FFT) · .*done', 60, 'the drawn kernel to run on the photo')
    log(f'  status: {status()!r}')


def main():
    return ui.run_and_quit('ui-photo', app, [
        ('open a photo', step_start),
        ('choose a classifier: the window stays and points to the filters', step_classifier),
        ('the convolution filter runs on the photo', step_filter),
        ('draw a kernel on the heat map and apply it', step_kernel_editor),
    ])


if __name__ == '__main__':
    sys.exit(main())
