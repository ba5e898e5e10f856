#!/usr/bin/python3
# test-classes.py — clusters against the true classes (issue 13, item 17)
#
# SPDX-License-Identifier: GPL-3.0-or-later
#
# Run under run-ui-test.sh, which provides the display, the buses and
# $LATENT_EXECUTABLE. k-means with K = 3 on data/iris.csv: under the metrics,
# the clusters-to-classes table (rows clusters, columns the three species,
# counts summing to 150); the check button "Colour by class" recolours the
# points and unchecking it restores them; for PCA both go away. Accessible
# names used: "Run", "Status", "Clusters", "Figure", "Classes to clusters",
# "Colour by class", "Algorithm".

import os
import re
import sys
import time

if not os.environ.get('LATENT_EXECUTABLE'):
    print('SKIP: LATENT_EXECUTABLE is not set; run this through run-ui-test.sh')
    sys.exit(77)

import latent_ui as ui  # noqa: E402
from latent_ui import Failure, log  # noqa: E402

K = 3
CLASSES = ('setosa', 'versicolor', 'virginica')
SOURCE_DIR = os.path.normpath(os.path.join(os.path.dirname(os.path.abspath(__file__)), '..', '..'))
IRIS = os.path.join(SOURCE_DIR, 'data', 'iris.csv')
SCRATCH = ui.scratch_dir()

app = ui.App()
_nodes = {}


def label(name):
    """A label found by its accessible name once, then kept: GTK 4.8 may rename
    a label after its text."""
    node = _nodes.get(name)
    if node is None or ui.role_of(node) == '':
        node = _nodes[name] = app.find(None, name, timeout=10, what=f'the label "{name}"')
    return node


def status():
    return ui.text_of(label('Status'))


def wait_status(pattern, timeout, what):
    return ui.wait_until(lambda: re.search(pattern, status()), timeout,
                         lambda: f'{what} (status: {status()!r})')


def open_iris():
    app.open_file(IRIS)
    wait_status(r'(?i)iris', 30, 'Iris to load')


def check_box():
    return app.find('check box', 'Colour by class', what='the check box "Colour by class"')


def palette_counts(name):
    figure = app.find(None, 'Figure', what='the figure')
    time.sleep(0.8)  # the frame clock draws
    path = app.screenshot(os.path.join(SCRATCH, f'{name}.png'), figure)
    # The whole window beside the test log, for a person to look at.
    app.screenshot(os.path.join(ui.artifacts_dir(), f'ui-classes-{name}.png'), app.window)
    hist = ui.colour_histogram(path)
    counts = [ui.count_near(hist, ui.PALETTE[i], tolerance=6) for i in range(K)]
    log(f'  {path}: pixels near palette colours 0..{K - 1}: {counts}')
    return counts


# ------------------------------------------------------------------------ steps

def step_start():
    app.start()
    app.button('Run', timeout=30, what='a push button named "Run"')
    ui.wait_until(lambda: status().strip(), 30, 'the status label to show something')
    open_iris()
    spin = app.find('spin button', 'Clusters', what='the spin button "Clusters"')
    ui.set_value(spin, K)


def step_run():
    app.press('Run')
    wait_status(r'(?i)converged', 60, 'k-means to converge')
    log(f'  status: {status()!r}')


def strip_description():
    node = app.find('image', 'Objective', what='the curve strip "Objective"')
    return ui._safe(lambda: node.description, '') or ''


def step_scrub():
    """Issue 34, 3b.1: back to iteration 0 on the timeline, the strip marks
    and reads out iteration 0 (not the last); from iteration 2 Run goes on,
    and the strip keeps the curve from where it began."""
    before = strip_description()
    log(f'  strip: {before!r}')
    start = re.match(r'.*?: \S+ at iteration (\d+),', before)
    if not start:
        raise Failure(f'the strip does not say where its curve starts: {before!r}')
    timeline = app.find('slider', 'Timeline', what='the slider "Timeline"')
    ui.set_value(timeline, 0)
    ui.wait_until(lambda: 'shown: iteration 0:' in strip_description(), 10,
                  lambda: f'the strip to mark iteration 0 (it says {strip_description()!r})')
    time.sleep(0.5)
    app.screenshot(os.path.join(ui.artifacts_dir(), 'ui-classes-scrubbed.png'), app.window)
    ui.set_value(timeline, 2)
    ui.wait_until(lambda: 'shown: iteration 2:' in strip_description(), 10,
                  lambda: f'the strip to mark iteration 2 (it says {strip_description()!r})')
    app.press('Run')
    wait_status(r'(?i)converged', 60, 'k-means to converge again')
    after = ui.wait_until(lambda: strip_description() if 'shown: iteration 2:' not in strip_description() else None,
                          10, 'the strip to follow the run')
    log(f'  strip after going on: {after!r}')
    if not after.split(': ', 1)[-1].split(' at iteration ')[1].startswith(start.group(1) + ','):
        raise Failure(f'going on, the strip lost its start at iteration {start.group(1)}: {after!r}')


TABLE = {}


def step_table():
    node = label('Classes to clusters')
    if not ui.is_showing(node):
        raise Failure('the table "Classes to clusters" is not shown after a k-means run on Iris')
    text = ui.wait_until(lambda: ui.text_of(node) if 'cluster' in ui.text_of(node) else None,
                         10, 'the table to be filled')
    log('  ' + text.replace('\n', '\n  '))
    lines = [l for l in text.splitlines() if l.strip()]
    header = next((l for l in lines if all(c in l for c in CLASSES)), None)
    if header is None:
        raise Failure(f'no line of the table names the three classes {CLASSES}: {text!r}')
    heads = header.split()
    if heads != list(CLASSES):
        raise Failure(f'the columns are {heads}, expected the classes {list(CLASSES)}')
    rows = [l for l in lines if re.match(r'\s*cluster \d+', l)]
    if len(rows) != K:
        raise Failure(f'{len(rows)} cluster rows, expected {K}: {text!r}')
    counts = [[int(x) for x in re.findall(r'(\d+)\*?', re.sub(r'^\s*cluster \d+', '', r))] for r in rows]
    if any(len(c) != len(CLASSES) for c in counts):
        raise Failure(f'rows without one count per class: {counts}')
    total = sum(map(sum, counts))
    if total != 150:
        raise Failure(f'the counts sum to {total}, not the 150 rows of Iris: {counts}')
    # Every species has 50 rows.
    columns = [sum(c[j] for c in counts) for j in range(len(CLASSES))]
    if columns != [50, 50, 50]:
        raise Failure(f'the class columns sum to {columns}, not 50 each')
    stars = sum(r.count('*') for r in rows)
    if stars != K:
        raise Failure(f'{stars} matched cells marked, expected one per cluster')
    TABLE['clusters'] = [sum(c) for c in counts]


def step_colour_by_class():
    box = check_box()
    if not ui.is_sensitive(box):
        raise Failure('"Colour by class" is greyed out for k-means on Iris, which has classes')
    before = palette_counts('by-cluster')
    ui.click(box)
    ui.wait_until(lambda: box.getState().contains(ui.pyatspi.STATE_CHECKED), 5, 'the box to be checked')
    by_class = palette_counts('by-class')
    changed = sum(abs(a - b) for a, b in zip(before, by_class))
    log(f'  {changed} pixels of palette colours moved between colours (cluster sizes {TABLE["clusters"]})')
    if changed < 0.1 * sum(before):
        raise Failure(f'checking "Colour by class" barely changed the figure: {before} → {by_class}')
    # Iris's classes are 50 rows each, its clusters not: by class the three
    # colours are closer to equal than by cluster.
    spread = lambda c: max(c) / max(1, min(c))  # noqa: E731
    if not spread(by_class) < spread(before):
        raise Failure(f'coloured by class (50 rows each) the colours are less even than by cluster: '
                      f'{by_class} against {before}')
    ui.click(box)
    ui.wait_until(lambda: not box.getState().contains(ui.pyatspi.STATE_CHECKED), 5, 'the box to be unchecked')
    after = palette_counts('by-cluster-again')
    back = sum(abs(a - b) for a, b in zip(before, after))
    if back > 0.02 * sum(before):
        raise Failure(f'unchecking did not restore the cluster colours: {before} then {after}')


def step_pca():
    app.select_dropdown('Algorithm', 'Principal component analysis')
    wait_status(r'(?i)principal', 30, 'PCA to be chosen')
    box = check_box()
    ui.wait_until(lambda: not ui.is_sensitive(box), 10, '"Colour by class" to be greyed out for PCA')
    # Searched afresh: a hidden label leaves the accessibility tree.
    ui.wait_until(lambda: not ui.find_all(app.window, lambda n: ui.name_of(n) == 'Classes to clusters'
                                          or 'Classes to clusters (' in ui.text_of(n)),
                  10, 'the table "Classes to clusters" to go for PCA')


def write_five_classes(path):
    """100,000 rows of five blobs in 2-D whose text classes first appear in
    the order c0, c2, c4, c1, c3 (row i is of class ORDER[i % 5]); each
    class 20,000 rows, so the table's counts take five digits."""
    import random
    rng = random.Random(5)
    order = (0, 2, 4, 1, 3)
    with open(path, 'w') as f:
        f.write('x,y,class\n')
        for i in range(100_000):
            c = order[i % 5]
            f.write(f'{40 * c + rng.gauss(0, 1):.3f},{rng.gauss(0, 1):.3f},c{c}\n')


def step_wide_table():
    """Issue 34, 3b.7: five classes of 20,000 rows. The columns read c0 … c4,
    not in the order the file first named them; a table wider than the
    sidebar scrolls with a scroll bar of its own below the rows, not one
    drawn over the last row, or none at all."""
    path = os.path.join(SCRATCH, 'five-classes.csv')
    write_five_classes(path)
    app.select_dropdown('Algorithm', 'k-means')
    app.open_file(path)
    wait_status(r'five-classes', 60, 'the five classes to load')
    spin = app.find('spin button', 'Clusters', what='the spin button "Clusters"')
    ui.set_value(spin, 5)
    app.press('Run')
    wait_status(r'(?i)converged', 120, 'k-means to converge')
    node = label('Classes to clusters')
    text = ui.wait_until(lambda: ui.text_of(node) if 'c4' in ui.text_of(node) else None,
                         10, 'the table to be filled')
    log('  ' + text.replace('\n', '\n  '))
    header = next(l for l in text.splitlines() if 'c0' in l)
    if header.split() != ['c0', 'c1', 'c2', 'c3', 'c4']:
        raise Failure(f'the columns are {header.split()}, expected c0 … c4 in order')
    time.sleep(0.5)
    app.screenshot(os.path.join(ui.artifacts_dir(), 'ui-classes-wide-table.png'), app.window)
    pane = node
    while pane is not None and ui.role_of(pane) != 'scroll pane':
        pane = pane.parent
    if pane is None:
        raise Failure('the table is in no scroll pane')
    px, py, pw, ph = ui.extents_of(pane)
    lx, ly, lw, lh = ui.extents_of(node)
    log(f'  table {lw}×{lh} at ({lx}, {ly}); its pane {pw}×{ph} at ({px}, {py})')
    if lw <= pw:
        return   # it fits: nothing to scroll
    bars = ui.find_all(pane, lambda n: ui.role_of(n) == 'scroll bar')
    across = [b for b in bars if ui.extents_of(b)[2] > ui.extents_of(b)[3] > 0]
    if not across:
        raise Failure(f'the table ({lw} px) is wider than its pane ({pw} px) and has no scroll bar across')
    bx, by, bw, bh = ui.extents_of(across[0])
    log(f'  scroll bar {bw}×{bh} at ({bx}, {by})')
    # Overlaid on the rows, the bar shows only while the pointer moves there.
    if by < ly + lh:
        raise Failure(f'the scroll bar (y {by}…{by + bh}) lies over the table\'s last row '
                      f'(y {ly}…{ly + lh}): an overlay that shows only under the pointer')


def main():
    ui.run_steps('ui-classes', app, [
        ('open data/iris.csv, K = 3', step_start),
        ('press Run and wait for convergence', step_run),
        ('the timeline back to 0 and on from 2: the strip follows', step_scrub),
        ('classes to clusters: three species, counts summing to 150', step_table),
        ('"Colour by class" recolours the points, and back', step_colour_by_class),
        ('PCA: no table, the box greyed out', step_pca),
        ('five classes: columns c0 … c4, a table wider than the sidebar scrolls', step_wide_table),
    ])
    code = app.stop()
    if code != 0:
        log(f'FAIL: the application exited with status {code} when asked to quit')
        return 1
    return 0


if __name__ == '__main__':
    sys.exit(main())
