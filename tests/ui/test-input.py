#!/usr/bin/python3
# test-input.py — the figure answers a real mouse wheel and the keyboard, and
# every drop-down's button is announced by its name
#
# SPDX-License-Identifier: GPL-3.0-or-later
#
# Run under run-ui-test.sh, which provides the display, the buses and
# $LATENT_EXECUTABLE. The events are real X input from xdotool, the way a
# person's wheel and keys arrive, not actions over AT-SPI. What the figure
# shows is checked twice: in screenshots, and in the figure's accessible
# description, which says which window of the data (or of the image's
# pixels) is on screen.

import os
import re
import shutil
import subprocess
import sys
import time

if not os.environ.get('LATENT_EXECUTABLE'):
    # dogtail refuses to import outside an accessibility session; say why first.
    print('SKIP: LATENT_EXECUTABLE is not set; run this through run-ui-test.sh')
    sys.exit(77)
if shutil.which('xdotool') is None:
    print('SKIP: xdotool is missing (Debian: xdotool)')
    sys.exit(77)

import latent_ui as ui  # noqa: E402
from latent_ui import Failure, log  # noqa: E402

SCRATCH = ui.scratch_dir()
WHEEL_STEP = 1.2      # ui/latent-figure-view.c: one notch of the wheel
KEY_STEP = 1.5        # one press of + or −

app = ui.App()
shots = {}
windows = {}


# ------------------------------------------------------------------ helpers

def xdotool(*args):
    subprocess.run(['xdotool'] + [str(a) for a in args], check=True, capture_output=True)
    time.sleep(0.15)


def status():
    node = app.find(None, 'Status', timeout=5)
    return ui.text_of(node)


def iteration():
    m = re.search(r'iteration (\d+)', status())
    return int(m.group(1)) if m else None


def figure():
    return app.find(None, 'Figure', what='the figure (accessible name "Figure")')


def description():
    node = figure()
    ui._safe(node.clear_cache)
    return ui._safe(lambda: node.description, '') or ''


def wait_description(check, what, timeout=5):
    """Waits until check(description) gives something true; returns it."""
    return ui.wait_until(lambda: check(description()), timeout,
                         lambda: f'{what} (description: {description()!r})')


NUMBER = r'(-?[0-9]+(?:\.[0-9]+)?(?:e[-+]?[0-9]+)?)'


def data_window(text):
    """(xmin, xmax, ymin, ymax) of the scatter as the description states it, or
    None when it shows all the data."""
    m = re.search(rf'x from {NUMBER} to {NUMBER} and y from {NUMBER} to {NUMBER}', text)
    return tuple(float(v) for v in m.groups()) if m else None


def pixel_window(text):
    """(x0, x1, y0, y1) of the image's pixels the filter figure shows, or None."""
    m = re.search(rf'pixels {NUMBER} to {NUMBER} across and {NUMBER} to {NUMBER} down', text)
    return tuple(float(v) for v in m.groups()) if m else None


def changed_description(before, parse, what):
    """The window stated after an event, once it differs from before."""
    return wait_description(lambda d: parse(d) if parse(d) != before else None, what)


def fixed_point(w1, w2, axis):
    """Where in the window (0 left or bottom, 1 right or top) the zoom from w1 to
    w2 was centred: the fraction of the window that stayed where it was."""
    a1, b1 = w1[2 * axis], w1[2 * axis + 1]
    a2, b2 = w2[2 * axis], w2[2 * axis + 1]
    return (a2 - a1) / ((b1 - a1) - (b2 - a2))


def raw_rgb(path):
    width, height = ui.image_size(path)
    data = subprocess.run([ui.CONVERT, path, '-alpha', 'off', '-depth', '8', 'rgb:-'],
                          check=True, capture_output=True).stdout
    return width, height, data


def changed_pixels(a, b):
    """Pixels of two same-size screenshots that differ by more than a little."""
    wa, ha, da = raw_rgb(a)
    wb, hb, db = raw_rgb(b)
    if (wa, ha) != (wb, hb):
        return wa * ha
    return sum(1 for i in range(0, len(da), 3)
               if max(abs(da[i] - db[i]), abs(da[i + 1] - db[i + 1]), abs(da[i + 2] - db[i + 2])) > 8)


def point_pixels(path, k=3):
    """Pixels drawn in the first k cluster colours (the points and centres)."""
    hist = ui.colour_histogram(path)
    return sum(ui.count_near(hist, ui.PALETTE[i], 6) for i in range(k))


def rest_pointer():
    """Moves the pointer off the figure, so that no tooltip covers it, but keeps
    it over the window: without a window manager, keys go where it is."""
    x, y, w, h = ui.screen_rect(app._neutral_spot())
    xdotool('mousemove', x + w // 2, y + h // 2)
    time.sleep(0.8)


def shot(name):
    """The figure's pixels now, with the pointer off it, less the 3 pixels
    at its edges where the focus ring comes once the keyboard is used."""
    rest_pointer()
    path = app.screenshot(os.path.join(SCRATCH, f'input-{name}.png'), figure())
    subprocess.run(['/usr/bin/convert', path, '-shave', '3x3', '+repage', path], check=True)
    shots[name] = path
    return path


def at_figure(fx, fy):
    """The screen position at fractions (fx, fy) of the figure's width and height."""
    x, y, w, h = ui.screen_rect(figure())
    return x + int(w * fx), y + int(h * fy)


def wheel(fx, fy, notches):
    """Real wheel notches over the figure: up (button 4) when notches > 0."""
    x, y = at_figure(fx, fy)
    xdotool('mousemove', x, y)
    time.sleep(0.3)
    for _ in range(abs(notches)):
        xdotool('click', 4 if notches > 0 else 5)


def key(name):
    xdotool('key', name)
    time.sleep(0.3)


def focus_figure():
    """A click on the figure gives it the keyboard; its state says so."""
    x, y = at_figure(0.5, 0.5)
    xdotool('mousemove', x, y)
    xdotool('click', 1)
    node = figure()
    ui.wait_until(lambda: ui._safe(lambda: node.getState().contains(ui.pyatspi.STATE_FOCUSED), False),
                  5, 'the figure to take the keyboard focus when clicked')
    rest_pointer()


def expect_same(a, b, what, tolerance=0.002):
    """Screenshots a and b near-identical (a few pixels of text may differ)."""
    wa, ha = ui.image_size(shots[a])
    n = changed_pixels(shots[a], shots[b])
    log(f'  {b} against {a}: {n} of {wa * ha} pixels differ')
    if n > tolerance * wa * ha:
        raise Failure(f'{what}: {n} pixels differ between {shots[a]} and {shots[b]}')


def expect_changed(a, b, what, minimum=0.02):
    wa, ha = ui.image_size(shots[a])
    n = changed_pixels(shots[a], shots[b])
    log(f'  {b} against {a}: {n} of {wa * ha} pixels differ')
    if n < minimum * wa * ha:
        raise Failure(f'{what}: only {n} pixels differ between {shots[a]} and {shots[b]}')


def close(value, wanted, tolerance, what):
    if abs(value - wanted) > tolerance:
        raise Failure(f'{what}: {value:.4g}, expected {wanted:.4g} ± {tolerance:g}')


def named_buttons(root, where):
    """Every button under root must be announced by a name of its own: not
    empty, not GTK's fallback, the type name ("GtkToggleButton"). A
    drop-down's button (a toggle button, which GTK 4.8 gives AT-SPI as a push
    button) is where the keyboard focus lands, so the name must be on it, not
    only on the combo box around it. Returns how many drop-down buttons there
    were."""
    bad, dropdowns = [], 0
    for _, n in ui.walk(root):
        if ui.role_of(n) not in ('toggle button', 'push button'):
            continue
        parent = ui._safe(lambda: n.parent)
        if ui.role_of(parent) == 'combo box':
            dropdowns += 1
        name = ui.name_of(n).strip()
        if not name or re.fullmatch(r'Gtk[A-Z]\w*', name):
            bad.append(f'{ui.describe(n)} in {ui.describe(parent)}')
        elif ui.role_of(parent) == 'combo box' and ui.name_of(parent) \
                and not ui.name_matches(name, ui.name_of(parent)):
            bad.append(f'{ui.describe(n)} in {ui.describe(parent)}, not named as its drop-down')
    log(f'  {where}: {dropdowns} drop-down buttons, {len(bad)} without their name')
    for b in bad:
        log(f'    {b}')
    if bad:
        ui.violation(f'{where}: buttons announced without their name: ' + '; '.join(bad))
    return dropdowns


# ------------------------------------------------------------------ steps

def step_start():
    app.start()
    ui.wait_until(lambda: status().strip(), 30, 'the status label to show something')
    log(f'  status: {status()!r}')


def step_window_names():
    if named_buttons(app.window, 'the window') < 3:
        raise Failure('fewer than three drop-downs in the window (Algorithm, View, Initialisation)')


def step_run():
    app.press('Run')
    ui.wait_until(lambda: re.search(r'(?i)converged', status()), 60,
                  lambda: f'the run to converge (status {status()!r})')
    log(f'  status: {status()!r}')
    focus_figure()
    shot('all')


def step_hover():
    """The pointer on a point: the point is ringed and the tooltip gives its
    values, a line a column (issue 40, item 14: it gave only the row, the
    label and the cluster)."""
    path = shots['all']
    w, h, data = raw_rgb(path)
    target = None
    # A point of a cluster colour near the middle of the figure's left half.
    for radius in range(0, min(w, h) // 3, 3):
        for dx, dy in ((radius, 0), (-radius, 0), (0, radius), (0, -radius)):
            x, y = int(w * 0.35) + dx, h // 2 + dy
            px = data[3 * (y * w + x):3 * (y * w + x) + 3]
            if any(max(abs(px[c] - ui.PALETTE[i][c]) for c in range(3)) <= 6 for i in range(3)):
                target = (x, y)
                break
        if target:
            break
    if target is None:
        raise Failure('no point found in the left half of the scatter')
    fx, fy, _, _ = ui.screen_rect(figure())
    # The screenshots are shaved by 3 pixels at each edge.
    sx, sy = fx + 3 + target[0], fy + 3 + target[1]
    before = ui.screenshot(os.path.join(SCRATCH, 'hover-before.png'))
    xdotool('mousemove', sx, sy)
    xdotool('mousemove', sx + 1, sy)
    time.sleep(2.0)
    after = ui.screenshot(os.path.join(ui.artifacts_dir(), 'ui-input-hover.png'))
    wa, ha, da = raw_rgb(before)
    _, _, db = raw_rgb(after)

    def differs(x, y):
        i = 3 * (y * wa + x)
        return max(abs(da[i + c] - db[i + c]) for c in range(3)) > 40
    # The ring's upper half, above the pointer, where no tooltip comes.
    ring = sum(1 for y in range(sy - 10, sy - 3) for x in range(sx - 10, sx + 11) if differs(x, y))
    changed = [(x, y) for y in range(sy + 4, min(ha, sy + 300)) for x in range(max(0, sx - 200), min(wa, sx + 400))
               if differs(x, y)]
    tall = (max(y for _, y in changed) - min(y for _, y in changed)) if changed else 0
    log(f'  hovered the point at ({target[0]}, {target[1]}) of the figure: {ring} pixels of a ring above it, '
        f'a tooltip {tall} pixels tall below; saved {after}')
    if ring < 12:
        raise Failure(f'the hovered point is not ringed ({ring} pixels changed above it)')
    # "Row … · label … · cluster …", then x1 and x2: three lines.
    if tall < 45:
        raise Failure(f'the tooltip is {tall} pixels tall: one line, without the row\'s values')
    rest_pointer()


def step_wheel():
    # Left of and above the centre, so that a zoom about the centre shows.
    fx, fy = 0.3, 0.35
    wheel(fx, fy, 1)
    shot('wheel-1')
    expect_changed('all', 'wheel-1', 'a notch of the wheel up did not zoom the scatter')
    w1 = changed_description(None, data_window, 'one wheel notch to zoom the scatter')
    wheel(fx, fy, 2)
    w2 = changed_description(w1, data_window, 'two more notches to zoom further')
    log(f'  after 1 notch {w1}, after 3 {w2}')
    ratio = (w2[1] - w2[0]) / (w1[1] - w1[0])
    close(ratio, WHEEL_STEP ** -2, 0.01, 'the width shown after two notches up, against one')
    tx, ty = fixed_point(w1, w2, 0), fixed_point(w1, w2, 1)
    log(f'  the zoom stayed fixed at {tx:.3f} of the width, {ty:.3f} of the height (from the bottom)')
    # The pointer was left of the centre and above it: the point that stays
    # put is there, not in the middle.
    if not tx < 0.45 or not ty > 0.55:
        raise Failure(f'the wheel did not zoom about the pointer (at {fx} across, {fy} down the '
                      f'figure): the fixed point is at {tx:.3f} across, {ty:.3f} up the plot')
    shot('wheel-in')
    expect_changed('all', 'wheel-in', 'three notches up did not change the figure')
    before, after = point_pixels(shots['all']), point_pixels(shots['wheel-in'])
    log(f'  pixels in the cluster colours: {before} of all the data, {after} zoomed in')
    # Points keep their size zoomed: the rows outside the window leave (the
    # small cluster at the bottom left here, 13 % of the pixels, since the
    # axes keep equal units and the data no longer fills the plot across).
    if after > 0.95 * before:
        raise Failure(f'zoomed in, the figure shows as many points as before ({after} against '
                      f'{before} pixels in the cluster colours)')

    wheel(fx, fy, -3)
    w3 = changed_description(w2, data_window, 'three notches down to zoom out again')
    log(f'  three notches down: {w3}')
    windows['wheel-out'] = w3
    shot('wheel-out')
    # What was under the pointer stayed there at every notch, so three notches
    # down undo three up.
    expect_same('all', 'wheel-out', 'three notches down after three up do not give the first view back')


def step_keys():
    focus_figure()
    log(f'  description: {description()!r}')
    for word in ('+', '−', 'arrow keys', '0'):
        if word not in description():
            raise Failure(f'the figure\'s description does not mention {word!r} '
                          f'(the keys that zoom and pan): {description()!r}')
    key('0')
    wait_description(lambda d: 'all the data' in d, '0 to show all the data')
    shot('key-0')
    expect_same('all', 'key-0', '0 did not show all the data as at first')

    key('minus')
    out = changed_description(None, data_window, '− to zoom out')
    shot('key-minus')
    expect_changed('all', 'key-minus', '− did not change the figure')
    key('plus')
    full = changed_description(out, data_window, '+ to zoom in again')
    log(f'  − shows {out}, + then {full}')
    close((out[1] - out[0]) / (full[1] - full[0]), KEY_STEP, 0.01, '− against +, width')
    close((out[3] - out[2]) / (full[3] - full[2]), KEY_STEP, 0.01, '− against +, height')
    # + and − zoom about the centre of what is shown.
    close(fixed_point(out, full, 0), 0.5, 0.01, 'the centre of the keyboard zoom across')
    close(fixed_point(out, full, 1), 0.5, 0.01, 'the centre of the keyboard zoom up')
    # − then + shows exactly all the data: the wheel, three notches in and
    # out, came back there too.
    w3 = windows.get('wheel-out')
    if w3:
        for i in range(4):
            close(w3[i], full[i], 0.002 * (full[1] - full[0] if i < 2 else full[3] - full[2]),
                  f'edge {i} after the wheel went in and out, against all the data')
    shot('key-plus')
    expect_same('all', 'key-plus', '− then + did not give the first view back')

    key('equal')
    zoomed = changed_description(full, data_window, '= to zoom in as + does')
    close((full[1] - full[0]) / (zoomed[1] - zoomed[0]), KEY_STEP, 0.01, '= zooms in by one step')
    shot('key-zoomed')
    expect_changed('all', 'key-zoomed', '= did not change the figure')

    first = iteration()
    width, height = zoomed[1] - zoomed[0], zoomed[3] - zoomed[2]
    moves = {
        'Right': (1, 0), 'Left': (0, 0), 'Up': (0, 1), 'Down': (0, 0),
    }
    for name, (dx, dy) in moves.items():
        key(name)
        now = changed_description(None if name == 'Right' else last, data_window,
                                  f'{name} to pan the zoomed scatter')
        log(f'  {name}: {now}')
        # Each arrow moves by a share of the window, and keeps its size.
        close(now[1] - now[0], width, 1e-3 * width, f'the width after {name}')
        close(now[3] - now[2], height, 1e-3 * height, f'the height after {name}')
        if dx:
            if not now[0] > zoomed[0] + 0.05 * width:
                raise Failure(f'Right did not move the window right: {zoomed} → {now}')
        if dy:
            if not now[2] > zoomed[2] + 0.05 * height:
                raise Failure(f'Up did not move the window up: {zoomed} → {now}')
        if name in ('Left', 'Down'):
            close(now[0], zoomed[0], 1e-3 * width, f'{name} after the opposite arrow, left edge')
            close(now[2], zoomed[2], 1e-3 * height, f'{name} after the opposite arrow, bottom edge')
        if name == 'Right':
            shot('key-right')
            expect_changed('key-zoomed', 'key-right', 'Right did not move the figure')
        last = now
    if iteration() != first:
        raise Failure(f'an arrow on the focused figure stepped the run: iteration {first} → {iteration()}')

    key('0')
    wait_description(lambda d: 'all the data' in d, '0 to show all the data again')
    shot('key-0-again')
    expect_same('all', 'key-0-again', '0 did not give the first view back after zooming and panning')


def step_dialogs():
    for item in ('Preferences', 'Export…'):
        windows = app.windows()
        app.choose_menu_item('Main Menu', item)
        dialog = ui.wait_until(lambda: next((w for w in app.windows() if w not in windows), None),
                               15, f'the {item} dialog to open')
        time.sleep(0.5)
        named_buttons(dialog, f'the {item.rstrip("…")} dialog')
        ui.press_key('Escape')
        ui.wait_until(lambda: dialog not in app.windows(), 10, f'the {item} dialog to close')


def step_filter():
    """The convolution filter's images: the wheel zooms about the pointer, the
    keys about the centre, the arrows pan, 0 shows the whole image."""
    photo = os.path.join(SCRATCH, 'photo.png')
    subprocess.run([ui.CONVERT, '-seed', '7', '-size', '320x240', 'plasma:fractal', 'PNG24:' + photo],
                   check=True, capture_output=True)
    app.args = [photo]
    app.restart()
    ui.wait_until(lambda: 'photo.png' in status(), 30, lambda: f'the photo to load (status {status()!r})')
    app.select_dropdown('Algorithm', 'Convolution filter')
    # A cold kernel cache builds every method raced at the start: on a
    # loaded machine that alone took over 30 s.
    ui.wait_until(lambda: re.search(r'pass 1 of 1', status()), 180,
                  lambda: f'the photo to be filtered (status {status()!r})')
    named_buttons(app.window, 'the window with the convolution filter')
    wait_description(lambda d: 'the whole image' in d, 'the figure to say it shows the whole image')
    shot('filter-all')

    # The original is the left panel: a point in its upper left quarter
    # (its left edge is near a tenth of the figure's width since the
    # timeline took a row of the height).
    wheel(0.12, 0.35, 3)
    w = changed_description(None, pixel_window, 'three notches to zoom the image')
    log(f'  three notches: pixels {w}')
    close((w[1] - w[0]) / 320, WHEEL_STEP ** -3, 0.02, 'the share of the width shown')
    # The pointer was near the image's left edge: the zoom kept that side.
    tx = fixed_point((0, 320, 0, 240), w, 0)
    log(f'  the zoom stayed fixed at {tx:.3f} of the image\'s width')
    if not tx < 0.35:
        raise Failure(f'the wheel over the left of the image zoomed elsewhere: pixels {w}')
    shot('filter-wheel')
    expect_changed('filter-all', 'filter-wheel', 'the wheel did not change the images')

    focus_figure()
    key('0')
    wait_description(lambda d: 'the whole image' in d, '0 to show the whole image')
    key('plus')
    zoomed = changed_description(None, pixel_window, '+ to zoom the image')
    close((zoomed[0] + zoomed[1]) / 2, 160, 1, '+ zooms about the centre, across')
    close((zoomed[2] + zoomed[3]) / 2, 120, 1, '+ zooms about the centre, down')
    key('Right')
    moved = changed_description(zoomed, pixel_window, 'Right to pan the image')
    log(f'  +: pixels {zoomed}; Right: {moved}')
    if not moved[0] > zoomed[0]:
        raise Failure(f'Right did not move the image window right: {zoomed} → {moved}')
    key('0')
    wait_description(lambda d: 'the whole image' in d, '0 to show the whole image again')
    shot('filter-0')
    expect_same('filter-all', 'filter-0', '0 did not give the whole image back')


def main():
    ui.run_steps('ui-input', app, [
        ('start the window on its default dataset', step_start),
        ('every toggle button of the window has a name', step_window_names),
        ('run to convergence, and look at the figure', step_run),
        ('the pointer on a point rings it, and the tooltip gives its values', step_hover),
        ('the wheel zooms the scatter about the pointer', step_wheel),
        ('+, −, =, the arrows and 0 zoom and pan the focused scatter', step_keys),
        ('the dialogs\' drop-downs have names', step_dialogs),
        ('the filter images zoom with the wheel and the keys', step_filter),
    ])
    app.stop()
    return 0


if __name__ == '__main__':
    sys.exit(main())
