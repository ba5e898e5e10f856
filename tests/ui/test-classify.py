#!/usr/bin/python3
# test-classify.py — learned features put to work (issue 14): a PCA run's
# features become the data, a classifier learns from them and shows its
# confusion matrix; test data that does not fit is refused, the data kept
#
# SPDX-License-Identifier: GPL-3.0-or-later
#
# Run under run-ui-test.sh. Opens data/iris.csv, runs PCA with 2 components,
# then Dataset ▸ Use Its Features: the status names "iris → pca 2" with 150 × 2.
# Dataset ▸ Open Test Data… with iris.csv itself (4 columns) is refused in the
# error bar, naming both, and the features stay. Logistic regression then runs
# to its last epoch with a fifth of the rows held out; the metrics give a test
# accuracy of 80 % or more; View ▸ Confusion matrix draws a matrix whose
# darkest cells (most of their row) lie on its diagonal. Iris as its own test
# data greys out "Test share"; Hold Out a Share Instead brings it back.
# Accessible names used:
# "Dataset", "Algorithm", "Components", "Run", "Status", "Metrics", "View",
# "Figure", "Error".

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

SOURCE_DIR = os.path.normpath(os.path.join(os.path.dirname(os.path.abspath(__file__)), '..', '..'))
IRIS = os.path.join(SOURCE_DIR, 'data', 'iris.csv')

app = ui.App()


# The status line and the metrics, as the window shows them.
status, wait_status, metrics = app.status, app.wait_status, app.metrics


def error_text():
    labels = ui.find_all(app.window, lambda n: ui.role_of(n) == 'label' and ui.name_of(n) == 'Error')
    return ' '.join(ui.text_of(n) for n in labels)


# ------------------------------------------------------------------------ steps

def step_start():
    app.start()
    app.button('Run', timeout=30, what='a push button named "Run"')
    ui.wait_until(lambda: status().strip(), 30, 'the status label to show something')
    app.open_file(IRIS)
    wait_status(r'(?i)iris', 30, 'Iris to load')


def step_pca():
    app.select_dropdown('Algorithm', 'Principal component analysis')
    spin = app.find('spin button', 'Components', what='the spin button "Components"')
    ui.set_value(spin, 2)
    wait_status(r'iteration 0 of', 15, 'PCA to start again with 2 components')
    app.press('Run')
    wait_status(r'(?i)converged', 60, 'PCA to finish')
    log(f'  status: {status()!r}')


def step_use_features():
    app.choose_menu_item('Dataset', 'Use Its Features')
    wait_status(r'iris(\.csv)? → pca 2 · 150 × 2\b', 20, 'the features of PCA to become the data')
    log(f'  status: {status()!r}')


def step_refuse_test_data():
    app.open_file(IRIS, item='Open Test Data…')
    text = ui.wait_until(lambda: error_text() or None, 20, 'an error about the test data')
    log(f'  error: {text!r}')
    if not ('4 columns' in text and '→ pca 2' in text and 'has 2' in text):
        raise Failure(f'the error does not name both datasets and their columns: {text!r}')
    if '→ pca 2 · 150 × 2' not in status():
        raise Failure(f'the features did not stay after the refusal: {status()!r}')


def step_logreg():
    app.select_dropdown('Algorithm', 'Logistic regression')
    wait_status(r'20 % held out to test', 15, 'the status to say a fifth of the rows is held out')
    app.press('Run')
    wait_status(r'(?i)converged|iteration limit reached|finished \d+ epochs', 120, 'logistic regression to finish')
    text = metrics()
    log(f'  status: {status()!r}\n  metrics: {text!r}')
    m = re.search(r'Test accuracy ([\d.]+) %', text)
    if not m:
        raise Failure(f'the metrics give no test accuracy: {text!r}')
    if float(m.group(1)) < 80:
        raise Failure(f'test accuracy {m.group(1)} % on two principal components of Iris; expected 80 % or more')
    # The default optimiser, L-BFGS, steps over every row: the status gives
    # the training loss, as the metrics do for the last epoch (a mini-batch
    # optimiser's status says "mini-batch loss": the two would differ).
    step_loss = re.search(r'training loss ([\d.e+-]+)', status())
    epoch_loss = re.search(r'Training loss ([\d.e+-]+) \(epoch', text)
    if not step_loss or not epoch_loss or 'mini-batch' in status():
        raise Failure(f'the status should give the training loss, as the metrics do: '
                      f'{status()!r} / {text!r}')


def dark_blue_points(path):
    """(x, y) of the pixels in the darker half of the sequential blues,
    which mark cells holding more than about half of their row."""
    width, height = ui.image_size(path)
    raw = subprocess.run(['/usr/bin/convert', path, '-alpha', 'off', '-depth', '8', 'rgb:-'],
                         check=True, capture_output=True).stdout
    points = []
    for i in range(0, len(raw) - 2, 3):
        r, g, b = raw[i], raw[i + 1], raw[i + 2]
        if b - r > 90 and 0.2126 * r + 0.7152 * g + 0.0722 * b < 150:
            points.append(((i // 3) % width, (i // 3) // width))
    return points


def step_confusion():
    app.select_dropdown('View', 'Confusion matrix')
    figure = app.find(None, 'Figure', what='the figure')
    time.sleep(0.7)
    path = os.path.join(ui.artifacts_dir(), 'ui-classify-confusion.png')
    app.screenshot(path, figure)
    points = dark_blue_points(path)
    log(f'  {len(points)} pixels in the darker blues; saved {path}')
    if len(points) < 2000:
        raise Failure(f'only {len(points)} pixels of the confusion figure are dark blue: no cell holds most of its row')
    # Right predictions dominate, so the dark cells run from the top left to
    # the bottom right: x and y of their pixels rise together.
    n = len(points)
    mx, my = sum(x for x, _ in points) / n, sum(y for _, y in points) / n
    sxy = sum((x - mx) * (y - my) for x, y in points)
    sxx = sum((x - mx) ** 2 for x, _ in points)
    syy = sum((y - my) ** 2 for _, y in points)
    correlation = sxy / (sxx * syy) ** 0.5 if sxx > 0 and syy > 0 else 0
    log(f'  correlation of x and y over the dark cells: {correlation:.3f}')
    if correlation < 0.7:
        raise Failure(f'the dark cells do not lie on the diagonal (correlation {correlation:.3f})')


def step_test_share():
    """With test data given, the share held out does not matter: Test share
    greys out, and comes back with Hold Out a Share Instead."""
    app.open_file(IRIS)
    wait_status(r'^iris\.csv · 150 × 4 · Logistic regression', 30, 'Iris to load again')
    share = app.find('spin button', 'Test share', what='the spin button "Test share"')
    ui.wait_until(lambda: ui.is_sensitive(share) or None, 10, 'Test share to apply with no test data')
    app.open_file(IRIS, item='Open Test Data…')
    wait_status(r'test data iris', 30, 'Iris to be the test data')
    ui.wait_until(lambda: not ui.is_sensitive(share) or None, 10,
                  'Test share to grey out once test data is given')
    app.choose_menu_item('Dataset', 'Hold Out a Share Instead')
    wait_status(r'20 % held out to test', 30, 'the share to be held out again')
    ui.wait_until(lambda: ui.is_sensitive(share) or None, 10, 'Test share to apply again')


def main():
    return ui.run_and_quit('ui-classify', app, [
        ('start the window and open data/iris.csv', step_start),
        ('PCA with 2 components runs to the end', step_pca),
        ('Dataset ▸ Use Its Features: the data becomes "iris → pca 2"', step_use_features),
        ('test data with other columns is refused, the features stay', step_refuse_test_data),
        ('logistic regression learns from the features: test accuracy ≥ 80 %', step_logreg),
        ('View ▸ Confusion matrix draws the matrix', step_confusion),
        ('test data given: Test share greys out, and back with a share held out', step_test_share),
    ])


if __name__ == '__main__':
    sys.exit(main())
