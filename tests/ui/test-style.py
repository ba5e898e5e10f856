#!/usr/bin/python3
# test-style.py — the GNOME look: the window follows the desktop's dark
# preference, Preferences ▸ Style forces light or dark over it, the figure is
# drawn dark with the window, and About shows the application's icon from the
# build tree (issue 37)
#
# SPDX-License-Identifier: GPL-3.0-or-later
#
# Run under run-ui-test.sh. Unlike the other ui tests the window gets the real
# dconf backend, the only way a desktop's preference reaches it without a
# portal. Screenshots of both styles are kept beside meson's logs.

import os
import subprocess
import sys

if not os.environ.get('LATENT_EXECUTABLE'):
    print('SKIP: LATENT_EXECUTABLE is not set; run this through run-ui-test.sh')
    sys.exit(77)

import latent_ui as ui  # noqa: E402
from latent_ui import Failure, log  # noqa: E402

SCRATCH = ui.scratch_dir()
IRIS = os.path.join(os.path.dirname(os.path.abspath(__file__)), '..', '..', 'data', 'iris.csv')

app = ui.App(args=[os.path.realpath(IRIS)], env={'GSETTINGS_BACKEND': 'dconf'})
state = {}


def desktop(scheme):
    subprocess.run(['gsettings', 'set', 'org.gnome.desktop.interface', 'color-scheme', scheme], check=True)


def mean_grey(node, name):
    path = os.path.join(SCRATCH, name)
    app.screenshot(path, node)
    hist = ui.colour_histogram(path)
    total = sum(hist.values())
    return sum(sum(c) / 3 * n for c, n in hist.items()) / max(total, 1)


def greys():
    return mean_grey(state['figure'], 'figure.png'), mean_grey(app.window, 'window.png')


def wait_for(dark, why, keep=None):
    light = state['light']

    def reached():
        f, w = greys()
        ok = (f < light[0] - 60 and w < light[1] - 60) if dark else (f > light[0] - 10 and w > light[1] - 10)
        return (f, w) if ok else None
    got = ui.wait_until(reached, 10, f'the window and the figure to turn {"dark" if dark else "light"} ({why})')
    log(f'  {why}: mean grey {got[0]:.0f} figure, {got[1]:.0f} window')
    if keep:
        ui.screenshot(os.path.join(ui.artifacts_dir(), keep), app.window)
    return got


def step_start():
    desktop('default')
    app.start()
    status = app.find(None, 'Status', timeout=30)
    ui.wait_until(lambda: 'iris' in ui.text_of(status) or None, 30, 'Iris to load')
    state['figure'] = app.find(None, 'Figure', what='the figure (accessible name "Figure")')
    state['light'] = greys()
    log(f'  light: mean grey {state["light"][0]:.0f} figure, {state["light"][1]:.0f} window')
    ui.screenshot(os.path.join(ui.artifacts_dir(), 'style-light.png'), app.window)


def step_desktop_dark():
    desktop('prefer-dark')
    wait_for(True, 'the desktop prefers dark', keep='style-dark.png')


def step_preferences():
    app.choose_menu_item('Main Menu', 'Preferences')
    app.select_dropdown('Style', 'Light')
    wait_for(False, 'Style Light, the desktop dark')
    desktop('default')
    app.select_dropdown('Style', 'Dark')
    wait_for(True, 'Style Dark, the desktop light')
    app.select_dropdown('Style', 'Follow System')
    wait_for(False, 'Style Follow System, the desktop light')
    ui.press_key('Escape')


def step_about():
    """The icon is the application's (its orange, blue and green dots), not
    the theme's missing-image sign, though nothing is installed."""
    app.choose_menu_item('Main Menu', 'About Latent')
    about = app.find('frame', None, pred=lambda n: 'About' in ui.name_of(n), timeout=10,
                     what='the About window')
    path = os.path.join(SCRATCH, 'about.png')
    ui.wait_until(lambda: ui.is_showing(about) or None, 5, 'the About window to show')
    app.screenshot(path, about)
    hist = ui.colour_histogram(path)

    def near(rgb, tolerance=24):
        return sum(n for c, n in hist.items() if all(abs(a - b) <= tolerance for a, b in zip(c, rgb)))
    dots = {name: near(rgb) for name, rgb in
            (('orange', (0xe6, 0x9f, 0x00)), ('blue', (0x56, 0xb4, 0xe9)), ('green', (0x00, 0x9e, 0x73)))}
    log(f'  the icon\'s colours in the About window: {dots}')
    if min(dots.values()) < 20:
        raise Failure(f'the About window does not show the application\'s icon (its colours: {dots})')
    ui.press_key('Escape')


def main():
    return ui.run_and_quit('ui-style', app, [
        ('start the window on Iris, the desktop light', step_start),
        ('the desktop prefers dark: the window and the figure turn dark', step_desktop_dark),
        ('Preferences ▸ Style forces light, then dark, then follows the desktop', step_preferences),
        ('About shows the application\'s icon from the build tree', step_about),
    ])


if __name__ == '__main__':
    sys.exit(main())
