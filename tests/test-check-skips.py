#!/usr/bin/python3
# test-check-skips.py — check-skips.py fails on a skip for a missing tool,
# passes OK runs and a skip for a missing GPU.
#
# SPDX-License-Identifier: GPL-3.0-or-later

import json
import os
import subprocess
import sys
import tempfile
import unittest

SCRIPT = os.path.join(os.path.dirname(os.path.abspath(__file__)), "check-skips.py")


def check(*records):
    with tempfile.NamedTemporaryFile("w", suffix=".json", delete=False) as f:
        for r in records:
            f.write(json.dumps(r) + "\n")
    try:
        return subprocess.run([sys.executable, SCRIPT, f.name], capture_output=True, text=True)
    finally:
        os.unlink(f.name)


class CheckSkips(unittest.TestCase):
    def test_ok_passes(self):
        p = check({"name": "latent:unit / a", "result": "OK", "stdout": ""})
        self.assertEqual(p.returncode, 0, p.stderr)

    def test_missing_tool_fails_and_names_it(self):
        p = check({"name": "latent:ui / input", "result": "OK", "stdout": ""},
                  {"name": "latent:ui / input", "result": "SKIP",
                   "stdout": "SKIP: xdotool is missing (Debian: xdotool)\n"})
        self.assertEqual(p.returncode, 1)
        self.assertIn("latent:ui / input", p.stderr)
        self.assertIn("xdotool is missing", p.stderr)

    def test_gpu_named_elsewhere_excuses_nothing(self):
        p = check({"name": "latent:ui / input", "result": "SKIP",
                   "stdout": "device: NVIDIA GPU\nSKIP: xdotool is missing\n"})
        self.assertEqual(p.returncode, 1)

    def test_missing_gpu_stays_a_skip(self):
        p = check({"name": "latent:opencl / gpu", "result": "SKIP", "stdout": "1..0 # SKIP no GPU device\n"})
        self.assertEqual(p.returncode, 0, p.stderr)


if __name__ == "__main__":
    unittest.main()
