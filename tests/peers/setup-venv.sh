#!/bin/sh
# setup-venv.sh — a virtual environment with the current PyPI scikit-learn, NumPy, OpenCV, openTSNE and umap-learn
#
# SPDX-License-Identifier: GPL-3.0-or-later
#
# Usage: tests/peers/setup-venv.sh [--upgrade]
# Location: ${LATENT_PEERS_VENV:-$HOME/.cache/latent/peers-venv}.
# Idempotent: an existing, working venv is reused (and upgraded with --upgrade).
# The last line printed is the venv's python, so callers can do
#   py=$(tests/peers/setup-venv.sh | tail -n 1)

set -eu

here=$(cd "$(dirname "$0")" && pwd)
venv=${LATENT_PEERS_VENV:-${HOME:?HOME is not set}/.cache/latent/peers-venv}
requirements="$here/requirements.txt"
upgrade=no

for arg in "$@"; do
  case "$arg" in
    --upgrade) upgrade=yes ;;
    -h|--help) sed -n '2,11p' "$0"; exit 0 ;;
    *) echo "setup-venv.sh: unknown argument '$arg'" >&2; exit 2 ;;
  esac
done

say () { echo "setup-venv.sh: $*" >&2; }

# Debian's interpreter, never a pyenv or conda one first on PATH: the venv
# must not depend on anything but the distribution.
base=/usr/bin/python3
if [ ! -x "$base" ]; then
  say "$base not found; install Debian's python3 (apt-get install python3)"
  exit 1
fi

# venv needs ensurepip, which Debian ships separately in python3-venv.
if ! "$base" -c 'import venv, ensurepip' >/dev/null 2>&1; then
  if [ "${CI:-}" = true ]; then
    say "installing python3-venv (CI=true)"
    DEBIAN_FRONTEND=noninteractive apt-get install -y -q python3-venv >&2 ||
      { apt-get update -q >&2 && DEBIAN_FRONTEND=noninteractive apt-get install -y -q python3-venv >&2; }
  else
    say "Python's venv module (with ensurepip) is missing; install it with:"
    say "  sudo apt-get install python3-venv"
    exit 1
  fi
fi

py="$venv/bin/python"
stamp="$venv/latent-versions.txt"

# A venv left half-made by an interrupted run, or built from another
# interpreter, is rebuilt rather than trusted.
if [ -x "$py" ] && ! "$py" -c 'import sys' >/dev/null 2>&1; then
  say "$venv is broken; recreating it"
  rm -rf "$venv"
fi

if [ ! -x "$py" ]; then
  say "creating $venv"
  mkdir -p "$(dirname "$venv")"
  "$base" -m venv "$venv" >&2
  rm -f "$stamp"
fi

if [ ! -f "$stamp" ] || [ "$upgrade" = yes ] ||
   ! "$py" -c 'import numpy, sklearn, cv2, openTSNE, umap' >/dev/null 2>&1; then
  say "installing the current releases of $(grep -v '^#' "$requirements" | tr '\n' ' ')"
  "$py" -m pip install --quiet --disable-pip-version-check --upgrade pip >&2
  "$py" -m pip install --quiet --disable-pip-version-check --upgrade -r "$requirements" >&2
  # Record what "current" meant on this day, for the benchmark output.
  "$py" - "$stamp" <<'PY' >&2
import sys, platform, datetime
import numpy, sklearn, cv2, openTSNE, umap
with open(sys.argv[1], "w") as f:
    f.write(f"date {datetime.date.today().isoformat()}\n")
    f.write(f"python {platform.python_version()}\n")
    f.write(f"numpy {numpy.__version__}\n")
    f.write(f"scikit-learn {sklearn.__version__}\n")
    f.write(f"opencv-python-headless {cv2.__version__}\n")
    f.write(f"openTSNE {openTSNE.__version__}\n")
    f.write(f"umap-learn {umap.__version__}\n")
PY
fi

sed 's/^/setup-venv.sh: /' "$stamp" >&2
echo "$py"
