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
    if names != wanted:
        raise Failure(f'the headers are {names}, not {wanted}')
    state['headers'] = dict(headers(window))


def step_rows():
    window = state['window']
    time.sleep(0.5)
    rows = ui.wait_until(lambda: visible_rows(window) or None, 10, 'rows in the table')
    log(f'  {len(rows)} rows on screen; first {rows[0]}, last {rows[-1]}')
    for i, row in enumerate(rows[:5]):
        if len(row) != 6:
            raise Failure(f'row {i} has {len(row)} cells, not 6: {row}')
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
        ('Escape closes the table, and Ctrl+W closes it opened again', step_close),
    ])


if __name__ == '__main__':
    sys.exit(main())
