# bench_machine.py — facts about the machine a benchmark ran on, for its
# first JSON line; shared by the bench-*.py drivers.
#
# SPDX-License-Identifier: GPL-3.0-or-later

import platform
import subprocess
from pathlib import Path

SOURCE_ROOT = Path(__file__).resolve().parents[2]


def _first_field(path, prefix):
    """The text after prefix on the first line of path that starts with it."""
    try:
        with open(path) as f:
            for line in f:
                if line.startswith(prefix):
                    return line[len(prefix):].strip()
    except OSError:
        pass
    return None


def cpu_model():
    model = _first_field("/proc/cpuinfo", "model name")
    return model.lstrip(":").strip() if model else platform.processor() or None


def mem_total_gib():
    kib = _first_field("/proc/meminfo", "MemTotal:")
    return round(int(kib.split()[0]) / 2**20, 1) if kib else None


def os_name():
    name = _first_field("/etc/os-release", "PRETTY_NAME=")
    return name.strip('"') if name else None


def git_commit():
    try:
        return subprocess.run(["git", "-C", str(SOURCE_ROOT), "rev-parse", "--short", "HEAD"],
                              capture_output=True, text=True, timeout=10).stdout.strip() or None
    except (OSError, subprocess.TimeoutExpired):
        return None


def machine_record(**settings):
    """The first JSON line of a benchmark: where it ran and with what."""
    import os
    return {"bench": "machine", "cpu": cpu_model(), "nproc": os.cpu_count(), "memory_gib": mem_total_gib(),
            "os": os_name(), "kernel": platform.release(), "commit": git_commit(), "settings": settings}
