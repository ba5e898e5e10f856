#!/usr/bin/python3
# test-export.py — the export dialog: width and height linked by the view's
# aspect ratio (and unlinked), the destination folder shown, and the saved file
# announced in the window with "Open Folder" (issue 13, item 13); the next
# export and every Save starting where the last file went, a name without an
# extension given the format's, SVG text kept as text (issue 40, items 11, 12)
#
# SPDX-License-Identifier: GPL-3.0-or-later
#
# Run under run-ui-test.sh. The accessible names used here ("Run", "Main Menu",
# "File Name", "Width", "Height", "Keep aspect ratio", "Folder", "Export",
# "Notice", "Open Folder") are the dialog's contract with its users of
# assistive technology.

import os
import random
import re
import struct
import subprocess
import sys
import time
import zlib

if not os.environ.get('LATENT_EXECUTABLE'):
    print('SKIP: LATENT_EXECUTABLE is not set; run this through run-ui-test.sh')
    sys.exit(77)

import latent_ui as ui  # noqa: E402
from latent_ui import Failure, log  # noqa: E402

SCRATCH = os.path.realpath(ui.scratch_dir())
EXPORT_DIR = os.path.join(SCRATCH, 'exports')
EXPORT_PNG = os.path.join(EXPORT_DIR, 'linked-export.png')

app = ui.App()
state = {}


def is_on(node):
    """A toggle button's state: GTK 4.8 gives it the push button role and says
    PRESSED; other versions say CHECKED."""
    ui._safe(node.clear_cache)
    states = node.getState()
    return states.contains(ui.pyatspi.STATE_PRESSED) or states.contains(ui.pyatspi.STATE_CHECKED)


def spin(name):
    return app.find('spin button', name, timeout=15, what=f'the spin button {name!r} of the export dialog')


def step_start():
    app.start()
    os.makedirs(EXPORT_DIR, exist_ok=True)
    run = app.button('Run', timeout=30)
    ui.click(run)
    status = app.find(None, 'Status', timeout=10)
    ui.wait_until(lambda: 'converged' in ui.text_of(status).lower(), 60,
                  lambda: f'the run to converge (status {ui.text_of(status)!r})')


def step_open():
    app.choose_menu_item('Main Menu', 'Export…')
    width, height = spin('Width'), spin('Height')
    state['w0'], state['h0'] = float(width.value), float(height.value)
    log(f'  the dialog opens at {state["w0"]:g} × {state["h0"]:g}')
    if state['w0'] < 16 or state['h0'] < 16:
        raise Failure(f'the dialog opens at {state["w0"]:g} × {state["h0"]:g}')
    link = app.button('Keep aspect ratio', timeout=5,
                      what='a toggle button "Keep aspect ratio" in the export dialog')
    if not is_on(link):
        raise Failure('"Keep aspect ratio" is not on when the dialog opens')
    state['link'] = link


def step_linked():
    width, height = spin('Width'), spin('Height')
    ratio = state['h0'] / state['w0']
    for new_width in (state['w0'] * 2, 1000, 640):
        ui.set_value(width, new_width)
        expected = round(new_width * ratio)
        ui.wait_until(lambda: abs(float(height.value) - expected) <= 1, 5,
                      lambda: f'Height to follow Width {new_width:g} to {expected} '
                              f'(the view is {state["w0"]:g} × {state["h0"]:g}; Height reads {height.value:g})')
        log(f'  Width {new_width:g} → Height {float(height.value):g}')
    ui.set_value(height, 300)
    expected = round(300 / ratio)
    ui.wait_until(lambda: abs(float(width.value) - expected) <= 1, 5,
                  lambda: f'Width to follow Height 300 to {expected} (Width reads {width.value:g})')
    log(f'  Height 300 → Width {float(width.value):g}')


def step_unlinked():
    ui.click(state['link'])
    ui.wait_until(lambda: not is_on(state['link']), 5,
                  '"Keep aspect ratio" to turn off')
    width, height = spin('Width'), spin('Height')
    before = float(height.value)
    ui.set_value(width, 777)
    ui.set_value(height, 333)
    if abs(float(width.value) - 777) > 0.5:
        raise Failure(f'unlinked, Height 333 changed Width to {width.value:g}')
    log(f'  unlinked: 777 × 333 (Height was {before:g})')


def step_folder():
    entry = app.find(('text', 'entry'), 'File Name', timeout=10)
    ui.set_text(entry, EXPORT_PNG)
    folder = app.find('label', 'Folder', pred=lambda n: ui.text_of(n) != 'Folder', timeout=10,
                      what='a label "Folder" showing the destination folder')
    ui.wait_until(lambda: ui.text_of(folder) == EXPORT_DIR, 5,
                  lambda: f'the folder label to read {EXPORT_DIR!r} (it reads {ui.text_of(folder)!r})')
    log(f'  folder: {ui.text_of(folder)!r}')


def step_save():
    if os.path.exists(EXPORT_PNG):
        os.unlink(EXPORT_PNG)
    app.press('Export', pred=lambda n: ui.has_action(n, 'click'))

    def written():
        try:
            return ui.read_png(EXPORT_PNG) if os.path.getsize(EXPORT_PNG) > 0 else None
        except (OSError, Failure):
            return None
    width, height, _ = ui.wait_until(written, 30, f'{EXPORT_PNG} to be written')
    log(f'  {EXPORT_PNG}: {width} × {height}')
    if (width, height) != (777, 333):
        raise Failure(f'the file is {width} × {height}, not the 777 × 333 asked for')
    name = os.path.basename(EXPORT_PNG)

    def notice():
        found = ui.find_all(app.window, lambda n: ui.role_of(n) == 'label' and name in ui.text_of(n))
        return found[0] if found else None
    label = ui.wait_until(notice, 10, f'a notice in the window naming {name!r}')
    text = ui.text_of(label)
    log(f'  notice: {text!r} ({ui.describe(label)})')
    if EXPORT_DIR not in text:
        raise Failure(f'the notice {text!r} does not name the folder {EXPORT_DIR!r}')
    if not text.startswith('Saved'):
        raise Failure(f'the notice {text!r} does not say the file was saved')
    button = ui.find(app.window, 'push button', 'Open Folder', timeout=5,
                     what='an "Open Folder" button beside the notice')
    log(f'  beside it {ui.describe(button)}')
    # Whether a file manager opens or not (there is none here), the window
    # stays: a failure is said in the error bar.
    ui.click(button)
    time.sleep(1)
    said = ui.find_all(app.window, lambda n: ui.role_of(n) == 'label'
                       and 'Could not open' in ui.text_of(n))
    if said:
        log(f'  Open Folder: {ui.text_of(said[0])!r}')
    if not app.alive():
        raise Failure(f'the application ended after Open Folder:\n{app.stderr()}')


def step_notice_leaves():
    """A notice is a toast: it leaves by itself, after long enough to read."""
    second = os.path.join(EXPORT_DIR, 'second-export.png')
    app.choose_menu_item('Main Menu', 'Export…')
    ui.set_text(app.find(('text', 'entry'), 'File Name', timeout=10), second)
    app.press('Export', pred=lambda n: ui.has_action(n, 'click'))
    name = os.path.basename(second)

    def notices():
        return [n for n in ui.find_all(app.window, lambda n: ui.role_of(n) == 'label'
                                       and name in ui.text_of(n)) if ui.is_showing(n)]
    ui.wait_until(lambda: notices() or None, 30, f'a notice naming {name!r}')
    shown = time.monotonic()
    ui.wait_until(lambda: not notices() or None, 30, f'the notice naming {name!r} to leave by itself')
    stayed = time.monotonic() - shown
    log(f'  the notice stayed {stayed:.1f} s')
    if stayed < 3:
        raise Failure(f'the notice left after {stayed:.1f} s, too soon to read')


def step_remembered():
    """The next export starts from the last one's width and folder; a bare
    name with SVG chosen becomes NAME.svg there, its words <text>."""
    app.choose_menu_item('Main Menu', 'Export…')
    width = spin('Width')
    log(f'  the dialog reopens at Width {float(width.value):g}')
    if abs(float(width.value) - 777) > 0.5:
        raise Failure(f'the dialog reopens at Width {width.value:g}, not the last export\'s 777')
    folder = app.find('label', 'Folder', pred=lambda n: ui.text_of(n) != 'Folder', timeout=10)
    if ui.text_of(folder) != EXPORT_DIR:
        raise Failure(f'the dialog offers {ui.text_of(folder)!r}, not the folder saved in last, {EXPORT_DIR!r}')
    app.select_dropdown('Format', 'SVG')
    ui.set_text(app.find(('text', 'entry'), 'File Name', timeout=10), 'bare-name')
    app.press('Export', pred=lambda n: ui.has_action(n, 'click'))
    path = os.path.join(EXPORT_DIR, 'bare-name.svg')

    def written():
        try:
            with open(path) as f:
                text = f.read()
            return text if text.rstrip().endswith('</svg>') else None
        except OSError:
            return None
    svg = ui.wait_until(written, 30, f'{path} to be written')
    title = re.search(r'<text [^>]*>(k-means[^<]*)</text>', svg)
    log(f'  {path}: {len(svg)} bytes, {svg.count("<text")} text elements, title {title and title.group(1)!r}')
    if not title:
        raise Failure(f'{path} has no <text> holding the title')


def step_save_result_folder():
    """Main Menu ▸ Save Result…, accepted as it opens: the file goes where
    the figures went, not into the working directory, and the window says so."""
    path = os.path.join(EXPORT_DIR, 'kmeans-result.json')
    app.choose_menu_item('Main Menu', 'Save Result…')
    chooser = ui.wait_until(lambda: next((w for w in app.windows() if w != app.window), None),
                            15, 'the file chooser')
    time.sleep(0.5)
    ui.click(ui.find(chooser, ('push button',), 'Save', pred=lambda n: ui.has_action(n, 'click')))
    ui.wait_until(lambda: chooser not in app.windows(), 10, 'the file chooser to close')
    ui.wait_until(lambda: os.path.exists(path) or None, 10,
                  f'{path} to be written (the working directory has {os.listdir(".")[:8]})')

    def notice():
        return next((ui.text_of(n) for n in ui.find_all(app.window, lambda n: ui.role_of(n) == 'label'
                                                         and 'kmeans-result.json' in ui.text_of(n))
                     if ui.is_showing(n)), None)
    log(f'  notice: {ui.wait_until(notice, 10, "a notice naming kmeans-result.json")!r}')


def discover(path):
    """(duration in s, frame rate, width, height) as GStreamer's discoverer reads the file."""
    out = subprocess.run(['gst-discoverer-1.0', '-v', path], capture_output=True, text=True, timeout=60).stdout
    duration = re.search(r'Duration: (\d+):(\d+):([\d.]+)', out)
    rate = re.search(r'Frame rate: (\d+)/(\d+)', out)
    if not duration or not rate:
        raise Failure(f'GStreamer\'s discoverer cannot read {path}:\n{out}')
    h, m, s = duration.groups()
    return (int(h) * 3600 + int(m) * 60 + float(s), int(rate.group(1)) / int(rate.group(2)),
            int(re.search(r'Width: (\d+)', out).group(1)), int(re.search(r'Height: (\d+)', out).group(1)))


def record(name, fmt, fps):
    """Export… ▸ an animation format: the run's kept frames written, the
    notice saying how many; returns (path, frames, seconds)."""
    path = os.path.join(EXPORT_DIR, name)
    app.choose_menu_item('Main Menu', 'Export…')
    app.select_dropdown('Format', fmt)
    ui.set_value(app.find('spin button', 'Frames per second', timeout=10,
                          what='the spin button "Frames per second", shown for an animation'), fps)
    kept = ui.text_of(app.find(None, 'Frames Kept', timeout=5))
    log(f'  {kept}')
    ui.set_text(app.find(('text', 'entry'), 'File Name', timeout=10), path)
    app.press('Export', pred=lambda n: ui.has_action(n, 'click'))
    base = os.path.basename(path).replace('.png', '-0001.png')

    def notice():
        found = [n for n in ui.find_all(app.window, lambda n: ui.role_of(n) == 'label' and base in ui.text_of(n))
                 if ui.is_showing(n)]
        return ui.text_of(found[0]) if found else None
    text = ui.wait_until(notice, 120, f'a notice naming {base!r}')
    log(f'  notice: {text!r}')
    said = re.search(r'\((\d+) frames, ([\d.]+) s\)', text)
    if not said:
        raise Failure(f'the notice {text!r} does not say how many frames were recorded')
    frames, seconds = int(said.group(1)), float(said.group(2))
    if frames < 3 or abs(seconds - frames / fps) > 0.06:
        raise Failure(f'{frames} frames in {seconds} s at {fps} per second')
    return path, frames, seconds


def step_record_kmeans():
    """k-means on blobs, converged: its kept frames as WebM, read back by
    GStreamer, and as a GIF of as many frames."""
    path, frames, seconds = record('kmeans-run.webm', 'WebM video of the run', 8)
    duration, rate, width, height = discover(path)
    log(f'  {path}: {duration:.3f} s at {rate:g} fps, {width} × {height}')
    if rate != 8 or round(duration * rate) != frames or width % 2 or height % 2:
        raise Failure(f'GStreamer reads {duration:.3f} s at {rate:g} fps ({width} × {height}), '
                      f'not {frames} frames at 8 fps')
    gif, gif_frames, _ = record('kmeans-run.gif', 'GIF animation of the run', 8)
    counted = subprocess.run(['identify', gif], capture_output=True, text=True, check=True).stdout.count('\n')
    log(f'  {gif}: {counted} frames (ImageMagick)')
    if counted != gif_frames or gif_frames != frames:
        raise Failure(f'the GIF has {counted} frames; the notice said {gif_frames}, the WebM {frames}')


def write_pattern(path, size, stripe):
    """A grey PNG of stripes @stripe apart, shifted at random: images an
    autoencoder's tiles learn from."""
    def chunk(kind, data):
        return struct.pack('>I', len(data)) + kind + data + struct.pack('>I', zlib.crc32(kind + data))
    shift = random.randrange(stripe)
    rows = b''.join(b'\0' + bytes(255 if (x + shift) % stripe < stripe // 2 else 0 for x in range(size))
                    for _ in range(size))
    with open(path, 'wb') as f:
        f.write(b'\x89PNG\r\n\x1a\n' + chunk(b'IHDR', struct.pack('>IIBBBBB', size, size, 8, 0, 0, 0, 0))
                + chunk(b'IDAT', zlib.compress(rows)) + chunk(b'IEND', b''))


def step_record_tiles():
    """The autoencoder's tiles on a folder of striped images, learning,
    recorded as WebM."""
    random.seed(7)
    folder = os.path.join(SCRATCH, 'stripes')
    for klass, stripe in (('narrow', 4), ('wide', 8)):
        os.makedirs(os.path.join(folder, klass), exist_ok=True)
        for i in range(60):
            write_pattern(os.path.join(folder, klass, f'{i:02d}.png'), 8, stripe)
    app.open_file(folder, item='Open Image Folder…')
    app.wait_status(r'^stripes · 120 × 64', 30, 'the 120 striped images to load')
    app.select_dropdown('Algorithm', 'Winner-take-all autoencoder')
    # Step by step: each step is a frame kept, however fast the machine
    # (a run keeps as many as its pace allows: in CI once only two).
    ui.set_value(app.find('spin button', 'Mini-batch', timeout=10), 20)
    step = app.button('Step', timeout=10)
    for i in range(1, 7):
        ui.click(step)
        app.wait_status(rf'\biteration {i}\b', 60, f'step {i} of the autoencoder')
    path, frames, _ = record('tiles-run.webm', 'WebM video of the run', 10)
    if frames != 7:
        raise Failure(f'{frames} frames recorded, not the start and the 6 steps')
    duration, rate, width, height = discover(path)
    log(f'  {path}: {duration:.3f} s at {rate:g} fps, {width} × {height}')
    if rate != 10 or round(duration * rate) != frames:
        raise Failure(f'GStreamer reads {duration:.3f} s at {rate:g} fps, not {frames} frames at 10 fps')


def main():
    return ui.run_and_quit('ui-export', app, [
        ('start the window and run k-means on its default dataset', step_start),
        ('Main Menu ▸ Export…: the view\'s size, "Keep aspect ratio" on', step_open),
        ('linked: Width moves Height by the view\'s ratio, and back', step_linked),
        ('unlinked: Width and Height move freely', step_unlinked),
        ('the dialog shows the destination folder', step_folder),
        ('Export writes the file and the window says where, with Open Folder', step_save),
        ('a second export\'s notice leaves by itself', step_notice_leaves),
        ('the next export: the last width and folder, a bare name as SVG with text', step_remembered),
        ('Save Result… opens where the figures went, and says so', step_save_result_folder),
        ('k-means\' run recorded from the window as WebM and GIF', step_record_kmeans),
        ('the autoencoder\'s tiles recorded from the window as WebM', step_record_tiles),
    ])


if __name__ == '__main__':
    sys.exit(main())
