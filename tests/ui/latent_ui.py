# latent_ui.py — drives Latent's window through AT-SPI (dogtail) for the ui suite
#
# SPDX-License-Identifier: GPL-3.0-or-later
#
# Meant to run under run-ui-test.sh, which provides Xvfb, a private session bus, the
# accessibility bus and $LATENT_EXECUTABLE. Only the standard library, dogtail and
# ImageMagick's command-line tools are used.

import os
import re
import shutil
import signal
import struct
import subprocess
import sys
import time
import traceback
import zlib

# dogtail reads its configuration at import time of dogtail.tree; quiet it first.
# Its directories go below the harness's scratch directory (the defaults are
# shared /tmp/dogtail-$LOGNAME ones), before the logger is created.
from dogtail.config import config as _dogtail_config

if os.environ.get('LATENT_UI_TMPDIR'):
    for _key in ('scratchDir', 'dataDir', 'logDir'):
        setattr(_dogtail_config, _key, os.path.join(os.environ['LATENT_UI_TMPDIR'], 'dogtail', _key))
_dogtail_config.logDebugToFile = False
_dogtail_config.logDebugToStdOut = False
_dogtail_config.actionDelay = 0.2
_dogtail_config.typingDelay = 0.03
_dogtail_config.defaultDelay = 0.2
_dogtail_config.searchBackoffDuration = 0.25
_dogtail_config.searchCutoffCount = 1

from dogtail import rawinput, tree  # noqa: E402
from gi.repository import GLib  # noqa: E402
import pyatspi  # noqa: E402

# Something on the way in replaces the hook with one that prints nothing, which
# would hide the traceback of an uncaught error.
sys.excepthook = sys.__excepthook__

CONVERT = '/usr/bin/convert'
IMPORT = '/usr/bin/import'

# ui/figures/latent-palette.c: Okabe–Ito without black, then Paul Tol's muted.
PALETTE = [
    (0x00, 0x72, 0xb2),  # blue
    (0xe6, 0x9f, 0x00),  # orange
    (0x00, 0x9e, 0x73),  # bluish green
    (0xd5, 0x5e, 0x00),  # vermillion
    (0x56, 0xb4, 0xe9),  # sky blue
    (0xcc, 0x79, 0xa7),  # reddish purple
    (0xf0, 0xe4, 0x42),  # yellow
    (0x33, 0x22, 0x88),  # indigo
    (0x99, 0x99, 0x33),  # olive
    (0x88, 0x22, 0x55),  # wine
]

# Roles a person operates; each must carry a name (see unnamed_controls).
INTERACTIVE_ROLES = {
    'push button', 'toggle button', 'spin button', 'combo box', 'slider',
    'check box', 'radio button', 'text', 'entry', 'password text', 'menu item',
    'check menu item', 'radio menu item', 'switch', 'link',
}


class Failure(Exception):
    """A check of the test failed; the message says what was expected and seen."""


def log(message):
    print(message, flush=True)


# Departures from the accessibility contract that the test could work around;
# reported together at the end, and they fail the test.
violations = []


def violation(message):
    if message not in violations:
        violations.append(message)
        log(f'  CONTRACT: {message}')


def scratch_dir():
    """A private directory for files the test writes (exported by the harness)."""
    path = os.environ.get('LATENT_UI_TMPDIR')
    if not path:
        import tempfile
        path = tempfile.mkdtemp(prefix='latent-ui-')
    os.makedirs(path, exist_ok=True)
    return path


def artifacts_dir():
    """Where failure screenshots and logs go: next to meson's test log if known."""
    for candidate in (os.environ.get('LATENT_UI_ARTIFACTS'),
                      os.path.join(os.environ.get('MESON_BUILD_ROOT', ''), 'meson-logs')
                      if os.environ.get('MESON_BUILD_ROOT') else None,
                      os.path.join(os.getcwd(), 'meson-logs')):
        if candidate and os.path.isdir(candidate):
            return candidate
    return os.getcwd()


def wait_until(check, timeout, what, interval=0.2):
    """Polls check() until it returns something true; returns that value. what
    (a string, or a function giving one at the time of failure) says what for."""
    deadline = time.monotonic() + timeout
    last_error = None
    while True:
        try:
            value = check()
            if value:
                return value
        except (GLib.Error, LookupError, RuntimeError) as e:
            # The tree changes under our feet (widgets destroyed mid-walk).
            last_error = e
        if time.monotonic() >= deadline:
            extra = f' (last error: {last_error})' if last_error else ''
            if callable(what):
                what = what()
            raise Failure(f'timed out after {timeout:g} s waiting for {what}{extra}')
        time.sleep(interval)


# ---------------------------------------------------------------- tree access

def _safe(getter, default=None):
    try:
        return getter()
    except (GLib.Error, LookupError, RuntimeError, AttributeError, TypeError):
        return default


def role_of(node):
    return _safe(lambda: node.roleName, '')


def name_of(node):
    return _safe(lambda: node.name, '') or ''


def _visible_itself(node):
    def check():
        states = node.getState()
        return states.contains(pyatspi.STATE_SHOWING) or states.contains(pyatspi.STATE_VISIBLE)
    return bool(_safe(check, False))


def is_showing(node):
    """Whether node is on screen. GTK 4.8 sets SHOWING on toplevels only and
    VISIBLE on widgets, so a node shows when it and every ancestor are visible
    (a closed popover keeps its visible children, but is not visible itself)."""
    extents = _safe(lambda: extents_of(node))
    if extents is not None and (extents[2] <= 0 or extents[3] <= 0):
        return False   # a page of a stack that is not the visible one
    current = node
    while current is not None and role_of(current) != 'application':
        if not _visible_itself(current):
            return False
        current = _safe(lambda: current.parent)
    return True


def text_of(node):
    """The text of a label or entry. GTK 4.8 answers GetText (0, -1) with an empty
    string, so ask for characterCount characters; fall back to the name, which
    is what a GtkLabel exposes when nobody gave it one."""
    def read():
        t = node.queryText()
        return t.getText(0, t.characterCount)
    text = _safe(read)
    if text:
        return text
    return name_of(node)


def name_matches(actual, wanted):
    """GTK 4.8 names a button with a mnemonic label "_Open Open" (the label with
    its underline, then its text); a person hears "Open", so accept that too."""
    if actual == wanted:
        return True
    plain = actual.replace('_', '')
    return plain == wanted or plain == f'{wanted} {wanted}'


def extents_of(node):
    """(x, y, w, h) relative to the node's window. GTK 4.8 answers every request
    that way and warns about screen coordinates, so ask for window ones."""
    e = node.queryComponent().getExtents(pyatspi.WINDOW_COORDS)
    return (e.x, e.y, e.width, e.height)


def describe(node):
    return f'[{role_of(node)} | {name_of(node)!r}]'


def find(parent, role=None, name=None, *, contains=None, pred=None,
         showing=True, timeout=10.0, what=None):
    """First descendant of parent matching role, exact name (or a name containing
    `contains`) and pred, polling up to timeout seconds."""
    def match(n):
        if role is not None:
            r = role_of(n)
            if (r not in role) if isinstance(role, (tuple, list, set)) else (r != role):
                return False
        if name is not None and not name_matches(name_of(n), name):
            return False
        if contains is not None and contains not in name_of(n):
            return False
        if pred is not None and not _safe(lambda: pred(n), False):
            return False
        if showing and not is_showing(n):
            return False
        return True

    def search():
        return parent.findChild(match, retry=False, requireResult=False)

    if what is None:
        what = f'{role or "node"} named {name!r}' if name is not None else \
               f'{role or "node"} containing {contains!r}' if contains is not None else \
               f'{role or "node"}'
    return wait_until(search, timeout, what)


def find_all(parent, pred, showing=True):
    def match(n):
        return _safe(lambda: pred(n), False) and (not showing or is_showing(n))
    return _safe(lambda: parent.findChildren(match), []) or []


def walk(node, depth=0):
    """Yields (depth, node) for node and every descendant."""
    yield depth, node
    for child in _safe(lambda: list(node.children), []) or []:
        yield from walk(child, depth + 1)


def dump_tree(node):
    lines = []
    for depth, n in walk(node):
        extents = _safe(lambda: extents_of(n))
        flags = '' if is_showing(n) else ' (hidden)'
        lines.append(f'{"  " * depth}{role_of(n)} {name_of(n)!r} {extents}{flags}')
    return '\n'.join(lines)


def has_action(node, action):
    return action in (_safe(lambda: node.actions, {}) or {})


def unnamed_controls(node):
    """Interactive controls whose accessible name is empty or only GTK's fallback
    (the widget's type name, e.g. 'GtkMenuButton')."""
    bad = []
    for _, n in walk(node):
        role = role_of(n)
        if role not in INTERACTIVE_ROLES or not is_showing(n):
            continue
        name = name_of(n).strip()
        if name and not re.fullmatch(r'Gtk[A-Z]\w*', name):
            continue
        # GtkDropDown's own toggle button: the combo box around it carries the name.
        parent = _safe(lambda: n.parent)
        if role in ('push button', 'toggle button') and role_of(parent) == 'combo box' \
                and name_of(parent).strip():
            continue
        bad.append(n)
    return bad


# ---------------------------------------------------------------- screen geometry

def _toplevel(node):
    """The window (child of the application node) that holds node."""
    current = node
    while True:
        parent = _safe(lambda: current.parent)
        if parent is None or role_of(parent) == 'application':
            return current
        current = parent


def _x_windows():
    """(title, width, height, x, y) of every X window, from xwininfo."""
    out = subprocess.run(['xwininfo', '-root', '-tree'], capture_output=True, text=True).stdout
    windows = []
    for line in out.splitlines():
        m = re.match(r'\s*0x[0-9a-f]+ "(.*)": \(.*\)\s+(\d+)x(\d+)\+-?\d+\+-?\d+\s+\+(-?\d+)\+(-?\d+)', line)
        if m:
            windows.append((m.group(1), int(m.group(2)), int(m.group(3)),
                            int(m.group(4)), int(m.group(5))))
    return windows


def screen_rect(node):
    """(x, y, w, h) of node on the screen. GTK 4.8 reports extents relative to the
    toplevel ("Screen coordinates not supported"), so add the X window's origin and
    the client-side-decoration margin around the toplevel."""
    x, y, w, h = extents_of(node)
    top = _toplevel(node)
    tx, ty, tw, th = _safe(lambda: extents_of(top), (0, 0, 0, 0))
    title = name_of(top)
    if shutil.which('xwininfo') is None:
        return (x, y, w, h)
    candidates = [win for win in _x_windows()
                  if win[0] == title and win[1] >= tw and win[2] >= th]
    if not candidates:
        return (x, y, w, h)
    # The smallest window that fits is the toplevel itself; Xvfb has no window
    # manager, so no frame window wraps it. The margin is symmetric in solid CSD.
    _, ww, wh, wx, wy = min(candidates, key=lambda win: win[1] * win[2])
    return (wx + (ww - tw) // 2 + x, wy + (wh - th) // 2 + y, w, h)


def raw_click(node, button=1):
    x, y, w, h = screen_rect(node)
    rawinput.click(x + w // 2, y + h // 2, button)


# ---------------------------------------------------------------- actions

def is_sensitive(node):
    return bool(_safe(lambda: node.getState().contains(pyatspi.STATE_SENSITIVE), False))


def is_checked(node):
    return bool(_safe(lambda: node.getState().contains(pyatspi.STATE_CHECKED), False))


def click(node, timeout=10):
    """Presses a button or menu item the way assistive technology does; nodes
    without a 'click' action get a real mouse click at their centre. Waits for
    the node to become sensitive first: a dialog enables its default button only
    once it has looked at what was typed."""
    wait_until(lambda: is_sensitive(node), timeout, f'{describe(node)} to become sensitive')
    if has_action(node, 'click'):
        node.doActionNamed('click')
    else:
        raw_click(node)
    time.sleep(0.2)


def set_value(node, value, tolerance=1e-6):
    """Sets a spin button, scale or slider through the Value interface."""
    node.value = value
    wait_until(lambda: abs(float(node.value) - value) <= tolerance, 5,
               f'{describe(node)} to take the value {value} (it has {_safe(lambda: node.value)})')


def set_text(node, text):
    """Replaces the contents of an editable text (entry, spin button)."""
    done = _safe(lambda: node.queryEditableText().setTextContents(text), False)
    if not done or text_of(node) != text:
        raw_click(node)
        key_combo('<Control>a')
        type_text(text)
    wait_until(lambda: text_of(node) == text, 5, f'{describe(node)} to read {text!r}')


def press_key(key):
    """A key by name: 'space', 'Right', 'Return', 'Escape', 'a'."""
    rawinput.pressKey(key)
    time.sleep(0.1)


def key_combo(combo):
    """A combination such as '<Control>r' or '<Control>l'."""
    rawinput.keyCombo(combo)
    time.sleep(0.1)


def type_text(text):
    rawinput.typeText(text)
    time.sleep(0.1)


# ---------------------------------------------------------------- images

def screenshot(path, node=None):
    """Saves the screen, or only node's area of it, as PNG at path."""
    full = path if node is None else path + '.full.png'
    subprocess.run([IMPORT, '-window', 'root', full], check=True, capture_output=True)
    if node is not None:
        x, y, w, h = screen_rect(node)
        if w <= 0 or h <= 0:
            raise Failure(f'{describe(node)} has no area on screen ({w}×{h})')
        subprocess.run([CONVERT, full, '-crop', f'{w}x{h}+{x}+{y}', '+repage', path],
                       check=True, capture_output=True)
        os.unlink(full)
    return path


def colour_histogram(path):
    """{(r, g, b): pixel count} of an image, from ImageMagick's histogram."""
    out = subprocess.run([CONVERT, path, '-alpha', 'off', '-depth', '8',
                          '-format', '%c', 'histogram:info:-'],
                         check=True, capture_output=True, text=True).stdout
    hist = {}
    for line in out.splitlines():
        m = re.match(r'\s*(\d+):\s*\(\s*(\d+),\s*(\d+),\s*(\d+)', line)
        if m:
            rgb = (int(m.group(2)), int(m.group(3)), int(m.group(4)))
            hist[rgb] = hist.get(rgb, 0) + int(m.group(1))
    return hist


def count_near(hist, rgb, tolerance=10):
    """Pixels whose every channel is within tolerance of rgb."""
    return sum(count for c, count in hist.items()
               if max(abs(c[i] - rgb[i]) for i in range(3)) <= tolerance)


def distinct_colours(path):
    """Number of distinct colours in an image (ImageMagick's %k)."""
    out = subprocess.run(['/usr/bin/identify', '-format', '%k', path],
                         check=True, capture_output=True, text=True).stdout
    return int(out.strip())


def image_size(path):
    out = subprocess.run([CONVERT, path, '-format', '%w %h', 'info:-'],
                         check=True, capture_output=True, text=True).stdout.split()
    return int(out[0]), int(out[1])


def read_png(path):
    """(width, height, {keyword: text}) of a PNG, checking its signature and chunk
    CRCs; tEXt, zTXt and iTXt chunks are all read."""
    with open(path, 'rb') as f:
        data = f.read()
    if data[:8] != b'\x89PNG\r\n\x1a\n':
        raise Failure(f'{path}: not a PNG (signature {data[:8]!r})')
    pos, width, height, texts = 8, None, None, {}
    while pos + 12 <= len(data):
        length, kind = struct.unpack('>I4s', data[pos:pos + 8])
        body = data[pos + 8:pos + 8 + length]
        crc, = struct.unpack('>I', data[pos + 8 + length:pos + 12 + length])
        if zlib.crc32(kind + body) != crc:
            raise Failure(f'{path}: bad CRC in chunk {kind!r} at byte {pos}')
        if kind == b'IHDR':
            width, height = struct.unpack('>II', body[:8])
        elif kind == b'tEXt':
            key, _, value = body.partition(b'\0')
            texts[key.decode('latin-1')] = value.decode('latin-1')
        elif kind == b'zTXt':
            key, _, rest = body.partition(b'\0')
            texts[key.decode('latin-1')] = zlib.decompress(rest[1:]).decode('latin-1')
        elif kind == b'iTXt':
            key, _, rest = body.partition(b'\0')
            compressed, rest = rest[0], rest[2:]
            _, _, rest = rest.partition(b'\0')   # language tag
            _, _, rest = rest.partition(b'\0')   # translated keyword
            texts[key.decode('utf-8')] = (zlib.decompress(rest) if compressed else rest).decode('utf-8')
        elif kind == b'IEND':
            break
        pos += 12 + length
    if width is None:
        raise Failure(f'{path}: no IHDR chunk')
    return width, height, texts


# ---------------------------------------------------------------- the application

class App:
    """One run of the application, started by the test so it can restart it,
    choose its environment and read its stderr."""

    def __init__(self, executable=None, args=(), env=None, name='latent'):
        self.executable = executable or os.environ.get('LATENT_EXECUTABLE')
        self.args = list(args)
        self.extra_env = dict(env or {})
        self.name = name
        self.process = None
        self.node = None
        self.window = None
        self.stderr_path = None
        self.runs = 0

    def start(self, timeout=60):
        if not self.executable:
            raise Failure('LATENT_EXECUTABLE is not set; run this under run-ui-test.sh')
        self.runs += 1
        env = dict(os.environ)
        # The application alone gets the memory backend: dogtail needs the real
        # dconf to see toolkit-accessibility, the window must not depend on it.
        env.update({
            'GSETTINGS_BACKEND': 'memory',
            'GSK_RENDERER': 'cairo',
            'GTK_A11Y': 'atspi',
            'GDK_BACKEND': 'x11',
            'GTK_USE_PORTAL': '0',
            'LANGUAGE': 'C',
            'LANG': 'C.UTF-8',
            'LC_ALL': 'C.UTF-8',
        })
        # On these machines ASan cannot unmap a finished thread's signal stack
        # ("unable to unmap") and aborts a sanitized build; the UI test does not
        # need stack-overflow reports.
        env.setdefault('ASAN_OPTIONS', 'use_sigaltstack=0')
        env.update(self.extra_env)
        self.stderr_path = os.path.join(scratch_dir(), f'{self.name}-stderr-{self.runs}.log')
        stderr = open(self.stderr_path, 'w')
        log(f'  starting {self.executable} {" ".join(self.args)}'.rstrip())
        self.process = subprocess.Popen([self.executable] + self.args, env=env,
                                        stdin=subprocess.DEVNULL, stdout=stderr,
                                        stderr=stderr)
        stderr.close()
        pid = self.process.pid

        def lookup():
            if self.process.poll() is not None:
                raise Failure(f'{self.executable} exited with status {self.process.returncode} '
                              f'before its window appeared:\n{self.stderr()}')
            for a in _safe(lambda: list(tree.root.applications()), []) or []:
                if _safe(lambda: a.get_process_id()) == pid:
                    return a
            return None

        self.node = wait_until(lookup, timeout, f'the application (pid {pid}) on the accessibility bus')
        self.window = wait_until(
            lambda: next((w for w in _safe(lambda: list(self.node.children), []) or []
                          if role_of(w) in ('frame', 'window', 'dialog') and is_showing(w)), None),
            timeout, 'the main window to show')
        log(f'  the application is {describe(self.node)}, main window {describe(self.window)}')
        return self

    def stop(self):
        """Asks the application to quit (SIGTERM, which it handles as Quit) and
        returns its exit status: 0 when it ended by itself, negative when a signal
        ended it (a crash on the way out, or the kill after 10 s)."""
        if self.process is None:
            return None
        if self.process.poll() is None:
            self.process.send_signal(signal.SIGTERM)
            try:
                self.process.wait(10)
            except subprocess.TimeoutExpired:
                self.process.kill()
                self.process.wait()
        status = self.process.returncode
        self.process = None
        self.node = None
        return status

    def restart(self, timeout=60):
        self.stop()
        return self.start(timeout)

    def alive(self):
        return self.process is not None and self.process.poll() is None

    def stderr(self):
        if not self.stderr_path or not os.path.exists(self.stderr_path):
            return ''
        with open(self.stderr_path, errors='replace') as f:
            return f.read()

    # Everything a person sees belongs to one of the application's windows.
    def windows(self):
        return [w for w in _safe(lambda: list(self.node.children), []) or [] if is_showing(w)]

    def find(self, role=None, name=None, **kwargs):
        """Searches every window of the application: dialogs are windows of
        their own, popovers live under the widget that opened them."""
        return find(self.node, role, name, **kwargs)

    def status(self):
        """The status line's text (its label found once, again when gone)."""
        node = getattr(self, '_status', None)
        if node is None or role_of(node) == '':
            node = self._status = self.find(None, 'Status', timeout=10, what='the label "Status"')
        return text_of(node)

    def wait_status(self, pattern, timeout, what):
        return wait_until(lambda: re.search(pattern, self.status()), timeout,
                          lambda: f'{what} (status: {self.status()!r})')

    def metrics(self):
        """The text of the metrics under the parameters."""
        texts = [text_of(n) for n in find_all(self.window, lambda n: name_of(n) == 'Metrics')]
        return '\n'.join(t for t in texts if t)

    def button(self, name, **kwargs):
        return self.find(('push button', 'toggle button'), name, **kwargs)

    def press(self, name, **kwargs):
        """Finds a push or toggle button by name and presses it."""
        node = self.button(name, **kwargs)
        log(f'  press {describe(node)}')
        click(node)
        return node

    def open_file(self, path, item='Open…', menu='Dataset', choices=(), accept='Open'):
        """Dataset ▸ Open… (or another item of that menu that opens a file
        chooser), then the path typed into the chooser's location entry
        (ctrl+L), as a person would. choices: (what a choice of the chooser
        shows, what to choose in it) pairs, chosen before the button named
        accept."""
        self.choose_menu_item(menu, item)
        chooser = wait_until(lambda: next((w for w in self.windows() if w != self.window), None),
                             15, 'the file chooser')
        log(f'  file chooser {describe(chooser)}')
        time.sleep(0.5)
        key_combo('<Control>l')

        def location_entry():
            entries = find_all(chooser, lambda n: role_of(n) in ('text', 'entry')
                               and 'Search' not in name_of(n) and 'Connect' not in name_of(n))
            return entries[0] if entries else None
        entry = wait_until(location_entry, 10, 'the location entry after ctrl+L')
        log(f'  type {path!r} into {describe(entry)}')
        set_text(entry, path)
        for shown, wanted in choices:
            # The choices' drop-downs have no names of their own: found by what they show.
            combo = find(chooser, 'combo box', pred=lambda n: any(
                role_of(c) == 'label' and text_of(c) == shown for _, c in walk(n)),
                what=f'the chooser\'s choice showing {shown!r}')
            self.select_dropdown(combo, wanted)
        click(find(chooser, ('push button',), accept, pred=lambda n: has_action(n, 'click')))
        wait_until(lambda: chooser not in self.windows(), 10, 'the file chooser to close')

    def choose_menu_item(self, menu_button, item, timeout=10, also=()):
        """Opens a menu button and activates one of its items. Items named as in
        also are accepted too, as a contract violation, so the rest still runs."""
        click(self._pressable(menu_button, timeout)[1])
        names = [item] + list(also)
        entry = self.find(('menu item', 'check menu item', 'radio menu item', 'push button'),
                          pred=lambda n: any(name_matches(name_of(n), x) for x in names),
                          timeout=timeout, what=f'a menu item named {item!r}')
        log(f'  choose {describe(entry)}')
        if not name_matches(name_of(entry), item):
            violation(f'the menu item is named {name_of(entry)!r}, not {item!r} '
                      f'(under {menu_button!r})')
        click(entry)
        return entry

    def _pressable(self, name, timeout):
        """(the node called name, the button that takes the click): a GtkMenuButton
        is a named container around a toggle button that GTK 4.8 names after its
        label ("blobs"), not after the menu button."""
        outer = name if not isinstance(name, str) else \
            self.find(('push button', 'toggle button', 'combo box'), name, timeout=timeout)
        inner = outer
        if not has_action(outer, 'click'):
            buttons = find_all(outer, lambda n: role_of(n) in ('push button', 'toggle button')
                               and has_action(n, 'click'))
            if buttons:
                inner = buttons[0]
        log(f'  open {describe(outer)}' + (f' via {describe(inner)}' if inner is not outer else ''))
        return outer, inner

    def select_dropdown(self, name, item, timeout=10):
        """Opens the dropdown (GtkDropDown or combo box) called name and picks item
        with the keyboard, as a person would: the arrows from the focused row, then
        Return. (GTK 4.8 places a popover's rows relative to the popover, not the
        window, so a mouse click would need the popover's own origin.)"""
        combo, opener = self._pressable(name, timeout)
        click(opener)
        roles = ('menu item', 'list item', 'table cell', 'label')
        try:
            entry = self.find(roles, item, pred=_in_popup, timeout=min(3, timeout))
        except Failure:
            # A long list makes its rows only as they scroll into view, as a
            # person scrolls to them: End shows the last ones.
            wait_until(lambda: find_all(combo, lambda n: role_of(n) in ('list item', 'table cell')) or None,
                       timeout, f'the rows of the dropdown {name!r}')
            time.sleep(0.5)
            press_key('End')
            entry = self.find(roles, item, pred=_in_popup, timeout=timeout)
        log(f'  choose {describe(entry)}')
        if has_action(entry, 'click'):
            click(entry)
            return entry
        row = entry
        while row is not None and role_of(row) not in ('list item', 'table cell'):
            row = _safe(lambda: row.parent)
        if row is None:
            raise Failure(f'{describe(entry)} is in no list row of the dropdown {name!r}')
        rows = [r for r in _safe(lambda: list(row.parent.children), []) or []
                if role_of(r) == role_of(row)]

        def has_state(r, state):
            # libatspi may keep a row's focus from the popup's last opening.
            _safe(r.clear_cache)
            return bool(_safe(lambda: r.getState().contains(state), False))

        def focused():
            return next((i for i, r in enumerate(rows) if has_state(r, pyatspi.STATE_FOCUSED)), None)

        # The popup marks a row focused a little before it takes the keyboard (and
        # a row keeps that mark from the last time it was open), so give it a
        # moment, then check every key for its effect and press it again if lost.
        target = rows.index(row)
        try:
            wait_until(lambda: focused() is not None, 2, 'a row to take the focus')
        except Failure:
            # A drop-down with a search entry may open with the entry focused
            # (GTK 4.8 does from the second opening on): Down enters the list.
            press_key('Down')
        wait_until(lambda: focused() is not None, timeout,
                   f'a row of the dropdown {name!r} to take the focus')
        time.sleep(0.5)
        deadline = time.monotonic() + timeout
        while focused() != target:
            if time.monotonic() > deadline:
                raise Failure(f'the arrows did not reach row {target} of the dropdown {name!r} '
                              f'(focus on row {focused()})')
            before = focused()
            press_key('Down' if target > before else 'Up')
            try:
                wait_until(lambda: focused() != before, 1, 'the focus to move')
            except Failure:
                pass   # lost; the loop presses it again
        # A closed popup's nodes keep their last states in the cache; ask the
        # combo box afresh whether it still holds visible rows.
        def closed():
            return not find_all(combo, lambda n: role_of(n) == role_of(row))
        # Up moves the focus without the selection in GTK 4.8, and Return chooses
        # the selected row: Space selects the focused one first.
        time.sleep(0.3)
        press_key('space')
        for _ in range(3):
            time.sleep(0.3)
            press_key('Return')
            try:
                wait_until(closed, 2, f'the dropdown {name!r} to close')
                break
            except Failure:
                continue
        else:
            raise Failure(f'Return did not choose {item!r} in the dropdown {name!r}')
        return entry

    def focus_window(self):
        """Gives the main window the keyboard focus: Xvfb has no window manager,
        so keys go where the pointer is; click a spot that does nothing."""
        spot = self._neutral_spot()
        raw_click(spot)
        time.sleep(0.3)

    def _neutral_spot(self):
        title = name_of(self.window)
        labels = find_all(self.window, lambda n: role_of(n) == 'label' and name_of(n) == title)
        return labels[0] if labels else self.window

    def screenshot(self, path, node=None):
        return screenshot(path, node)

    def save_artifacts(self, label):
        """Screenshot, stderr and accessibility tree of the failing moment."""
        out = artifacts_dir()
        saved = []
        try:
            saved.append(screenshot(os.path.join(out, f'{label}.png')))
        except Exception as e:  # noqa: BLE001 — best effort on the way out
            log(f'  (no screenshot: {e})')
        path = os.path.join(out, f'{label}-stderr.log')
        with open(path, 'w') as f:
            f.write(self.stderr())
        saved.append(path)
        if self.node is not None:
            path = os.path.join(out, f'{label}-tree.txt')
            with open(path, 'w') as f:
                f.write(_safe(lambda: dump_tree(self.node), '(tree unavailable)'))
            saved.append(path)
        return saved


def _in_popup(node):
    current = node
    while current is not None:
        if role_of(current) in ('menu', 'list', 'list box', 'popup menu', 'window', 'dialog'):
            return True
        current = _safe(lambda: current.parent)
    return False


def run_steps(label, app, steps):
    """Runs (description, function) pairs in order, printing each; on the first
    failure saves artifacts and exits 1. Exits 0 after the last step."""
    total = len(steps)
    for index, (description, function) in enumerate(steps, 1):
        log(f'step {index}/{total}: {description}')
        started = time.monotonic()
        try:
            function()
        except Exception as e:  # noqa: BLE001 — every failure is reported the same way
            log(f'FAIL at step {index}/{total} ({description}): {e}')
            traceback.print_exc(file=sys.stdout)
            if violations:
                log('  contract notes so far:')
                for v in violations:
                    log(f'  - {v}')
            for path in app.save_artifacts(label):
                log(f'  saved {path}')
            stderr = app.stderr()
            if stderr:
                log('  --- application stderr (last 40 lines) ---')
                for line in stderr.splitlines()[-40:]:
                    log(f'  | {line}')
            app.stop()
            sys.exit(1)
        log(f'  ok ({time.monotonic() - started:.1f} s)')
    if violations:
        log(f'all {total} steps ran, but the accessibility contract was broken:')
        for v in violations:
            log(f'  - {v}')
        app.stop()
        sys.exit(1)
    log(f'all {total} steps passed')


def run_and_quit(label, app, steps):
    """run_steps, then Quit: the exit status for sys.exit, 1 when the
    application did not end cleanly when asked to quit."""
    run_steps(label, app, steps)
    status = app.stop()
    if status != 0:
        log(f'FAIL: the application exited with status {status} when asked to quit')
        return 1
    return 0


def changed_box(before, after, below=0):
    """The bounding box (x0, y0, x1, y1) of the pixels that differ between two
    screenshots of the same size, from row @below down, or None."""
    diff_path = os.path.join(scratch_dir(), 'diff.png')
    if below > 0:
        for name in ('before', 'after'):
            path = os.path.join(scratch_dir(), f'changed-{name}.png')
            subprocess.run([CONVERT, before if name == 'before' else after, '-crop', f'+0+{below}', '+repage', path],
                           check=True, capture_output=True)
            before, after = (path, after) if name == 'before' else (before, path)
    diff = subprocess.run(['/usr/bin/compare', '-metric', 'AE', '-fuzz', '5%', before, after,
                           '-compose', 'src', diff_path], capture_output=True, text=True)
    trim = subprocess.run([CONVERT, diff_path, '-fuzz', '5%', '-trim', 'info:'],
                          capture_output=True, text=True).stdout
    m = re.search(r' (\d+)x(\d+) \d+x\d+\+(\d+)\+(\d+)', trim)
    if not m or diff.returncode == 0:
        return None
    w, h, x, y = map(int, m.groups())
    return x, y + below, x + w, y + below + h
