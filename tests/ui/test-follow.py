#!/usr/bin/python3
# test-follow.py — the window follows a run that latent-cli computes
#
# SPDX-License-Identifier: GPL-3.0-or-later
#
# Run under run-ui-test.sh, with latent-cli's path as its argument. The
# window opens Iris. Main Menu ▸ Follow a Run… on an empty folder says there
# is no run there, naming it, and Iris stays. Then latent-cli runs k-means on
# Fashion-MNIST (the C reference path, half a second an iteration) with
# --follow DIR, and Follow a Run… on DIR, chosen with real clicks and typing:
# the window loads Fashion-MNIST, shows the run "running in latent-cli" at
# two iterations at least while it goes, with Run, Pause and Step
# insensitive (the run is latent-cli's), and ends at latent-cli's last
# iteration with its inertia and accuracy (its --json). The figure is drawn.
# Accessible names used: "Main Menu", "Status", "Metrics", "Error", "Run",
# "Pause", "Step", "Figure", "Follow".

import json
import os
import re
import subprocess
import sys
import time

if not os.environ.get('LATENT_EXECUTABLE'):
    print('SKIP: LATENT_EXECUTABLE is not set; run this through run-ui-test.sh')
    sys.exit(77)
if len(sys.argv) < 2:
    print('usage: test-follow.py LATENT_CLI', file=sys.stderr)
    sys.exit(2)

import latent_ui as ui  # noqa: E402
from latent_ui import Failure, log  # noqa: E402

CLI = sys.argv[1]
SOURCE_DIR = os.path.normpath(os.path.join(os.path.dirname(os.path.abspath(__file__)), '..', '..'))
IRIS = os.path.join(SOURCE_DIR, 'data', 'iris.csv')
ITERATIONS = 24

app = ui.App()
state = {}
status, wait_status, metrics = app.status, app.wait_status, app.metrics


def error_text():
    labels = ui.find_all(app.window, lambda n: ui.role_of(n) == 'label' and ui.name_of(n) == 'Error')
    return ' '.join(ui.text_of(n) for n in labels if ui.text_of(n))


def step_start():
    app.start()
    ui.wait_until(lambda: status().strip(), 30, 'the status label to show something')
    app.open_file(IRIS)
    wait_status(r'^iris', 30, 'Iris to load')


def step_empty_folder():
    empty = os.path.join(ui.scratch_dir(), 'no-run')
    os.makedirs(empty, exist_ok=True)
    app.open_file(empty, item='Follow a Run…', menu='Main Menu', accept='Follow')
    text = ui.wait_until(lambda: error_text() or None, 20, 'an error about the empty folder')
    log(f'  error: {text!r}')
    if empty not in text or 'no run to follow' not in text:
        raise Failure(f'the error does not name the folder and say there is no run: {text!r}')
    wait_status(r'^iris\S* · 150 × 4', 10, 'Iris to stay')


def step_follow():
    folder = state['folder'] = os.path.join(ui.scratch_dir(), 'kmeans-run')
    state['json'] = os.path.join(ui.scratch_dir(), 'kmeans-run.json')
    state['cli'] = subprocess.Popen(
        [CLI, 'run', 'kmeans', '--data', 'fashion-mnist', '--device', 'off', '--param', 'k=20',
         '--param', 'init=random', '--param', 'tol=0', '--iterations', str(ITERATIONS),
         '--follow', folder, '--json', state['json']],
        stdout=subprocess.DEVNULL, stderr=subprocess.PIPE, text=True)
    ui.wait_until(lambda: os.path.exists(os.path.join(folder, 'experiment.json')) or None, 30,
                  'latent-cli to write experiment.json')
    app.open_file(folder, item='Follow a Run…', menu='Main Menu', accept='Follow')
    wait_status(r'^fashion-mnist · 60000 × 784 · k-means', 60, 'Fashion-MNIST to load for the run')


def step_live():
    """Iterations come while latent-cli computes them; the controls are not the window's."""
    seen = set()
    deadline = time.monotonic() + 120
    while time.monotonic() < deadline:
        text = status()
        m = re.search(r'iteration (\d+) of \d+', text)
        if m and 'running in latent-cli' in text:
            seen.add(int(m.group(1)))
            for name in ('Run', 'Pause', 'Step'):
                if ui.is_sensitive(app.button(name, timeout=5)):
                    raise Failure(f'{name} is sensitive while the window follows latent-cli\'s run')
        if len(seen) >= 2 or state['cli'].poll() is not None:
            break
        time.sleep(0.1)
    log(f'  iterations seen running: {sorted(seen)}')
    if len(seen) < 2:
        raise Failure(f'fewer than two iterations were shown while latent-cli ran: {sorted(seen)} '
                      f'(status {status()!r})')
    if 'following ' + state['folder'] not in status():
        raise Failure(f'the status does not say which folder it follows: {status()!r}')


def step_end():
    """The window ends where latent-cli ended: its iteration, inertia and accuracy."""
    _, err = state['cli'].communicate(timeout=180)
    if state['cli'].returncode != 0:
        raise Failure(f'latent-cli failed ({state["cli"].returncode}): {err[-400:]}')
    with open(state['json']) as f:
        result = json.load(f)
    n = result['iterations']
    text = wait_status(rf'iteration {n} of {n} · inertia [0-9.e+]+ · .* · followed from ', 30,
                       f'the window to end at latent-cli\'s iteration {n}')
    text = status()
    log(f'  status: {text!r}')
    inertia = float(re.search(r'inertia ([0-9.e+]+)', text).group(1))
    if abs(inertia - result['inertia']) > 1e-6 * result['inertia']:
        raise Failure(f'the window shows inertia {inertia}, latent-cli wrote {result["inertia"]}')
    accuracy = result['metrics']['accuracy']
    wanted = f'Accuracy {accuracy:.4f}'
    ui.wait_until(lambda: wanted in metrics() or None, 10,
                  lambda: f'the metrics to say {wanted!r} ({metrics()[:200]!r})')
    shot = os.path.join(ui.scratch_dir(), 'followed.png')
    app.screenshot(shot, app.find(None, 'Figure', timeout=10))
    colours = ui.distinct_colours(shot)
    log(f'  figure: {colours} colours')
    if colours < 50:
        raise Failure(f'the followed run\'s figure looks blank ({colours} colours)')


ui.run_steps('follow', app, [
    ('start on Iris', step_start),
    ('Follow a Run… on a folder without one: said, Iris kept', step_empty_folder),
    ('latent-cli run … --follow DIR, and Follow a Run… on DIR', step_follow),
    ('the run shown live, the controls latent-cli\'s', step_live),
    ('the end: latent-cli\'s iteration, inertia and accuracy', step_end),
])
app.stop()
