#!/usr/bin/python3
# test-window.py — end-to-end test of Latent's window, driven as a person would
#
# SPDX-License-Identifier: GPL-3.0-or-later
#
# Run under run-ui-test.sh, which provides the display, the buses and
# $LATENT_EXECUTABLE. The accessible names used here ("Run", "Status", "Dataset",
# "Clusters", "Figure", "Timeline", "Main Menu", "File Name", "Export", "Error",
# "σ", "Passes", "Speed") are the window's contract with its users of assistive
# technology.

import os
import re
import subprocess
import sys
import time

if not os.environ.get('LATENT_EXECUTABLE'):
    # dogtail refuses to import outside an accessibility session; say why first.
    print('SKIP: LATENT_EXECUTABLE is not set; run this through run-ui-test.sh')
    sys.exit(77)

import latent_ui as ui  # noqa: E402
from latent_ui import Failure, log  # noqa: E402

K = 3
SOURCE_DIR = os.path.normpath(os.path.join(os.path.dirname(os.path.abspath(__file__)), '..', '..'))
IRIS = os.path.join(SOURCE_DIR, 'data', 'iris.csv')
SCRATCH = ui.scratch_dir()
BAD_CSV = os.path.join(SCRATCH, 'ragged-rows.csv')
EXPORT_PNG = os.path.join(SCRATCH, 'exported-figure.png')

app = ui.App()
_status = None


def status_node():
    """The status label. GtkLabel (4.8) renames itself after its text whenever the
    text changes, so keep the node once found rather than searching again."""
    global _status
    if _status is not None and ui.role_of(_status) != '':
        return _status
    try:
        _status = app.find(None, 'Status', timeout=5)
    except Failure:
        _status = bottom_label()
        if _status is None:
            raise Failure('no status label: nothing is named "Status" and no label '
                          'spans the bottom of the window') from None
        ui.violation(f'the status label is not named "Status" but {ui.name_of(_status)!r}: '
                     'GTK 4.8 replaces a GtkLabel\'s accessible label with its text on every '
                     'gtk_label_set_text; set the name again after setting the text')
    return _status


def bottom_label():
    """The widest label along the bottom of the main window: where a status line is."""
    _, _, width, _ = ui.extents_of(app.window)
    labels = ui.find_all(app.window, lambda n: ui.role_of(n) == 'label'
                         and ui.extents_of(n)[2] >= width / 2)
    return max(labels, key=lambda n: ui.extents_of(n)[1], default=None)


def status():
    return ui.text_of(status_node())


def iteration():
    m = re.search(r'iteration (\d+)', status())
    return int(m.group(1)) if m else None


def set_pace(value):
    """The run shown at @value iterations a second: "As fast as possible"
    off (the default of the mini-batch learners and the filters), then the
    slider "Speed"."""
    fast = app.find('check box', 'As fast as possible', what='the check box "As fast as possible"')
    if ui.is_checked(fast):
        ui.click(fast)
        ui.wait_until(lambda: not ui.is_checked(fast), 5, '"As fast as possible" to turn off')
    ui.set_value(app.find('slider', 'Speed', what='the slider "Speed"'), value)


def wait_status(pattern, timeout, what):
    return ui.wait_until(lambda: re.search(pattern, status()), timeout,
                         lambda: f'{what} (status: {status()!r})')


def dialog(other_than=()):
    """The newest window of the application other than the main one."""
    def pick():
        found = [w for w in app.windows() if w != app.window and w not in other_than]
        return found[-1] if found else None
    return ui.wait_until(pick, 15, 'a dialog to open')


def open_in_file_chooser(path):
    """Dataset ▸ Open…, then the path typed into the chooser's location entry."""
    app.open_file(path)


# ------------------------------------------------------------------------ steps

FIGURE_LEFT = []


def check_layout(algorithm):
    """The figure stays where it was with the first algorithm: the panel
    beside it does not grow with longer parameter names."""
    figure = app.find(None, 'Figure', what='the figure')
    left = ui.extents_of(figure)[0]
    if not FIGURE_LEFT:
        FIGURE_LEFT.append(left)
    elif abs(left - FIGURE_LEFT[0]) > 2:
        raise Failure(f'the figure moved from x = {FIGURE_LEFT[0]} to x = {left} with {algorithm}')


def step_start():
    app.start()
    run = app.button('Run', timeout=30, what='a push button named "Run"')
    log(f'  found {ui.describe(run)}')
    text = ui.wait_until(lambda: status().strip(), 30, 'the status label to show something')
    log(f'  status: {text!r}')
    if re.search(r'no data', text, re.I):
        raise Failure(f'the window opened without a dataset: status {text!r}')
    check_layout('k-means')


def step_open_iris():
    if not os.path.exists(IRIS):
        raise Failure(f'{IRIS} is missing from the source tree')
    open_in_file_chooser(IRIS)
    wait_status(r'(?i)iris', 30, 'the status to name the Iris dataset')
    log(f'  status: {status()!r}')


def step_set_k():
    spin = app.find('spin button', 'Clusters', what='the spin button "Clusters"')
    log(f'  {ui.describe(spin)} = {spin.value:g}, set to {K}')
    ui.set_value(spin, K)


def step_run():
    app.press('Run')
    wait_status(r'(?i)converged', 60, 'k-means to converge')
    log(f'  status: {status()!r}')


def step_figure_colours():
    figure = app.find(None, 'Figure', what='the figure (accessible name "Figure")')
    time.sleep(0.5)  # the frame clock draws the final snapshot
    path = os.path.join(SCRATCH, 'figure.png')
    app.screenshot(path, figure)
    hist = ui.colour_histogram(path)
    counts = [ui.count_near(hist, ui.PALETTE[i]) for i in range(K + 1)]
    log(f'  figure {ui.screen_rect(figure)}: pixels near palette colours 0..{K}: {counts}')
    missing = [i for i in range(K) if counts[i] <= 30]
    if missing:
        raise Failure(f'cluster colour(s) {missing} have 30 pixels or fewer in the figure '
                      f'(counts {counts[:K]}); expected {K} clusters drawn')
    if counts[K] > 5:
        raise Failure(f'palette colour {K} (cluster {K + 1}) appears in {counts[K]} pixels, '
                      f'but K = {K}')


def leftmost_cluster_box(path):
    """(top, bottom, figure height) of the pixels of the cluster colour drawn
    furthest left, the legend (right quarter) left out."""
    w, h, data = raw_rgb(path)
    boxes = {}
    for y in range(h):
        for x in range(w * 3 // 4):
            px = data[3 * (y * w + x):3 * (y * w + x) + 3]
            for i in range(K):
                if max(abs(px[c] - ui.PALETTE[i][c]) for c in range(3)) <= 10:
                    left, top, bottom, n = boxes.get(i, (x, y, y, 0))
                    boxes[i] = (min(left, x), min(top, y), max(bottom, y), n + 1)
    drawn = [b for b in boxes.values() if b[3] > 30]
    if not drawn:
        raise Failure(f'no cluster colour in the figure ({path})')
    left, top, bottom, _ = min(drawn)
    return top, bottom, h


def step_axes():
    """Iris's petal columns as the scatter's axes: setosa, tall on the
    principal components, is a small cluster at the bottom left on petal
    length and width; a linear model's projection offers no axes."""
    figure = app.find(None, 'Figure', what='the figure (accessible name "Figure")')
    path = os.path.join(SCRATCH, 'axes-pc.png')
    app.screenshot(path, figure)
    top, bottom, h = leftmost_cluster_box(path)
    log(f'  principal components: the leftmost cluster spans y {top}–{bottom} of {h}')
    # A third of the height: the scores keep equal units, PC 1's span 2.8
    # times PC 2's (stretched to fill, it was over 40 %).
    if bottom - top < 0.3 * h:
        raise Failure(f'on the principal components the leftmost cluster spans only {bottom - top} px of {h}')
    app.select_dropdown('Horizontal axis', 'petal_length')
    app.select_dropdown('Vertical axis', 'petal_width')
    time.sleep(0.5)
    path = os.path.join(SCRATCH, 'axes-petals.png')
    app.screenshot(path, figure)
    top, bottom, h = leftmost_cluster_box(path)
    log(f'  petal length × width: the leftmost cluster spans y {top}–{bottom} of {h}')
    if bottom - top > 0.25 * h or top < 0.5 * h:
        raise Failure(f'on petal length and width the leftmost cluster (setosa) spans y {top}–{bottom} '
                      f'of {h}; expected a small cluster in the lower half')
    app.select_dropdown('Horizontal axis', 'Principal component 1')
    app.select_dropdown('Vertical axis', 'Principal component 2')
    app.select_dropdown('Algorithm', 'Principal component analysis')
    ui.wait_until(lambda: not any(ui.name_of(n) == 'Horizontal axis' and ui.is_showing(n)
                                  for _, n in ui.walk(app.window)) or None,
                  10, 'the axes to go with a linear model, which draws its own projection')
    app.select_dropdown('Algorithm', 'k-means')
    app.find(None, 'Horizontal axis', what='the axes to come back with k-means')
    app.press('Run')
    wait_status(r'converged', 30, 'k-means to converge again')


def step_timeline():
    timeline = app.find('slider', 'Timeline', what='the slider "Timeline"')
    log(f'  {ui.describe(timeline)} = {timeline.value:g} of [{timeline.minValue:g}, {timeline.maxValue:g}], set to 1')
    ui.set_value(timeline, 1)
    wait_status(r'iteration 1\b', 10, 'the status to show iteration 1')
    log(f'  status: {status()!r}')


def step_go_on():
    """Scrubbed back to iteration 1, Step shows the kept iteration 2 and Run
    goes on from there to the same end; a run stopped at its budget goes on
    with Run."""
    timeline = app.find('slider', 'Timeline', what='the slider "Timeline"')
    last = int(timeline.maxValue)
    app.press('Step')
    wait_status(rf'iteration 2 of {last}\b', 15, 'Step to show the kept iteration 2')
    app.press('Run')
    wait_status(r'converged', 30, 'Run to converge again from iteration 2')
    log(f'  status: {status()!r}')
    if iteration() != last:
        raise Failure(f'going on from iteration 1 converged at {iteration()}, the first run at {last}')

    spin = app.find('spin button', 'Maximum iterations', what='the spin button "Maximum iterations"')
    ui.set_value(spin, 2)
    wait_status(r'iteration 0 of', 15, 'the run to start again with a budget of 2')
    app.press('Run')
    wait_status(r'iteration limit reached', 30, 'the run to stop at its budget of 2')
    app.press('Run')
    wait_status(r'converged', 30, 'Run to go on past the budget')
    # The run went on with twice the budget; the panel keeps the person's
    # value and says so.
    notes = [ui.text_of(n) for n in ui.find_all(app.window, lambda n: ui.role_of(n) == 'label'
                                                 and 'up to 4 iterations' in (ui.text_of(n) or ''))]
    log(f'  status: {status()!r}; budget {spin.value:g}; note {notes}')
    if iteration() != last or spin.value != 2 or not notes:
        raise Failure(f'going on past the budget ended at iteration {iteration()} with the budget reading '
                      f'{spin.value:g} and no note of 4 iterations ({notes})')
    ui.set_value(spin, 300)
    wait_status(r'iteration 0 of', 15, 'the run to start again with the default budget')
    app.press('Run')
    wait_status(r'converged', 30, 'the run to converge once more')


def step_export():
    if os.path.exists(EXPORT_PNG):
        os.unlink(EXPORT_PNG)
    app.choose_menu_item('Main Menu', 'Export…')
    entry = app.find(('text', 'entry'), 'File Name', timeout=15,
                     what='the entry "File Name" of the export dialog')
    # Named after the data without its extension: not iris.csv-kmeans-4.png.
    offered = ui.wait_until(lambda: ui.text_of(entry) or None, 5, 'a name offered in "File Name"')
    log(f'  offered: {offered!r}')
    if not re.fullmatch(r'iris-kmeans-\d+\.png', offered):
        raise Failure(f'the export dialog offers {offered!r}, not iris-kmeans-N.png')
    log(f'  type {EXPORT_PNG!r} into {ui.describe(entry)}')
    ui.set_text(entry, EXPORT_PNG)
    app.press('Export', pred=lambda n: ui.has_action(n, 'click'))

    def written():
        try:
            return ui.read_png(EXPORT_PNG) if os.path.getsize(EXPORT_PNG) > 0 else None
        except (OSError, Failure):
            return None   # not there yet, or still being written
    width, height, texts = ui.wait_until(written, 30, f'{EXPORT_PNG} to be written')
    log(f'  {EXPORT_PNG}: {width}×{height}, {os.path.getsize(EXPORT_PNG)} bytes, '
        f'metadata {sorted(texts)}')
    if width <= 0 or height <= 0:
        raise Failure(f'the exported PNG is {width}×{height}')
    if texts.get('latent:algorithm') != 'kmeans':
        raise Failure(f'latent:algorithm is {texts.get("latent:algorithm")!r}, expected "kmeans"')


def save_in_file_chooser(item, path):
    """Main Menu ▸ item, then the file's path typed into the chooser's name."""
    app.choose_menu_item('Main Menu', item)
    chooser = dialog()
    time.sleep(0.5)

    def name_entry():
        entries = ui.find_all(chooser, lambda n: ui.role_of(n) in ('text', 'entry')
                              and 'Search' not in ui.name_of(n))
        return entries[0] if entries else None
    entry = ui.wait_until(name_entry, 10, 'the name entry of the save dialog')
    ui.set_text(entry, path)
    ui.click(ui.find(chooser, ('push button',), 'Save', pred=lambda n: ui.has_action(n, 'click')))
    ui.wait_until(lambda: chooser not in app.windows(), 10, 'the file chooser to close')


def step_save_result():
    """Main Menu ▸ Save Result… writes what latent-cli --json and --csv do."""
    import json
    for name in ('result.json', 'result.csv'):
        path = os.path.join(SCRATCH, name)
        save_in_file_chooser('Save Result…', path)
        ui.wait_until(lambda: os.path.exists(path) and os.path.getsize(path) > 0 or None, 10,
                      f'{path} to be written')
    with open(os.path.join(SCRATCH, 'result.json')) as f:
        result = json.load(f)
    with open(os.path.join(SCRATCH, 'result.csv')) as f:
        lines = f.read().splitlines()
    log(f'  result.json: {result.get("algorithm")}, {len(result.get("labels", []))} labels; '
        f'result.csv: {len(lines)} lines, header {lines[0]!r}')
    if result.get('algorithm') != 'kmeans' or len(result.get('labels', [])) != 150:
        raise Failure(f'the saved JSON is not the k-means result on Iris: {sorted(result)}')
    if len(lines) != 151:
        raise Failure(f'the saved CSV has {len(lines)} lines, not a header and 150 rows')


def step_bad_csv():
    with open(BAD_CSV, 'w') as f:
        f.write('a,b,c\n1,2,3\n4,5\n6,7,8\n')
    before = status()
    open_in_file_chooser(BAD_CSV)
    name = os.path.basename(BAD_CSV)

    def message():
        for _, n in ui.walk(app.window):
            text = ui.text_of(n)
            # The loaders name lines as FILE:LINE:, as compilers do.
            if name in text and re.search(r'line 3\b|:3:', text) and ui.is_showing(n):
                return n
        return None
    label = ui.wait_until(message, 15, f'a message naming {name} and its line 3')
    holder, node = None, label
    while node is not None and ui.role_of(node) != 'frame':
        if ui.name_of(node) == 'Error' or ui.role_of(node) == 'alert':
            holder = node
            break
        node = ui._safe(lambda: node.parent)
    if holder is None or ui.name_of(holder) != 'Error':
        chain, node = [], label
        while node is not None and ui.role_of(node) != 'frame':
            chain.append(ui.describe(node))
            node = ui._safe(lambda: node.parent)
        ui.violation('the error message is not inside a node named "Error" (it sits in '
                     + ' < '.join(chain[:4]) + '); name the GtkInfoBar "Error"; a GtkLabel '
                     'loses its name to its text')
    log(f'  error: {ui.text_of(label)!r}')
    if 'iris' not in status().lower():
        raise Failure(f'the previous dataset is gone: status {status()!r} (before: {before!r})')
    log(f'  status still: {status()!r}')


def metrics_text():
    texts = [ui.text_of(m) for m in ui.find_all(app.window, lambda m: ui.name_of(m) == 'Metrics')]
    return '\n'.join(t for t in texts if t != 'Metrics')


def step_one_row():
    """A CSV of one row cannot make 3 clusters: the window says so, its status
    says "failed" (not "initialising"), and it shows no metrics of the Iris
    run before it; Iris again puts all right."""
    before = metrics_text()
    if 'Accuracy' not in before:
        raise Failure(f'the Iris run shows no accuracy to begin with: {before!r}')
    one_row = os.path.join(SCRATCH, 'one-row.csv')
    with open(one_row, 'w') as f:
        f.write('a,b\n1,2\n')
    open_in_file_chooser(one_row)
    wait_status(r'one-row\.csv', 20, 'the one-row CSV to load')
    ui.wait_until(lambda: error_text() or None, 10, 'an error saying K does not fit one row')
    log(f'  error: {error_text()!r}; metrics: {metrics_text()!r}; status: {status()!r}')
    if not status().endswith('· failed') or 'initialising' in status():
        raise Failure(f'the status of a run that could not start reads {status()!r}, not "… · failed"')
    if 'Accuracy' in metrics_text():
        raise Failure(f'the metrics still show the Iris run: {metrics_text()!r}')
    open_in_file_chooser(IRIS)
    wait_status(r'iris', 20, 'Iris to load again')
    ui.wait_until(lambda: not error_text() or None, 10, 'the error to go once the data fit')


def error_text():
    """The error bar's message, or '' when it is hidden: folded away, the bar
    keeps its label visible inside a parent of no height."""
    def unfolded(node):
        while node is not None and ui.role_of(node) != 'frame':
            extents = ui._safe(lambda: ui.extents_of(node))
            if extents is not None and extents[3] <= 0:
                return False
            node = ui._safe(lambda: node.parent)
        return True
    for _, n in ui.walk(app.window):
        if ui.name_of(n) == 'Error' and ui.is_showing(n) and unfolded(n):
            return ui.text_of(n)
    return ''


def step_devices():
    """The Device menu offers only the kinds of device this machine has."""
    has_gpu = subprocess.run(['sh', '-c', 'clinfo -l 2>/dev/null | grep -qi gpu'], check=False).returncode == 0
    _, button = app._pressable('Device', 10)
    ui.click(button)
    items = ui.wait_until(lambda: [ui.name_of(n) for n in ui.find_all(
        app.node, lambda n: ui.role_of(n) in ('radio menu item', 'check menu item', 'menu item')
        and 'CPU' in ui.name_of(n))] or None, 10, 'the Device menu')
    items = [ui.name_of(n) for n in ui.find_all(
        app.node, lambda n: ui.role_of(n) in ('radio menu item', 'check menu item', 'menu item'))]
    ui.press_key('Escape')
    log(f'  offered: {items}; a GPU here: {has_gpu}')
    if ('OpenCL on a GPU' in items) != has_gpu:
        raise Failure(f'the Device menu offers {items} on a machine {"with" if has_gpu else "without"} a GPU')


def step_gmm():
    """Gaussian mixture on synthetic blobs: ellipses instead of regions, and a
    log-likelihood that rises at every iteration."""
    app.select_dropdown('Algorithm', 'Gaussian mixture (EM)')
    check_layout('Gaussian mixture (EM)')
    app.choose_menu_item('Dataset', 'Gaussian Blobs')
    app.press('Generate', pred=lambda n: ui.has_action(n, 'click'))
    wait_status(r'blobs .*Gaussian mixture', 20, 'the blobs to load with the mixture model')
    app.press('Run')
    wait_status(r'(?i)converged|iteration limit', 60, 'EM to converge')
    log(f'  status: {status()!r}')

    curve = app.find(None, 'Objective', what='the curve (accessible name "Objective")')
    description = ui._safe(lambda: curve.description) or ''
    log(f'  curve: {description!r}')
    if 'rises at every iteration' not in description:
        raise Failure(f'the log-likelihood does not rise at every iteration: {description!r}')

    figure = app.find(None, 'Figure', what='the figure')
    time.sleep(0.5)
    path = os.path.join(SCRATCH, 'figure-gmm.png')
    app.screenshot(path, figure)
    hist = ui.colour_histogram(path)
    counts = [ui.count_near(hist, ui.PALETTE[i]) for i in range(4)]
    log(f'  pixels near palette colours 0..3: {counts}')
    # Three components in their colours (points and their 1σ/2σ ellipses),
    # and no fourth.
    if min(counts[:3]) <= 30 or counts[3] > 5:
        raise Failure(f'expected 3 component colours and not a 4th: {counts}')
    # The heading says "Metrics" too; the label under it holds the numbers.
    texts = [ui.text_of(n) for n in ui.find_all(app.window, lambda n: ui.name_of(n) == 'Metrics')]
    if not any('BIC' in t for t in texts):
        raise Failure(f'the metrics do not show BIC: {texts!r}')

    # Converged is not the end: Step takes one more iteration, and Run goes
    # on (to the iteration budget) as if the tolerance were 0, while the
    # panel keeps the tolerance as set and says the run goes past it.
    converged_at = iteration()
    if 'converged' not in status() or converged_at is None:
        raise Failure(f'EM on three blobs did not converge: {status()!r}')
    app.press('Step')
    wait_status(rf'iteration {converged_at + 1}\b', 15, 'Step to take one more iteration after convergence')
    tol = app.find('spin button', 'Tolerance', what='the spin button "Tolerance"')
    if tol.value == 0:
        raise Failure('going on after convergence set the tolerance to 0 in the panel')
    ui.wait_until(lambda: ui.find_all(app.window, lambda n: ui.role_of(n) == 'label'
                                      and 'past convergence' in (ui.text_of(n) or '')), 5,
                  'the panel to say the run goes on past convergence')
    app.press('Run')
    ui.wait_until(lambda: (iteration() or 0) >= converged_at + 3 and 'running' in status(), 30,
                  lambda: f'Run to go on past convergence (status: {status()!r})')
    log(f'  converged at {converged_at}, went on to: {status()!r}')
    app.press('Pause')


def count_reds_blues(path):
    """Pixels of the diverging map's reds and blues (Paul Tol's BuRd, light)."""
    hist = ui.colour_histogram(path)
    reds = sum(ui.count_near(hist, c, 12) for c in ((0xb2, 0x18, 0x2b), (0xd6, 0x60, 0x4d), (0xf4, 0xa5, 0x82)))
    blues = sum(ui.count_near(hist, c, 12) for c in ((0x21, 0x66, 0xac), (0x43, 0x93, 0xc3), (0x92, 0xc5, 0xde)))
    return reds, blues


def step_pca():
    """PCA on Fashion-MNIST (Iris when it is not installed): the scree plot,
    then the components as images (a loadings heat map for Iris)."""
    fashion = os.path.isdir('/usr/share/datasets/fashion-mnist')
    app.select_dropdown('Algorithm', 'Principal component analysis')
    check_layout('Principal component analysis')
    if fashion:
        app.choose_menu_item('Dataset', 'Fashion-MNIST, first 10,000')
        wait_status(r'(?i)fashion.*principal', 60, 'Fashion-MNIST to load with PCA')
    else:
        open_in_file_chooser(IRIS)
        wait_status(r'(?i)iris.*principal', 30, 'Iris to load with PCA')
    # Before the first step the objective is not defined: no "nan" for it.
    wait_status(r'iteration 0 ', 60, 'the first frame of PCA')
    if re.search(r'(?i)\bnan\b', status()):
        raise Failure(f'the status shows an undefined objective: {status()!r}')
    components = 16 if fashion else 3
    # Exact PCA has no tolerance: greyed out until the method is iterative.
    tol = app.find('spin button', 'Tolerance', what='the spin button "Tolerance"')
    if ui.is_sensitive(tol):
        raise Failure('the tolerance can be set for exact PCA, where it does nothing')
    app.select_dropdown('Method', 'Iterative')
    ui.wait_until(lambda: ui.is_sensitive(tol) or None, 5, 'the tolerance to apply to iterative PCA')
    app.select_dropdown('Method', 'Exact')
    ui.wait_until(lambda: not ui.is_sensitive(tol) or None, 5, 'the tolerance to go grey again')
    spin = app.find('spin button', 'Components', what='the spin button "Components"')
    ui.set_value(spin, components)
    app.press('Run')
    wait_status(r'(?i)converged', 60, 'PCA to finish')
    log(f'  status: {status()!r}')
    figure = app.find(None, 'Figure', what='the figure')

    metrics = metrics_text()
    log(f'  metrics: {metrics!r}')
    if 'no labels' in metrics or 'Variance explained' not in metrics:
        raise Failure(f'the metrics do not say what PCA explains: {metrics!r}')

    app.select_dropdown('View', 'Scree plot')
    time.sleep(0.7)
    path = os.path.join(SCRATCH, 'figure-scree.png')
    app.screenshot(path, figure)
    hist = ui.colour_histogram(path)
    bars, line = ui.count_near(hist, ui.PALETTE[0]), ui.count_near(hist, ui.PALETTE[1])
    log(f'  scree plot: {bars} px of bars (palette 0), {line} px of the cumulative line (palette 1)')
    # One bar per component and the cumulative line over them.
    if bars < 40 * components or line < 100:
        raise Failure(f'the scree plot is not drawn: {bars} px of bars, {line} px of line')

    app.select_dropdown('View', 'Components' if fashion else 'Loadings')
    time.sleep(0.7)
    path = os.path.join(SCRATCH, 'figure-components.png')
    app.screenshot(path, figure)
    reds, blues = count_reds_blues(path)
    log(f'  components: {reds} px of positive (red) weights, {blues} px of negative (blue)')
    # Principal axes of centred data have weights of both signs.
    if reds < 200 or blues < 200:
        raise Failure(f'the components are not drawn in both signs: {reds} red, {blues} blue px')

    # Factor analysis counts factors, as its title does ("2 components" before).
    app.select_dropdown('Algorithm', 'Factor analysis')
    ui.set_value(app.find('spin button', 'Factors', what='the spin button "Factors"'), 2)
    wait_status(r'(?i)factor analysis.*iteration 0 of', 60, 'factor analysis to start')
    app.press('Run')
    wait_status(r'(?i)factor analysis.*(converged|iteration limit)', 120, 'factor analysis to finish')
    metrics = metrics_text()
    log(f'  factor analysis: {metrics!r}')
    if '(2 factors)' not in metrics:
        raise Failure(f'the metrics do not count factors: {metrics!r}')


def step_wta():
    """The winner-take-all autoencoder on Fashion-MNIST (Gaussian blobs when it
    is not installed): its weight tiles change while it trains, and the
    metrics count dead units."""
    fashion = os.path.isdir('/usr/share/datasets/fashion-mnist')
    app.select_dropdown('Algorithm', 'Winner-take-all autoencoder')
    check_layout('Winner-take-all autoencoder')
    if fashion:
        # The same data as PCA's, loaded again: the status says until it is.
        app.choose_menu_item('Dataset', 'Fashion-MNIST, first 10,000')
        wait_status(r'(?i)^(?!.*loading).*fashion.*winner-take-all', 60, 'Fashion-MNIST to load with WTA')
    else:
        app.choose_menu_item('Dataset', 'Gaussian Blobs')
        app.press('Generate', pred=lambda n: ui.has_action(n, 'click'))
        wait_status(r'(?i)blobs.*winner-take-all', 20, 'the blobs to load with WTA')
    ui.set_value(app.find('spin button', 'Hidden units', what='the spin button "Hidden units"'), 64)
    ui.set_value(app.find('spin button', 'Epochs', what='the spin button "Epochs"'), 20)
    # The autoencoder is paced in epochs: one a second, so its twenty take
    # 20 s at least, time to see the tiles change and pause it (30 a second
    # ended the run before Pause).
    set_pace(1)
    # The run re-initialises after each change above: Run once it is ready.
    wait_status(r'iteration 0 of .*paused', 30, 'the autoencoder to initialise')
    time.sleep(1)
    app.press('Run')
    ui.wait_until(lambda: (iteration() or 0) >= 5, 30,
                  lambda: f'the first mini-batches (status {status()!r})')
    figure = app.find(None, 'Figure', what='the figure')
    first = app.screenshot(os.path.join(SCRATCH, 'figure-wta-early.png'), figure)
    reds, blues = count_reds_blues(first)
    log(f'  at step {iteration()}: {reds} px of positive weights, {blues} px of negative')
    if reds < 200 or blues < 200:
        raise Failure(f'the weight tiles are not drawn in both signs: {reds} red, {blues} blue px')

    start = iteration()

    def changed():
        later = app.screenshot(os.path.join(SCRATCH, 'figure-wta-later.png'), figure)
        n = changed_pixels(first, later)
        return n if n > 2000 and iteration() >= start + 20 else None
    n = ui.wait_until(changed, 30, 'the weight tiles to change while the autoencoder trains')
    log(f'  {n} pixels of the tiles changed from step {start} to step {iteration()}')

    def dead_units():
        texts = [ui.text_of(m) for m in ui.find_all(app.window, lambda m: ui.name_of(m) == 'Metrics')]
        return next((t for t in texts if 'Dead units' in t), None)
    text = ui.wait_until(dead_units, 60, 'the metrics to count dead units after the first epoch')
    log(f'  metrics: {text!r}')
    app.press('Pause')
    # The status's loss is the last mini-batch's, the metrics' the epoch's:
    # named so, as they differ (9.32 against 10.19 after five epochs).
    if not re.search(r'mini-batch loss [\d.]', status()) or not re.search(r'Training loss [\d.]+ \(epoch', text):
        raise Failure(f'the status should name the mini-batch loss and the metrics the epoch\'s: '
                      f'{status()!r}, {text!r}')

    # A learning rate far too large: the run stops, the message names the
    # parameter, and the weights of the last good step stay on screen.
    ui.set_value(app.find('spin button', 'Learning rate', what='the spin button "Learning rate"'), 10)
    app.press('Run')

    def diverged():
        for _, m in ui.walk(app.window):
            text = ui.text_of(m)
            if 'learning-rate' in text and 'diverged' in text and ui.is_showing(m):
                return text
        return None
    text = ui.wait_until(diverged, 60, 'a message that the training diverged, naming learning-rate')
    log(f'  error: {text!r}')
    time.sleep(0.5)
    path = app.screenshot(os.path.join(SCRATCH, 'figure-wta-diverged.png'), figure)
    reds, blues = count_reds_blues(path)
    log(f'  after the divergence: {reds} px of positive weights, {blues} px of negative')
    if reds < 200 or blues < 200:
        raise Failure(f'the weights are gone after the divergence: {reds} red, {blues} blue px')
    # Put right, the run starts again and the message goes.
    ui.set_value(app.find('spin button', 'Learning rate', what='the spin button "Learning rate"'), 0.01)
    ui.wait_until(lambda: not error_text() or None, 10, 'the error to go with a learning rate that works')


def step_long_start():
    """k-means with ten restarts of 100 clusters on Fashion-MNIST's first
    10,000 rows takes seconds to start: the figure says so in the middle
    ("Initialising… start 3 of 10", also its accessible description), not a
    blank. Back to one start of three clusters after."""
    if not os.path.isdir('/usr/share/datasets/fashion-mnist'):
        log('  skipped: Fashion-MNIST is not installed, and nothing else here takes seconds to start')
        return
    app.select_dropdown('Algorithm', 'k-means')
    wait_status(r'(?i)fashion.*k-means.*iteration 0 of', 60, 'k-means to start on Fashion-MNIST')
    figure = app.find(None, 'Figure', what='the figure')
    clusters = app.find('spin button', 'Clusters', what='the spin button "Clusters"')
    restarts = app.find('spin button', 'Restarts', what='the spin button "Restarts"')
    ui.set_value(clusters, 100)
    ui.set_value(restarts, 10)

    def waiting():
        text = ui._safe(lambda: figure.description, '') or ''
        return text if 'Initialising' in text and re.search(r'start \d+ of 10', text) else None
    text = ui.wait_until(waiting, 30, 'the figure to say it is initialising, and which start')
    path = app.screenshot(os.path.join(SCRATCH, 'figure-initialising.png'), figure)
    # The words are grey on the plain background: a blank figure has no grey.
    grey = sum(n for (r, g, b), n in ui.colour_histogram(path).items()
               if max(r, g, b) - min(r, g, b) <= 6 and 40 <= r <= 200)
    log(f'  figure: {text!r}; {grey} px of grey text')
    if grey < 150:
        raise Failure(f'the figure shows no words while it initialises ({grey} grey px)')
    ui.set_value(restarts, 1)
    ui.set_value(clusters, 3)
    wait_status(r'k-means.*iteration 0 of', 60, 'k-means to start again with one start of three clusters')


def step_keyboard():
    app.focus_window()
    ui.key_combo('<Control>r')
    ui.wait_until(lambda: iteration() in (0, None) and 'converged' not in status().lower(), 10,
                  lambda: f'ctrl+r to reset the run (status {status()!r})')
    log(f'  after ctrl+r: {status()!r}')
    start = iteration() or 0
    # At the default speed Iris converges before a second Space could pause it;
    # the slowest speed leaves time to see Space pause the run.
    try:
        speed = app.find('slider', 'Speed', timeout=3)
    except Failure:
        speed = None
    if speed is not None:
        log(f'  {ui.describe(speed)} = {speed.value:g}, set to its minimum {speed.minValue:g}')
        ui.set_value(speed, speed.minValue)
        app.focus_window()
    for expected in (start + 1, start + 2):
        ui.press_key('Right')
        ui.wait_until(lambda: iteration() == expected, 10,
                      lambda: f'Right to step to iteration {expected} (status {status()!r})')
        time.sleep(0.5)
        if iteration() != expected:
            raise Failure(f'Right moved past iteration {expected}: status {status()!r}')
        log(f'  after Right: {status()!r}')
    # Left goes back through the timeline, and Right forward again through
    # the iterations kept (before, Left moved the focus into the metrics,
    # and Right from a scrubbed-back iteration ran it again and dropped the
    # ones after it: "iteration 1 of 1").
    last = start + 2
    for key, expected in (('Left', start + 1), ('Left', start), ('Left', start),
                          ('Right', start + 1), ('Right', start + 2)):
        ui.press_key(key)
        wait_status(rf'iteration {expected} of {last}\b', 10, f'{key} to show iteration {expected} of {last}')
        log(f'  after {key}: {status()!r}')
    # Space runs from the figure (on a focused control it keeps its own meaning).
    ui.raw_click(app.find(None, 'Figure'))
    time.sleep(0.3)
    ui.press_key('space')
    ui.wait_until(lambda: (iteration() or 0) > start + 2 or 'converged' in status().lower(), 30,
                  lambda: f'Space to run (status {status()!r})')
    log(f'  after Space: {status()!r}')
    if 'converged' in status().lower():
        log('  converged before it could be paused; the pause is checked with the first Space only')
        return
    ui.press_key('space')
    time.sleep(0.5)
    paused = iteration()
    time.sleep(2.0)
    if iteration() != paused:
        raise Failure(f'still running after the second Space: iteration {paused} → {iteration()}')
    ui.press_key('Right')
    ui.wait_until(lambda: iteration() == paused + 1, 10,
                  lambda: f'Right to step from {paused} to {paused + 1} (status {status()!r})')
    log(f'  paused at {paused}, Right → {iteration()}')


def raw_rgb(path):
    """(width, height, bytes) of an image as 8-bit RGB."""
    width, height = ui.image_size(path)
    data = subprocess.run([ui.CONVERT, path, '-alpha', 'off', '-depth', '8', 'rgb:-'],
                          check=True, capture_output=True).stdout
    return width, height, data


def text_ink_width(path):
    """Columns with dark text in the left part of a spin button (its − and +
    buttons on the right left out)."""
    w, h, data = raw_rgb(path)
    return sum(1 for x in range(max(w - 80, 0))
               if any(max(data[3 * (y * w + x):3 * (y * w + x) + 3]) < 110 for y in range(h)))


def changed_pixels(a, b):
    """Pixels of two same-size screenshots that differ by more than a little."""
    wa, ha, da = raw_rgb(a)
    wb, hb, db = raw_rgb(b)
    if (wa, ha) != (wb, hb):
        return wa * ha
    return sum(1 for i in range(0, len(da), 3)
               if max(abs(da[i] - db[i]), abs(da[i + 1] - db[i + 1]), abs(da[i + 2] - db[i + 2])) > 8)


def passes():
    """(pass, of) from a convolution's status line, or None."""
    m = re.search(r'pass (\d+) of (\d+)', status())
    return (int(m.group(1)), int(m.group(2))) if m else None


def step_convolve():
    """Convolution of a photograph: the result at once when σ changes, the
    passes of repeat mode counted in the status, the filtered image saved."""
    photo = os.path.join(SCRATCH, 'photo.png')
    saved = os.path.join(SCRATCH, 'photo-filtered.png')
    subprocess.run([ui.CONVERT, '-seed', '7', '-size', '320x240', 'plasma:fractal', 'PNG24:' + photo],
                   check=True, capture_output=True)
    app.select_dropdown('Algorithm', 'Convolution filter')
    check_layout('Convolution filter')
    open_in_file_chooser(photo)
    wait_status(r'photo\.png .*Convolution filter.* pass 1 of 1', 30,
                'the photo to load and be filtered without pressing Run')
    log(f'  status: {status()!r}')
    app.select_dropdown('Filter', 'Gaussian blur')
    # A Gaussian blur has no amount or angle; its size is chosen from σ.
    for name in ('Amount', 'Angle'):
        if ui.is_sensitive(app.find('spin button', name, what=f'the spin button "{name}"')):
            raise Failure(f'{name} can be set for a Gaussian blur, where it does nothing')
    # Its text is not in the accessibility tree: measure the ink. "Automatic"
    # spans many times the width of the "1" of Passes beside it.
    widths = {name: text_ink_width(app.screenshot(os.path.join(SCRATCH, f'spin-{name}.png'),
                                                  app.find('spin button', name, what=f'the spin button "{name}"')))
              for name in ('Size', 'Passes')}
    log(f'  text widths in px: {widths}')
    if widths['Size'] < 4 * max(widths['Passes'], 1):
        raise Failure(f'the kernel size does not read "Automatic" (text {widths["Size"]} px wide)')
    figure = app.find(None, 'Figure', what='the figure')
    time.sleep(0.7)
    before = app.screenshot(os.path.join(SCRATCH, 'figure-sigma-before.png'), figure)

    sigma = app.find('spin button', 'σ', what='the spin button "σ"')
    log(f'  {ui.describe(sigma)} = {sigma.value:g}, set to 6')
    ui.set_value(sigma, 6)

    def changed():
        after = app.screenshot(os.path.join(SCRATCH, 'figure-sigma-after.png'), figure)
        n = changed_pixels(before, after)
        return n if n > 2000 else None
    n = ui.wait_until(changed, 15, 'the figure to change with σ (without pressing Run)')
    log(f'  σ = 6: {n} pixels of the figure changed; status {status()!r}')

    # Slow enough to see every pass go by.
    set_pace(4)
    spin = app.find('spin button', 'Passes', what='the spin button "Passes"')
    ui.set_value(spin, 5)
    wait_status(r'pass 5 of 5 .*done', 30, 'the five passes to run after Passes changed')
    app.press('Run')
    seen = set()

    def fifth():
        p = passes()
        if p:
            seen.add(p[0])
        return p == (5, 5) and 'done' in status()
    ui.wait_until(fifth, 30, lambda: f'Run to reach pass 5 of 5 (status {status()!r})')
    log(f'  passes seen after Run: {sorted(seen)}; status {status()!r}')
    if len(seen - {5}) < 2:
        raise Failure(f'the pass counter did not advance through the passes: saw {sorted(seen)}')

    app.choose_menu_item('Main Menu', 'Save Filtered Image…')
    chooser = dialog()
    entry = ui.wait_until(lambda: next(iter(ui.find_all(chooser, lambda n: ui.role_of(n) in ('text', 'entry')
                                                        and 'Search' not in ui.name_of(n))), None),
                          10, 'the name entry of the save dialog')
    log(f'  type {saved!r} into {ui.describe(entry)}')
    ui.set_text(entry, saved)
    button = ui.find(chooser, ('push button',), 'Save', pred=lambda n: ui.has_action(n, 'click'))
    ui.click(button)
    ui.wait_until(lambda: chooser not in app.windows(), 10, 'the save dialog to close')

    def written():
        try:
            return ui.read_png(saved) if os.path.getsize(saved) > 0 else None
        except (OSError, Failure):
            return None
    width, height, texts = ui.wait_until(written, 15, f'{saved} to be written')
    log(f'  {saved}: {width}×{height}, {os.path.getsize(saved)} bytes')
    if (width, height) != (320, 240):
        raise Failure(f'the filtered image is {width}×{height}, the photo 320×240')
    if changed_pixels(photo, saved) < 320 * 240 // 4:
        raise Failure('the saved image is the photo itself, not filtered')


def step_jpeg():
    """A camera's JPEG (camera.JPG, upper case) is offered and opened by
    Dataset ▸ Open…; k-means on it shows the photo beside its segments."""
    photo = os.path.join(SCRATCH, 'camera.JPG')
    subprocess.run([ui.CONVERT, '-seed', '3', '-size', '160x120', 'plasma:fractal', '-quality', '90',
                    'JPEG:' + photo], check=True, capture_output=True)
    app.select_dropdown('Algorithm', 'k-means')
    open_in_file_chooser(photo)
    wait_status(r'camera\.JPG · 160 × 120 px', 30, 'the JPEG photo to load')
    log(f'  status: {status()!r}')
    figure = app.find(None, 'Figure', what='the figure')
    time.sleep(0.7)
    path = app.screenshot(os.path.join(SCRATCH, 'jpeg-segments.png'), figure)
    colours = ui.distinct_colours(path)
    log(f'  the figure has {colours} colours')
    # The photo itself is in the figure: a scatter of its pixels in five
    # cluster colours has a few hundred.
    if colours < 3000:
        raise Failure(f'the figure of k-means on a photo has {colours} colours; expected the photo in it')


def step_names():
    controls = [n for _, n in ui.walk(app.window)
                if ui.role_of(n) in ui.INTERACTIVE_ROLES and ui.is_showing(n)]
    # "Clusters Clusters": a name given twice (label property and labelled-by
    # relation) is read twice. GTK's own "_Open Open" for mnemonic buttons is not
    # the application's doing and is left alone.
    doubled = [n for n in controls if '_' not in ui.name_of(n)
               and re.fullmatch(r'(.+) \1', ui.name_of(n))]
    if doubled:
        ui.violation('names said twice (set either the label property or the labelled-by '
                     'relation, not both): ' + ', '.join(ui.describe(n) for n in doubled))
    bad = ui.unnamed_controls(app.window)
    if bad:
        lines = []
        for n in bad:
            path, parent = [], ui._safe(lambda: n.parent)
            while parent is not None and ui.role_of(parent) != 'application':
                if ui.name_of(parent):
                    path.append(ui.name_of(parent))
                parent = ui._safe(lambda: parent.parent)
            lines.append(f'  {ui.describe(n)} at {ui._safe(lambda: ui.extents_of(n))} '
                         f'in {" / ".join(reversed(path))}')
        raise Failure('controls without an accessible name (or only GTK\'s type name):\n'
                      + '\n'.join(lines))
    log(f'  all {len(controls)} visible controls have names')


def main():
    ui.run_steps('ui-window', app, [
        ('start the window on its default dataset', step_start),
        ('open data/iris.csv through Dataset ▸ Open…', step_open_iris),
        (f'set Clusters to {K}', step_set_k),
        ('press Run and wait for convergence', step_run),
        (f'the figure shows {K} cluster colours and not a {K + 1}th', step_figure_colours),
        ('scrub the Timeline back to iteration 1', step_timeline),
        ('go on from iteration 1, and past an iteration budget', step_go_on),
        ('the scatter on two of the columns, and no axes for PCA', step_axes),
        ('export a PNG through Main Menu ▸ Export…', step_export),
        ('save the result as JSON and CSV through Main Menu ▸ Save Result…', step_save_result),
        ('open a ragged CSV: an error, and Iris stays loaded', step_bad_csv),
        ('a one-row CSV: no metrics left from the Iris run', step_one_row),
        ('the Device menu offers only devices that exist', step_devices),
        ('keyboard: ctrl+r, Right, Left, Space', step_keyboard),
        ('a Gaussian mixture on blobs: ellipses, rising log-likelihood', step_gmm),
        ('PCA: the scree plot and the components as images', step_pca),
        ('the autoencoder: its weight tiles change while it trains', step_wta),
        ('a start of ten restarts says so in the figure', step_long_start),
        ('convolution: σ changes the result at once, five passes, the filtered image saved',
         step_convolve),
        ('a JPEG photo opens, and k-means shows its segments', step_jpeg),
        ('every control has an accessible name', step_names),
    ])
    # SIGTERM asks the application to quit as Quit does: it must end by itself,
    # with status 0. A crash on the way out (killed by a signal: a negative
    # status) or a hang (killed after 10 s) fails the test.
    status_code = app.stop()
    if status_code != 0:
        log(f'FAIL: the application exited with status {status_code} when asked to quit (SIGTERM)')
        for line in app.stderr().splitlines()[-40:]:
            log(f'  | {line}')
        return 1
    log('the application quit cleanly on SIGTERM')
    return 0


if __name__ == '__main__':
    sys.exit(main())
