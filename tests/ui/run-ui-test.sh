#!/bin/bash
# run-ui-test.sh — runs one UI test script against the real window under Xvfb + AT-SPI
#
# SPDX-License-Identifier: GPL-3.0-or-later
#
#   run-ui-test.sh LATENT_EXECUTABLE TEST_SCRIPT [ARGS…]
#
# Everything runs inside a private D-Bus session with private HOME/XDG dirs, so the
# person's own settings and session are never touched. The test script (Python +
# dogtail, or a .sh) starts the application itself, from $LATENT_EXECUTABLE, and
# finds a scratch directory in $LATENT_UI_TMPDIR. Exit status is the test's; 77
# (skip) when a tool is missing.
#
#   LATENT_UI_TIMEOUT  seconds for the whole run (default 300)
#   LATENT_UI_KEEP=1   keep the temporary directory (logs of Xvfb and AT-SPI)

# Functions run from traps look unreachable to shellcheck.
# shellcheck disable=SC2317
set -u

PYTHON=${LATENT_UI_PYTHON:-/usr/bin/python3}
TIMEOUT=${LATENT_UI_TIMEOUT:-300}

log () { printf 'run-ui-test: %s\n' "$*" >&2; }
skip () { printf 'run-ui-test: SKIP: %s\n' "$*"; exit 77; }

# Every pid below $1, except $2 and what is below it (the subshell doing the listing).
tree_below () {
  ps -e -o pid=,ppid= | awk -v root="$1" -v prune="$2" '
    { parent[$1] = $2 }
    END {
      for (p in parent) {
        q = p
        while (q != root && q != prune && (q in parent) && q > 1)
          q = parent[q]
        if (q == root && p != root)
          print p
      }
    }'
}

# TERM, then KILL, whatever still runs below this shell — only our own processes.
kill_below () {
  local rest
  for _ in 1 2 3 4 5 6 7 8 9 10; do
    rest=$(tree_below $$ "$BASHPID")
    [ -z "$rest" ] && return 0
    # shellcheck disable=SC2086
    kill $rest 2>/dev/null
    sleep 0.2
  done
  rest=$(tree_below $$ "$BASHPID")
  # shellcheck disable=SC2086
  [ -n "$rest" ] && kill -9 $rest 2>/dev/null
  return 0
}

if [ "${1:-}" != "--inner" ]; then
  # Outer half: check the tools, make the private directories, then re-enter this
  # script inside a private session bus. The environment is set before the bus
  # starts because D-Bus activates services (dconf!) with the bus's environment.
  if [ $# -lt 2 ]; then
    echo "usage: $0 LATENT_EXECUTABLE TEST_SCRIPT [ARGS…]" >&2
    exit 2
  fi
  [ -x "$1" ] || { echo "run-ui-test: $1: not an executable file" >&2; exit 2; }
  [ -r "$2" ] || { echo "run-ui-test: $2: cannot read the test script" >&2; exit 2; }

  for tool in Xvfb dbus-run-session dbus-daemon xauth xwininfo gsettings gdbus timeout ps awk; do
    command -v "$tool" >/dev/null 2>&1 \
      || skip "$tool is missing (Debian: xvfb xauth x11-utils dbus dbus-x11 libglib2.0-bin procps)"
  done
  { [ -x /usr/bin/import ] && [ -x /usr/bin/convert ] && [ -x /usr/bin/identify ]; } \
    || skip "ImageMagick's import/convert are missing (Debian: imagemagick)"
  [ -x /usr/libexec/at-spi-bus-launcher ] \
    || skip "/usr/libexec/at-spi-bus-launcher is missing (Debian: at-spi2-core)"
  [ -x "$PYTHON" ] || skip "$PYTHON is missing (Debian: python3)"
  # find_spec does not run dogtail's import-time accessibility check.
  "$PYTHON" -c 'import importlib.util as u, sys; sys.exit(0 if all(u.find_spec(m) for m in ("dogtail", "pyatspi", "gi")) else 1)' 2>/dev/null \
    || skip "dogtail/pyatspi are missing for $PYTHON (Debian: python3-dogtail python3-pyatspi)"
  gsettings list-keys org.gnome.desktop.interface 2>/dev/null | grep -qx toolkit-accessibility \
    || skip "schema org.gnome.desktop.interface is missing (Debian: gsettings-desktop-schemas)"
  [ -n "$(ls /usr/lib/*/gio/modules/libdconfsettings.so 2>/dev/null)" ] \
    || skip "the dconf GSettings backend is missing (Debian: dconf-gsettings-backend dconf-service); dogtail reads toolkit-accessibility from it"

  exe=$(readlink -f "$1")
  script=$(readlink -f "$2")
  shift 2
  here=$(dirname "$(readlink -f "$0")")

  tmp=$(mktemp -d "${TMPDIR:-/tmp}/latent-ui.XXXXXX") || exit 1
  finish () {
    local status=$?
    trap - EXIT INT TERM HUP
    kill_below
    if [ "${LATENT_UI_KEEP:-0}" = 1 ]; then
      log "kept $tmp"
    else
      rm -rf "$tmp"
    fi
    exit "$status"
  }
  trap finish EXIT
  trap 'exit 143' TERM
  trap 'exit 130' INT
  trap 'exit 129' HUP

  mkdir -p "$tmp/home" "$tmp/config" "$tmp/data" "$tmp/cache" "$tmp/runtime" "$tmp/work"
  chmod 700 "$tmp/runtime"
  export LATENT_UI_ROOT="$tmp"
  export LATENT_UI_TMPDIR="$tmp/work"
  export HOME="$tmp/home"
  export XDG_CONFIG_HOME="$tmp/config"
  export XDG_DATA_HOME="$tmp/data"
  export XDG_STATE_HOME="$tmp/data"
  export XDG_RUNTIME_DIR="$tmp/runtime"
  # The build's cache (compiled OpenCL programs) may be shared; nothing personal there.
  export XDG_CACHE_HOME="${XDG_CACHE_HOME:-$tmp/cache}"
  unset SESSION_MANAGER WAYLAND_DISPLAY GDK_BACKEND AT_SPI_BUS_ADDRESS GSETTINGS_BACKEND \
        DBUS_SESSION_BUS_ADDRESS DISPLAY XAUTHORITY GTK_MODULES DCONF_PROFILE

  # timeout signals its whole process group, so nothing started below outlives it;
  # --kill-after: a test that ignores TERM still dies. & + wait keeps our TERM trap live.
  timeout --kill-after=15 "$TIMEOUT" \
    dbus-run-session -- /bin/bash "$here/run-ui-test.sh" --inner "$exe" "$script" "$@" &
  wait $!
  status=$?
  if [ $status -eq 124 ] || [ $status -eq 137 ]; then
    log "FAIL: timed out after ${TIMEOUT}s"
    exit 1
  fi
  exit $status
fi

# Inner half: the child of dbus-run-session, with the private environment.
shift
exe=$1
script=$2
shift 2
tmp=$LATENT_UI_ROOT

cleanup () {
  local status=$?
  trap - EXIT INT TERM HUP
  kill_below
  exit "$status"
}
trap cleanup EXIT
trap 'exit 143' TERM
trap 'exit 130' INT
trap 'exit 129' HUP

# Xvfb picks a free display itself (-displayfd), so parallel runs never collide.
# The server accepts every cookie in its -auth file whatever display it names.
export XAUTHORITY="$tmp/Xauthority"
cookie=$(mcookie 2>/dev/null || od -An -N16 -tx1 /dev/urandom | tr -d ' \n')
: >"$XAUTHORITY"
xauth -q -f "$XAUTHORITY" add :0 . "$cookie"
Xvfb -displayfd 3 -screen 0 1280x800x24 -nolisten tcp -auth "$XAUTHORITY" \
  3>"$tmp/display" >"$tmp/xvfb.log" 2>&1 &
xvfb=$!
for _ in $(seq 1 100); do
  [ -s "$tmp/display" ] && break
  kill -0 $xvfb 2>/dev/null || break
  sleep 0.1
done
display=$(head -n1 "$tmp/display" 2>/dev/null)
if [ -z "$display" ]; then
  log "Xvfb did not start:"
  cat "$tmp/xvfb.log" >&2
  exit 1
fi
export DISPLAY=":$display"
xauth -q -f "$XAUTHORITY" add "$DISPLAY" . "$cookie"
log "Xvfb on $DISPLAY, temporary files in $tmp"

export GSK_RENDERER=cairo
export GTK_A11Y=atspi
# dogtail refuses to start unless this key is on; it lands in the private dconf.
gsettings set org.gnome.desktop.interface toolkit-accessibility true
if [ "$(gsettings get org.gnome.desktop.interface toolkit-accessibility)" != true ]; then
  log "gsettings could not turn toolkit-accessibility on"
  exit 1
fi

/usr/libexec/at-spi-bus-launcher --launch-immediately >"$tmp/at-spi.log" 2>&1 &
launcher=$!
# Ask whether the name has an owner rather than calling it: a call would make the
# bus activate a second launcher while ours is still starting.
owned=false
for _ in $(seq 1 100); do
  if gdbus call --session --dest org.freedesktop.DBus --object-path /org/freedesktop/DBus \
       --method org.freedesktop.DBus.NameHasOwner org.a11y.Bus 2>/dev/null | grep -q true; then
    owned=true
    break
  fi
  kill -0 $launcher 2>/dev/null || break
  sleep 0.1
done
if [ $owned != true ]; then
  log "the AT-SPI bus did not start:"
  cat "$tmp/at-spi.log" >&2
  exit 1
fi

export LATENT_EXECUTABLE="$exe"
export PYTHONDONTWRITEBYTECODE=1
here=$(dirname "$(readlink -f "$0")")
export PYTHONPATH="$here${PYTHONPATH:+:$PYTHONPATH}"
case "$script" in
  *.sh) /bin/bash "$script" "$@" ;;
  *) "$PYTHON" -u "$script" "$@" ;;
esac
exit $?
