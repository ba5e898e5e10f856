#!/usr/bin/python3
# test-table.py — a data table of the loaded rows, sortable, with labels
# (issue 13, item 12)
#
# SPDX-License-Identifier: GPL-3.0-or-later
#
# Run under run-ui-test.sh. Opens data/iris.csv, then Main Menu ▸ Data Table…:
# the window's title says 150 × 4, the column headers are "Row", the four Iris
# columns and "Label"; the table's rows are Iris's (its first rows show row
# numbers 1, 2, … with the class "setosa"); clicking the header "sepal_length"
# sorts by it, the first row then showing its minimum 4.3, and clicking again
# its maximum 7.9. Escape closes the table, and so does Ctrl+W on a table
# opened again, as in the other secondary windows. Accessible names used: "Dataset", "Main Menu", "Status",
# "Data", and the columns' titles.

import csv
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
state = {}


def iris_columns():
    with open(IRIS, newline='') as f:
        header = next(csv.reader(f))
    return header[:4]


def status():
    node = state.get('status')
    if node is None or ui.role_of(node) == '':
        node = state['status'] = app.find(None, 'Status', timeout=10, what='the label "Status"')
    return ui.text_of(node)


def open_iris():
    app.open_file(IRIS)
    ui.wait_until(lambda: re.search(r'(?i)iris', status()), 30,
                  lambda: f'Iris to load (status: {status()!r})')


def table_window():
    return ui.wait_until(lambda: next((w for w in app.windows() if w != app.window
                                       and ui.name_of(w).startswith('Data')), None),
                         15, 'a window titled "Data — …"')


def headers(window):
    """The column headers, left to right, as (name, node). GTK 4.8 makes a
    header a filler "GtkColumnViewTitle"; the table names each after its
    column (another version may give it the column header role)."""
    found = ui.find_all(window, lambda n: ui.role_of(n) in ('column header', 'table column header')
                        or ui.name_of(n) == 'GtkColumnViewTitle'
                        or (ui.role_of(n) == 'filler' and ui.role_of(n.parent) == 'table row'))
    found.sort(key=lambda n: ui.extents_of(n)[0])
    return [(ui.name_of(n), n) for n in found]


def visible_rows(window):
    """The rows on screen, top to bottom, each as the texts of its cells left
    to right (GTK recycles row widgets, so order them by position)."""
    rows = ui.find_all(window, lambda n: ui.role_of(n) in ('table row', 'row', 'list item')
                       and any(ui.role_of(c) in ('table cell', 'cell', 'grid cell')
                               for c in n.children))
    window_h = ui.extents_of(window)[3]
    rows = [r for r in rows if 0 <= ui.extents_of(r)[1] < window_h and ui.extents_of(r)[3] > 0]
    rows.sort(key=lambda n: ui.extents_of(n)[1])
    result = []
    for row in rows:
        cells = [c for c in row.children if ui.role_of(c) in ('table cell', 'cell', 'grid cell')]
        cells.sort(key=lambda n: ui.extents_of(n)[0])
        texts = []
        for cell in cells:
            labels = ui.find_all(cell, lambda n: ui.role_of(n) == 'label', showing=False)
            texts.append(ui.text_of(labels[0]) if labels else ui.text_of(cell))
        result.append(texts)
    return result


# ------------------------------------------------------------------------ steps

def step_start():
    app.start()
    app.button('Run', timeout=30, what='a push button named "Run"')
    ui.wait_until(lambda: status().strip(), 30, 'the status label to show something')
    open_iris()


def step_open():
    app.choose_menu_item('Main Menu', 'Data Table…')
    window = state['window'] = table_window()
    title = ui.name_of(window)
    log(f'  window: {title!r}')
    if not re.search(r'150\s*×\s*4\b', title):
        raise Failure(f'the title {title!r} does not say 150 × 4')
    if 'iris' not in title.lower():
        raise Failure(f'the title {title!r} does not name the dataset')
    ui.find(window, None, 'Data', timeout=10, what='the table named "Data"')


def step_headers():
    window = state['window']
    names = [name for name, _ in ui.wait_until(lambda: headers(window) or None, 10,
                                                'the column headers')]
    log(f'  headers: {names}')
    wanted = ['Row'] + iris_columns() + ['Label']
    # k-means' first snapshot already gives each row a cluster.
    if names[:6] != wanted or names[6:] not in ([], ['Cluster']):
        raise Failure(f'the headers are {names}, not {wanted}')
    state['headers'] = dict(headers(window))


def step_rows():
    window = state['window']
    time.sleep(0.5)
    rows = ui.wait_until(lambda: visible_rows(window) or None, 10, 'rows in the table')
    log(f'  {len(rows)} rows on screen; first {rows[0]}, last {rows[-1]}')
    for i, row in enumerate(rows[:5]):
        if len(row) not in (6, 7):
            raise Failure(f'row {i} has {len(row)} cells, not 6 (and a cluster): {row}')
        if row[0] != str(i + 1):
            raise Failure(f'row {i} on screen is numbered {row[0]!r}, not {i + 1}')
        if row[5] != 'setosa':
            raise Failure(f'row {i} on screen has the label {row[5]!r}, not setosa')
    if rows[0][1:5] != ['5.1', '3.5', '1.4', '0.2']:
        raise Failure(f'the first row reads {rows[0]}, not Iris\'s first 5.1 3.5 1.4 0.2')
    app.screenshot(os.path.join(ui.artifacts_dir(), 'ui-table-rows.png'), window)


def sort_by(column, expected, direction):
    window = state['window']
    header = state['headers'][column]
    ui.click(header)

    def first():
        rows = visible_rows(window)
        return rows[0] if rows else None
    index = list(state['headers']).index(column)
    row = ui.wait_until(lambda: (lambda r: r if r and r[index] == expected else None)(first()), 10,
                        lambda: f'the first row to show {column} = {expected} sorted {direction} '
                                f'(it reads {first()})')
    log(f'  sorted {direction} by {column}: first row {row}')
    return row


def step_sort():
    column = iris_columns()[0]
    sort_by(column, '4.3', 'ascending')
    app.screenshot(os.path.join(ui.artifacts_dir(), 'ui-table-ascending.png'), state['window'])
    row = sort_by(column, '7.9', 'descending')
    if row[5] != 'virginica':
        raise Failure(f'the row with {column} 7.9 has the label {row[5]!r}, not virginica')
    app.screenshot(os.path.join(ui.artifacts_dir(), 'ui-table-descending.png'), state['window'])


def figure_description():
    figure = app.find(None, 'Figure', what='the figure')
    ui._safe(figure.clear_cache)
    return ui._safe(lambda: figure.description, '') or ''


def selection_text():
    return ui.text_of(ui.find(state['window'], None, 'Selection', what='the table\'s selection line'))


def step_results():
    """Issue 40, item 13: the result's columns beside the inputs."""
    app.press('Run')
    ui.wait_until(lambda: re.search(r'converged|finished', status()), 60,
                  lambda: f'k-means to converge (status: {status()!r})')
    window = state['window']
    names = [n for n, _ in ui.wait_until(lambda: (lambda h: h if 'Cluster' in [n for n, _ in h] else None)(
        headers(window)), 10, 'a "Cluster" column')]
    state['headers'] = dict(headers(window))
    time.sleep(1.0)
    rows = visible_rows(window)
    clusters = {row[names.index('Cluster')] for row in rows}
    log(f'  headers {names}; clusters on screen {sorted(clusters)}')
    if not clusters or not clusters <= {'1', '2', '3'}:
        raise Failure(f'the Cluster column reads {sorted(clusters)}, not clusters 1 to 3')
    app.screenshot(os.path.join(ui.artifacts_dir(), 'ui-table-results.png'), window)


def step_select_rows():
    """Rows selected in the table (a click, then Shift+click four rows on)
    are ringed in the figure, which says how many."""
    window = state['window']
    cells = ui.find_all(window, lambda n: ui.role_of(n) in ('table cell', 'cell', 'grid cell'))
    cells.sort(key=lambda n: (ui.extents_of(n)[1], ui.extents_of(n)[0]))
    firsts = []
    for c in cells:
        if ui.extents_of(c)[3] > 0 and ui.extents_of(c)[1] > 0 and ui.extents_of(c)[1] not in [ui.extents_of(f)[1] for f in firsts]:
            firsts.append(c)
    ui.raw_click(firsts[0])
    time.sleep(0.3)
    subprocess.run(['xdotool', 'keydown', 'shift'], check=True)
    ui.raw_click(firsts[3])
    subprocess.run(['xdotool', 'keyup', 'shift'], check=True)
    ui.wait_until(lambda: '4 rows selected' in selection_text(), 5,
                  lambda: f'the table to say 4 rows are selected ({selection_text()!r})')
    said = ui.wait_until(lambda: re.search(r'4 rows selected', figure_description()), 5,
                         lambda: f'the figure to ring the 4 rows ({figure_description()!r})')
    log(f'  table: {selection_text()!r}; figure: {said.group(0)!r}')
    app.screenshot(os.path.join(ui.artifacts_dir(), 'ui-table-selected.png'))


def step_lasso():
    """A lasso (Shift-drag) around points in the figure selects their rows
    in the table."""
    figure = app.find(None, 'Figure', what='the figure')
    fx, fy, fw, fh = ui.screen_rect(figure)
    # The right part of the figure: the table window covers its left.
    points = [(0.62, 0.25), (0.97, 0.25), (0.97, 0.85), (0.62, 0.85)]
    xs = [int(fx + fw * a) for a, _ in points]
    ys = [int(fy + fh * b) for _, b in points]
    cmd = ['xdotool', 'mousemove', str(xs[0]), str(ys[0]), 'keydown', 'shift', 'mousedown', '1']
    for x, y in list(zip(xs, ys))[1:] + [(xs[0], ys[0])]:
        cmd += ['mousemove', '--sync', str(x), str(y), 'sleep', '0.1']
    cmd += ['mouseup', '1', 'keyup', 'shift']
    subprocess.run(cmd, check=True)
    said = ui.wait_until(lambda: re.search(r'(\d+) rows? selected', figure_description()), 5,
                         lambda: f'the lasso to select rows ({figure_description()!r})')
    n = int(said.group(1))
    ui.wait_until(lambda: selection_text().startswith(f'{n} row'), 5,
                  lambda: f'the table to select the {n} rows of the lasso ({selection_text()!r})')
    log(f'  lasso: figure {said.group(0)!r}, table {selection_text()!r}')
    if n == 4:
        raise Failure('the lasso left the 4 rows selected in the table')
    app.screenshot(os.path.join(ui.artifacts_dir(), 'ui-table-lasso.png'))


def close_with(key):
    window = state['window']
    ui.click(state['headers']['Row'])  # the table window has the keyboard
    ui.key_combo(key) if key.startswith('<') else ui.press_key(key)
    ui.wait_until(lambda: window not in app.windows(), 10, f'{key} to close the data table')


def step_close():
    close_with('Escape')
    app.choose_menu_item('Main Menu', 'Data Table…')
    state['window'] = table_window()
    state['headers'] = dict(ui.wait_until(lambda: headers(state['window']) or None, 10, 'the column headers'))
    close_with('<Control>w')


def main():
    return ui.run_and_quit('ui-table', app, [
        ('start the window and open data/iris.csv', step_start),
        ('Main Menu ▸ Data Table…: a window "Data — iris (150 × 4)"', step_open),
        ('the headers: Row, the four Iris columns, Label', step_headers),
        ('the first rows are Iris\'s, numbered, with their classes', step_rows),
        ('a header sorts ascending, then descending', step_sort),
        ('after a run, the clusters beside the rows', step_results),
        ('rows selected in the table are ringed in the figure', step_select_rows),
        ('a lasso in the figure selects its rows in the table', step_lasso),
        ('Escape closes the table, and Ctrl+W closes it opened again', step_close),
    ])


if __name__ == '__main__':
    sys.exit(main())
