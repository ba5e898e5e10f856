#!/usr/bin/python3
# test-files.py — the data people have, opened through the file chooser:
# a NumPy archive whose arrays' names do not say which is the data
# (numpy.savez (x, y) names them arr_0 and arr_1), for which the window
# asks, with real clicks; and a folder of class folders of images
#
# SPDX-License-Identifier: GPL-3.0-or-later
#
# Run under run-ui-test.sh. Opens data/iris.csv, then Dataset ▸ Open… an
# archive of two arrays, arr_0 (150 × 4 floats) and arr_1 (150 class
# numbers): the dialog "Choose the Arrays" offers arr_0 as the data and
# arr_1 as its labels. Cancel keeps Iris; Open loads "pair (arr_0)" with
# 150 × 4 and labels (the metrics show an accuracy). Dataset ▸ Open Image
# Folder… on a folder of two class folders of 6 × 4 PNGs loads them as rows
# of 24 pixels, labelled by folder. A table with an identifier column, text
# among numbers and missing cells opens "Import Table", preset to leave the
# identifier out, make the colours categories and fill in the means: it says
# "5 rows × 5 columns" and, with Open, loads so. An experiment file of
# version 2 brings back its view with its data: Iris, colour by class ticked,
# its third and fourth columns across and up. With Preferences ▸ Memory
# budget at 1 MiB, a 1.6 MB NumPy file opens streamed from disk.
# Accessible names used: "Dataset", "Status", "Metrics", "Data", "Labels",
# "Open", "Cancel", "Import Table", "id".

import os
import struct
import sys
import zipfile
import zlib

if not os.environ.get('LATENT_EXECUTABLE'):
    print('SKIP: LATENT_EXECUTABLE is not set; run this through run-ui-test.sh')
    sys.exit(77)

import latent_ui as ui  # noqa: E402
from latent_ui import Failure  # noqa: E402

SOURCE_DIR = os.path.normpath(os.path.join(os.path.dirname(os.path.abspath(__file__)), '..', '..'))
IRIS = os.path.join(SOURCE_DIR, 'data', 'iris.csv')

app = ui.App()
state = {}


def npy(descr, shape, payload):
    """A .npy file as numpy.save writes it, version 1.0."""
    header = "{'descr': '%s', 'fortran_order': False, 'shape': %s, }" % (descr, shape)
    header += ' ' * ((64 - (10 + len(header) + 1) % 64) % 64) + '\n'
    return b'\x93NUMPY\x01\x00' + struct.pack('<H', len(header)) + header.encode() + payload


def write_archive(path):
    """Iris's values and species as arr_0 and arr_1."""
    rows, labels, names = [], [], []
    with open(IRIS) as f:
        next(f)
        for line in f:
            *values, species = line.strip().split(',')
            rows.append([float(v) for v in values])
            if species not in names:
                names.append(species)
            labels.append(names.index(species))
    x = npy('<f4', '(%d, 4)' % len(rows), struct.pack('<%df' % (4 * len(rows)), *sum(rows, [])))
    y = npy('<i8', '(%d,)' % len(labels), struct.pack('<%dq' % len(labels), *labels))
    with zipfile.ZipFile(path, 'w') as z:
        z.writestr('arr_0.npy', x)
        z.writestr('arr_1.npy', y)


def write_png(path, width, height, grey):
    """A grey 8-bit PNG of one shade."""
    def chunk(kind, data):
        return struct.pack('>I', len(data)) + kind + data + struct.pack('>I', zlib.crc32(kind + data))
    rows = b''.join(b'\0' + bytes([grey]) * width for _ in range(height))
    with open(path, 'wb') as f:
        f.write(b'\x89PNG\r\n\x1a\n' + chunk(b'IHDR', struct.pack('>IIBBBBB', width, height, 8, 0, 0, 0, 0))
                + chunk(b'IDAT', zlib.compress(rows)) + chunk(b'IEND', b''))


# The status line and the metrics, as the window shows them.
status, wait_status, metrics = app.status, app.wait_status, app.metrics


def the_dialog():
    return ui.wait_until(lambda: next((w for w in app.windows()
                                       if ui.name_of(w) == 'Choose the Arrays'), None),
                         15, 'the dialog "Choose the Arrays"')


# ------------------------------------------------------------------------ steps

def step_start():
    state['archive'] = os.path.join(ui.scratch_dir(), 'pair.npz')
    write_archive(state['archive'])
    app.start()
    ui.wait_until(lambda: status().strip(), 30, 'the status label to show something')
    app.open_file(IRIS)
    wait_status(r'^iris', 30, 'Iris to load')


def step_cancel():
    app.open_file(state['archive'])
    dialog = the_dialog()
    ui.find(dialog, 'combo box', 'Data', timeout=10)
    ui.find(dialog, 'combo box', 'Labels', timeout=10)
    ui.raw_click(ui.find(dialog, 'push button', 'Cancel', timeout=10))
    ui.wait_until(lambda: dialog not in app.windows(), 10, 'the dialog to close')
    wait_status(r'^iris\S* · 150 × 4', 10, 'Iris to stay')


def step_open():
    app.open_file(state['archive'])
    dialog = the_dialog()
    ui.raw_click(ui.find(dialog, 'push button', 'Open', timeout=10))
    wait_status(r'^pair \(arr_0\) · 150 × 4', 30, 'the archive\'s arr_0 to load')
    ui.wait_until(lambda: 'Accuracy' in metrics() or None, 30,
                  lambda: f'the metrics to measure against arr_1\'s labels ({metrics()!r})')


def step_folder():
    folder = os.path.join(ui.scratch_dir(), 'shades')
    for klass, shades in (('dark', (10, 30, 50)), ('light', (200, 220))):
        os.makedirs(os.path.join(folder, klass), exist_ok=True)
        for shade in shades:
            write_png(os.path.join(folder, klass, f'{shade}.png'), 6, 4, shade)
    app.open_file(folder, item='Open Image Folder…')
    wait_status(r'^shades · 5 × 24', 30, 'the folder\'s 5 images of 6 × 4 to load')
    ui.wait_until(lambda: 'Accuracy' in metrics() or None, 30,
                  lambda: f'the metrics to measure against the folders\' classes ({metrics()!r})')


def step_folder_choices():
    """The chooser's Size and Colour: the same grey folder at 16 × 16, in colour
    (three values a pixel)."""
    folder = os.path.join(ui.scratch_dir(), 'shades')
    app.open_file(folder, item='Open Image Folder…',
                  choices=[('Most common (at most 64 px)', '16 × 16'), ('As the images are', 'Colour')])
    wait_status(r'^shades · 5 × 768\b', 30, 'the folder\'s 5 images at 16 × 16 in colour (768 values each)')


MESSY = ('id,height,colour,weight,species\np001,1.5,red,10,cat\np002,,blue,12,dog\n'
         'p003,1.7,red,NA,cat\np004,1.9,green,15,dog\np005,2.1,,17,dog\n')


def step_messy_table():
    path = os.path.join(ui.scratch_dir(), 'messy.csv')
    with open(path, 'w') as f:
        f.write(MESSY)
    app.open_file(path)
    dialog = ui.wait_until(lambda: next((w for w in app.windows() if ui.name_of(w) == 'Import Table'), None),
                           15, 'the dialog "Import Table"')
    identifier = ui.find(dialog, 'check box', 'id', timeout=10)
    if not identifier.getState().contains(ui.pyatspi.STATE_CHECKED):
        raise Failure('"id" is not preset to be left out')
    # The summary under the choices, once the table has been read with them.
    summary = ui.find(dialog, 'label', contains='5 rows × 5 columns', timeout=20,
                      what='the summary to give 5 rows × 5 columns')
    if '2 missing values filled in' not in ui.text_of(summary):
        raise Failure(f'the summary does not count the filled values: {ui.text_of(summary)!r}')
    ui.screenshot(os.path.join(ui.artifacts_dir(), 'ui-files-import.png'), dialog)
    ui.raw_click(ui.find(dialog, 'push button', 'Open', timeout=10))
    wait_status(r'^messy\.csv · 5 × 5', 30, 'the table to load as 5 × 5')


WEATHER = ('@relation weather\n@attribute outlook {sunny,overcast,rainy}\n@attribute temperature numeric\n'
           '@attribute humidity numeric\n@attribute play {yes,no}\n@data\n'
           'sunny,85,85,no\novercast,?,86,yes\nrainy,70,?,yes\n{1 64, 3 yes}\nsunny,72,95,no\n')


def step_arff_missing():
    """An ARFF file with missing values (?) opens Import Table too: its
    attributes head the preview, the class is the label, and the missing
    values are filled in with their columns' means."""
    path = os.path.join(ui.scratch_dir(), 'weather.arff')
    with open(path, 'w') as f:
        f.write(WEATHER)
    app.open_file(path)
    dialog = ui.wait_until(lambda: next((w for w in app.windows() if ui.name_of(w) == 'Import Table'), None),
                           15, 'the dialog "Import Table" for the ARFF file')
    ui.find(dialog, 'check box', 'humidity', timeout=10, what='the attribute "humidity" among those to leave out')
    # outlook one-hot (3) + temperature + humidity; play is the class.
    summary = ui.find(dialog, 'label', contains='5 rows × 5 columns', timeout=20,
                      what='the summary to give 5 rows × 5 columns')
    if '2 missing values filled in' not in ui.text_of(summary):
        raise Failure(f'the summary does not count the filled values: {ui.text_of(summary)!r}')
    ui.raw_click(ui.find(dialog, 'push button', 'Open', timeout=10))
    wait_status(r'^weather\S* · 5 × 5', 30, 'the ARFF table to load as 5 × 5')
    ui.wait_until(lambda: 'Accuracy' in metrics() or None, 30,
                  lambda: f'the metrics to measure against the class "play" ({metrics()!r})')


def step_experiment():
    path = os.path.join(ui.scratch_dir(), 'view.json')
    with open(path, 'w') as f:
        f.write('{"format": "latent-experiment", "version": 2, "dataset": "%s", "algorithm": "kmeans", '
                '"params": {"k": 3}, "seed": 1, "device": "off", "test": null, '
                '"view": {"figure": "scatter", "axes": [3, 4], "colour-by-class": true, "speed": 20}}' % IRIS)
    app.open_file(path, item='Open Experiment…', menu='Main Menu')
    wait_status(r'^iris\S* · 150 × 4', 30, 'the experiment\'s Iris to load')
    colour = app.find('check box', 'Colour by class', timeout=10)
    ui.wait_until(lambda: colour.getState().contains(ui.pyatspi.STATE_CHECKED) or None, 10,
                  'Colour by class to be ticked as the experiment says')
    across = app.find('combo box', 'Horizontal axis', timeout=10)
    ui.wait_until(lambda: 'petal' in ui.text_of(across).lower() or 'petal' in str(
                      [ui.name_of(c) for c in ui.find_all(across, lambda n: True, showing=False)]).lower() or None,
                  10, lambda: f'Across to show the third column ({ui.text_of(across)!r})')


def step_budget():
    """Preferences ▸ Memory budget at 1 MiB, typed."""
    app.choose_menu_item('Main Menu', 'Preferences')
    budget = app.find('spin button', 'Memory budget', timeout=10)
    ui.click(budget)
    ui.key_combo('<Control>a')
    ui.type_text('1')
    ui.press_key('Return')
    ui.wait_until(lambda: abs(budget.queryValue().currentValue - 1) < 0.5 or None, 10,
                  'the memory budget to read 1 MiB')
    ui.press_key('Escape')


def step_streamed():
    """A NumPy file of 1.6 MB then opens streamed from disk, as the status
    line says, and k-means runs on it to convergence (issue 38)."""
    path = os.path.join(ui.scratch_dir(), 'stream.npy')
    values = [v for i in range(100000)
              for v in (float(i % 3) * 10 + (i % 7) * 0.1, float(i % 3) * -5 + (i % 11) * 0.1, float(i % 5), 1.0)]
    with open(path, 'wb') as f:
        f.write(npy('<f4', '(100000, 4)', struct.pack('<400000f', *values)))
    app.open_file(path)
    wait_status(r'^stream · 100000 × 4 · streamed from disk, 1\.6\sMB, 131\.1\skB chunks · k-means', 60,
                'the file to open streamed, in chunks of an eighth of the budget')
    if 'Started by k-means++ on a sample' not in metrics():
        raise Failure(f'the metrics do not say where k-means started: {metrics()!r}')


def step_streamed_run():
    app.press('Run')
    wait_status(r'(?i)converged', 60, 'k-means to converge on the streamed file')


def main():
    return ui.run_and_quit('ui-files', app, [
        ('start the window and open data/iris.csv', step_start),
        ('an archive of arr_0 and arr_1: the dialog asks, Cancel keeps Iris', step_cancel),
        ('Open loads arr_0 labelled by arr_1', step_open),
        ('Open Image Folder… loads a folder of class folders', step_folder),
        ('its Size and Colour choices: 16 × 16, in colour', step_folder_choices),
        ('an ARFF file with missing values: Import Table, filled in', step_arff_missing),
        ('a messy table opens Import Table, preset; Open loads it', step_messy_table),
        ('an experiment brings back its view with its data', step_experiment),
        ('Preferences: a memory budget of 1 MiB', step_budget),
        ('a 1.6 MB NumPy file opens streamed', step_streamed),
        ('k-means runs on it to convergence', step_streamed_run),
    ])


if __name__ == '__main__':
    sys.exit(main())
