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


def main():
    return ui.run_and_quit('ui-photo', app, [
        ('open a photo', step_start),
        ('choose a classifier: the window stays and points to the filters', step_classifier),
        ('the convolution filter runs on the photo', step_filter),
    ])


if __name__ == '__main__':
    sys.exit(main())
