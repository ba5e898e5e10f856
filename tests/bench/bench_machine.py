# bench_machine.py — facts about the machine a benchmark ran on, for its
# first JSON line, and where the peers' Python is; shared by the bench-*.py
# drivers.
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


def threadpools():
    """The BLAS and OpenMP pools loaded in this Python, as threadpoolctl
    finds them (which OpenBLAS kernel runs: "Prescott", "SkylakeX"), or
    None without threadpoolctl."""
    try:
        from threadpoolctl import threadpool_info
    except ImportError:
        return None
    return [{key: pool.get(key) for key in ("user_api", "internal_api", "num_threads", "version", "architecture")}
            for pool in threadpool_info()]


def machine_record(**settings):
    """The first JSON line of a benchmark: where it ran and with what."""
    import os
    return {"bench": "machine", "cpu": cpu_model(), "nproc": os.cpu_count(), "memory_gib": mem_total_gib(),
            "os": os_name(), "kernel": platform.release(), "commit": git_commit(), "settings": settings}


def peers_python():
    """The peers venv's python (tests/peers/setup-venv.sh), or None."""
    import os
    venv = os.environ.get("LATENT_PEERS_VENV") or os.path.expanduser("~/.cache/latent/peers-venv")
    py = os.path.join(venv, "bin", "python")
    return py if os.path.exists(py) else None


def torch_python():
    """A python whose torch imports: $LATENT_TORCH_VENV's (default
    ~/.cache/latent/torch-venv, PyTorch's 5 GB kept apart), else the peers
    venv's; None without one."""
    import os
    venv = os.environ.get("LATENT_TORCH_VENV") or os.path.expanduser("~/.cache/latent/torch-venv")
    for py in (os.path.join(venv, "bin", "python"), peers_python()):
        if py and os.path.exists(py) and subprocess.run([py, "-c", "import torch"],
                                                         capture_output=True).returncode == 0:
            return py
    return None


def fashion_mnist_all():
    """All 70,000 Fashion-MNIST images (training then test), float32 in [0, 1]."""
    import gzip
    import os
    import numpy as np
    path = os.environ.get("LATENT_FASHION_MNIST_DIR", "/usr/share/datasets/fashion-mnist")
    out = []
    for name in ("train-images-idx3-ubyte.gz", "t10k-images-idx3-ubyte.gz"):
        with gzip.open(os.path.join(path, name)) as f:
            raw = np.frombuffer(f.read(), dtype=np.uint8, offset=16)
        out.append(raw.reshape(-1, 784).astype(np.float32) / 255)
    return np.concatenate(out)

