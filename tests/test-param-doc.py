#!/usr/bin/python3
# test-param-doc.py — docs/PARAMETERS.md is what `latent-cli params --markdown` prints.
#
# SPDX-License-Identifier: GPL-3.0-or-later
#
# Usage: test-param-doc.py LATENT_CLI
#
# Both come from the algorithms' own parameter tables; a parameter added,
# renamed or given another default without the file regenerated fails here:
#   build/app/latent-cli params --markdown > docs/PARAMETERS.md

import difflib
import os
import subprocess
import sys

SRCDIR = os.path.dirname(os.path.dirname(os.path.abspath(__file__)))

env = dict(os.environ, LANGUAGE="C", LC_ALL="C.UTF-8")
p = subprocess.run([sys.argv[1], "params", "--markdown"], capture_output=True, text=True, env=env, timeout=60)
if p.returncode != 0:
    sys.exit(f"latent-cli params --markdown: exit {p.returncode}: {p.stderr}")
with open(os.path.join(SRCDIR, "docs", "PARAMETERS.md"), encoding="utf-8") as f:
    kept = f.read()
if kept != p.stdout:
    sys.stdout.writelines(difflib.unified_diff(kept.splitlines(True), p.stdout.splitlines(True),
                                               "docs/PARAMETERS.md", "latent-cli params --markdown"))
    sys.exit("docs/PARAMETERS.md is stale: latent-cli params --markdown > docs/PARAMETERS.md")
print(f"docs/PARAMETERS.md matches: {p.stdout.count(chr(10) + '| `')} parameters")
