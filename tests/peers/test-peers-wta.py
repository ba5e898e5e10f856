#!/usr/bin/python3
# test-peers-wta.py — latent-cli's winner-take-all autoencoder (wta) against
# the same model in NumPy and, when it imports, PyTorch (tests/peers/wta_numpy.py)
#
# SPDX-License-Identifier: GPL-3.0-or-later
#
# Usage: /usr/bin/python3 tests/peers/test-peers-wta.py path/to/latent-cli
#
# Every side starts from the same weights (drawn by NumPy, given to Latent as
# init=@FILE.json) and trains on the same mini-batches (shuffle=false,
# validation=0: the rows in file order) for 50 steps, for sparsity lifetime
# and k-sparse, tied and untied weights, momentum and Adam (and none, tied,
# momentum), with OpenCL (--device auto) and the C reference (off), on
#   synthetic: 1000 rows × 64 columns of seeded parts-based data in [0, 1]
#              (non-negative mixtures of 12 smooth bumps, plus noise),
#              32 hidden units, batch 20, lifetime rate 0.1 (2 winners),
#              k = 5;
#   fmnist:    the first 2000 Fashion-MNIST training images, 128 hidden
#              units, batch 40, lifetime rate 0.05 (2 winners), k = 11
#              (when Fashion-MNIST is installed).
# Checks, against NumPy and against PyTorch:
#   every step's loss within 1e-3 relative (the last one too, of course);
#   the final weights (encoder, decoder, biases): each matrix within 1e-3
#   relative in the Frobenius norm, and with momentum (and none) every
#   weight within 1e-3 of its matrix's largest; the largest difference and
#   where it is printed. With Adam, at most 0.1 % of the weights may lie
#   beyond that 1e-3: Adam divides a gradient by its own running size, so
#   a weight whose first nonzero gradient is at rounding level (a rarely
#   winning unit whose back-propagated error E·Wdᵀ cancels; seen on
#   Fashion-MNIST, k-sparse, untied: 2e-8 against gradients of 1e-2, of
#   opposite signs in NumPy and PyTorch) takes a step of ±(a fraction of)
#   the learning rate with the rounding's sign. Every implementation is
#   right there; they differ by a few learning rates in a handful of
#   weights (8 of 100,352 in that case), while a 1 % error in the
#   learning rate moves 28 % of them and the Frobenius norm by 3 %.
# The tie rule, on one step (the first batch alone as the data): k-sparse,
# tied with momentum and untied with Adam, from twin units — every odd unit
# a copy of the even one before it — so that where a pair's activation is
# a row's k-th largest, the two tie exactly (twins sort next to each other,
# so k is odd), and the rule (the lower index wins; the peers: a stable
# sort) decides which of the two learns; a wrong rule swaps those units'
# updates. The same checks, and that NumPy saw such ties. One step only:
# after it, an implementation need not keep twins bitwise equal (with
# NumPy's OpenBLAS one pair differed by less than 1e-6 after the first
# step), and the next tie is then decided by rounding on one side and by
# the rule on the other; over 50 steps with Adam that grew to 5e-3 in the
# loss (synthetic and Fashion-MNIST, Latent's both paths against NumPy and
# PyTorch, which agreed with each other).
# Latent's own scaling (input_offset, input_scale from its JSON) is checked
# against the column ranges (or the image maximum) and then used by the
# peers, so both sides train on the same float32 inputs.
#
# NumPy: the peers venv's (tests/peers/setup-venv.sh) when it exists, else
# Debian's; PyTorch only from that venv (or wherever the interpreter finds
# it). The script re-runs itself under the venv's python when there is one
# (LATENT_WTA_PEERS_PYTHON=/usr/bin/python3 keeps Debian's).
# Exit 0 on success, 1 on a failed comparison, 77 (skip) without NumPy.

import gzip
import json
import os
import struct
import subprocess
import sys
import tempfile
from pathlib import Path

SKIP = 77
HERE = Path(__file__).resolve().parent
FASHION_MNIST_DIR = Path(os.environ.get("LATENT_FASHION_MNIST_DIR") or "/usr/share/datasets/fashion-mnist")
VENV = Path(os.environ.get("LATENT_PEERS_VENV") or Path.home() / ".cache" / "latent" / "peers-venv")

LOSS_REL_MAX = 1e-3
WEIGHT_REL_MAX = 1e-3
ADAM_OUTLIERS_MAX = 1e-3
STEPS = 50


def maybe_reexec():
    """Run under the peers venv's python when it exists and has NumPy."""
    want = os.environ.get("LATENT_WTA_PEERS_PYTHON")
    if want is None:
        venv_python = VENV / "bin" / "python"
        if not venv_python.exists():
            return
        want = str(venv_python)
    if os.environ.get("LATENT_WTA_PEERS_REEXEC") or Path(sys.executable) == Path(want):
        return
    ok = subprocess.run([want, "-c", "import numpy"], capture_output=True).returncode == 0
    if not ok:
        print(f"test-peers-wta: {want} has no NumPy; staying on {sys.executable}")
        return
    env = dict(os.environ, LATENT_WTA_PEERS_REEXEC="1")
    sys.stdout.flush()
    os.execve(want, [want, __file__] + sys.argv[1:], env)


maybe_reexec()

try:
    import numpy as np
except ImportError as e:
    print(f"test-peers-wta: SKIP: NumPy is needed ({e})")
    sys.exit(SKIP)

sys.path.insert(0, str(HERE))
import wta_numpy  # noqa: E402


def write_csv(path, x):
    with open(path, "w") as f:
        f.write(",".join(f"c{i}" for i in range(x.shape[1])) + "\n")
        for row in x:
            f.write(",".join(repr(float(v)) for v in row) + "\n")


def write_idx(path, raw):
    path.write_bytes(struct.pack(">IIII", 0x803, raw.shape[0], 28, 28) + raw.tobytes())


def synthetic(tmp, rows=1000, cols=64, parts=12, first=20):
    """Parts-based rows: non-negative sparse mixtures of smooth bumps plus
    noise, clipped to [0, 1] and rounded to 1/1024 so the CSV holds them
    exactly. The file of all rows and the file of the first @first."""
    rng = np.random.default_rng(20240607)
    grid = np.arange(cols)
    centres = rng.uniform(0, cols, parts)
    widths = rng.uniform(2, 6, parts)
    bumps = np.exp(-0.5 * ((grid[None, :] - centres[:, None]) / widths[:, None]) ** 2)
    coef = rng.exponential(0.6, (rows, parts)) * (rng.random((rows, parts)) < 0.3)
    x = coef @ bumps + 0.05 * rng.standard_normal((rows, cols))
    x = (np.round(np.clip(x, 0, 1) * 1024) / 1024).astype(np.float32)
    write_csv(tmp / "synthetic.csv", x)
    write_csv(tmp / f"synthetic-{first}.csv", x[:first])
    return tmp / "synthetic.csv", tmp / f"synthetic-{first}.csv", x, False


def fmnist(tmp, rows=2000, first=40):
    path = FASHION_MNIST_DIR / "train-images-idx3-ubyte.gz"
    if not path.exists():
        return None
    with gzip.open(path) as f:
        raw = np.frombuffer(f.read(), np.uint8, offset=16).reshape(-1, 784)[:rows]
    write_idx(tmp / f"fmnist-{rows}.idx", raw)
    write_idx(tmp / f"fmnist-{first}.idx", raw[:first])
    # latent-cli reads bytes as float32 v / 255.
    return tmp / f"fmnist-{rows}.idx", tmp / f"fmnist-{first}.idx", raw.astype(np.float32) / np.float32(255), True


def expected_scaling(x, image):
    if image:
        top = np.float32(np.abs(x).max())
        scale = np.float32(1) / top if top > 0 else np.float32(1)
        return np.zeros(x.shape[1], np.float32), np.full(x.shape[1], scale, np.float32)
    lo, hi = x.min(axis=0), x.max(axis=0)
    scale = np.where(hi > lo, np.float32(1) / np.where(hi > lo, hi - lo, 1), 1).astype(np.float32)
    return lo.astype(np.float32), scale


def run_latent(cli, data, params, device, init_path, result):
    cmd = [cli, "run", "wta", "--data", str(data), "--device", device, "--json", str(result),
           "--param", f"init=@{init_path}", "--param", "shuffle=false", "--param", "validation=0",
           "--param", "epochs=1"]
    for name, value in params.items():
        if isinstance(value, bool):
            value = "true" if value else "false"
        cmd += ["--param", f"{name}={value}"]
    p = subprocess.run(cmd, capture_output=True, text=True, timeout=900)
    if p.returncode != 0:
        raise AssertionError(f"{' '.join(cmd)} failed: {p.stderr}")
    return json.loads(result.read_text())


def check(failures, label, ok, detail):
    print(f"{'ok  ' if ok else 'FAIL'} {label}: {detail}", flush=True)
    if not ok:
        failures.append(label)


def compare(failures, label, ours, losses, model, adam):
    hist = np.array(ours["history"], np.float64)
    peer = np.array(losses, np.float64)
    if hist.shape != peer.shape:
        check(failures, label + " steps", False, f"Latent ran {hist.size} steps, the peer {peer.size}")
        return
    rel = np.abs(hist - peer) / np.abs(peer)
    worst = int(np.argmax(rel))
    check(failures, label + " loss", rel[-1] < LOSS_REL_MAX,
          f"step {hist.size}: {hist[-1]:.7g} vs {peer[-1]:.7g} ({rel[-1]:.1e})")
    check(failures, label + " every step", rel[worst] < LOSS_REL_MAX,
          f"largest at step {worst + 1}: {hist[worst]:.7g} vs {peer[worst]:.7g} ({rel[worst]:.1e}); "
          f"first step {hist[0]:.7g}")
    theirs = model.result()
    parts = []
    ok = True
    for name in ("weights", "decoder_weights", "hidden_bias", "decoder_bias"):
        if name not in theirs:
            continue
        a = np.asarray(ours[name], np.float64).reshape(np.shape(theirs[name]))
        b = np.asarray(theirs[name], np.float64)
        diff = np.abs(a - b)
        size = float(np.max(np.abs(b)))
        worst = float(np.max(diff))
        where = np.unravel_index(int(np.argmax(diff)), diff.shape)
        beyond = int(np.sum(diff > WEIGHT_REL_MAX * size))
        norm = float(np.linalg.norm(a - b) / np.linalg.norm(b))
        ok &= norm <= WEIGHT_REL_MAX
        if adam:
            ok &= beyond <= ADAM_OUTLIERS_MAX * diff.size
        else:
            ok &= worst <= WEIGHT_REL_MAX * size
        parts.append(f"{name} {worst:.1e} (of {size:.2g}, at {tuple(int(i) for i in where)}; "
                     f"‖Δ‖/‖·‖ {norm:.1e}" + (f", {beyond} beyond 1e-3 of the largest)" if beyond else ")"))
    check(failures, label + " weights", ok, "largest differences " + ", ".join(parts))
    wins = np.asarray(ours["unit_wins"]).reshape(-1)
    their_wins = np.asarray(model.wins).reshape(-1)
    print(f"     {label} wins: {int(np.sum(wins != their_wins))} of {wins.size} units differ "
          f"(largest by {int(np.max(np.abs(wins - their_wins)))})")


# (sparsity, tied, optimizer, twins, steps)
CONFIGS = [(s, tied, opt, False, STEPS) for s in ("lifetime", "k-sparse") for tied in (True, False)
           for opt in ("momentum", "adam")] + [("none", True, "momentum", False, STEPS),
                                                ("k-sparse", True, "momentum", True, 1),
                                                ("k-sparse", False, "adam", True, 1)]


def run_dataset(failures, cli, tmp, name, data, first, x, image, hidden, batch, rate, k, use_torch):
    d = x.shape[1]
    assert x.shape[0] // batch == STEPS and k % 2 == 1
    rng = np.random.default_rng(7)
    for sparsity, tied, optimizer, twins, steps in CONFIGS:
        params = {"hidden": hidden, "batch": batch, "sparsity": sparsity, "rate": rate, "k": k, "tied": tied,
                  "optimizer": optimizer, "learning-rate": 0.01 if optimizer == "momentum" else 0.001,
                  "momentum": 0.9}
        init = wta_numpy.random_init(rng, hidden, d, tied, sigma=0.05)
        # Biases away from zero, so they too are compared from a start of their own.
        init["hidden_bias"] = (0.01 * rng.standard_normal(hidden)).astype(np.float32)
        init["decoder_bias"] = (0.1 * rng.random(d)).astype(np.float32)
        if twins:
            for member in ("weights", "decoder_weights", "hidden_bias"):
                if member in init:
                    init[member][1::2] = init[member][0::2]
        case = f"{name}-{sparsity}-{tied}-{optimizer}{'-twins' if twins else ''}"
        init_path = tmp / f"init-{case}.json"
        init_path.write_text(json.dumps(wta_numpy.to_json(init)))
        rows = steps * batch
        batches = wta_numpy.in_order(rows, batch, steps)
        for device in ("auto", "off"):
            label = (f"{name} {sparsity} {'tied' if tied else 'untied'} {optimizer}"
                     f"{' twins, one step' if twins else ''} {device}")
            ours = run_latent(cli, data if steps == STEPS else first, params, device, init_path,
                              tmp / f"out-{case}-{device}.json")
            offset = np.asarray(ours["input_offset"], np.float32).reshape(-1)
            scale = np.asarray(ours["input_scale"], np.float32).reshape(-1)
            want_offset, want_scale = expected_scaling(x[:rows], image)
            check(failures, label + " scaling",
                  np.array_equal(offset, want_offset) and np.allclose(scale, want_scale, rtol=1e-6, atol=0),
                  f"offset {offset.min():.4g}…{offset.max():.4g}, scale {scale.min():.6g}…{scale.max():.6g}")
            xs = wta_numpy.scale_rows(x[:rows], offset, scale)
            model = wta_numpy.WtaNumpy(init, params)
            losses = wta_numpy.train(model, xs, batches)
            compare(failures, label + " vs NumPy", ours, losses, model, optimizer == "adam")
            if twins:
                check(failures, label + " ties", sum(model.ties) > 0,
                      f"{sum(model.ties)} of {batch} rows with a twin pair tied at the last winner's place")
            if use_torch:
                tmodel = wta_numpy.WtaTorch(init, params)
                tlosses = wta_numpy.train(tmodel, xs, batches)
                compare(failures, label + " vs PyTorch", ours, tlosses, tmodel, optimizer == "adam")


def main():
    if len(sys.argv) != 2:
        print("usage: test-peers-wta.py LATENT_CLI", file=sys.stderr)
        return 2
    cli = sys.argv[1]
    use_torch = wta_numpy.torch_available()
    versions = f"NumPy {np.__version__} ({np.__file__})"
    if use_torch:
        import torch
        versions += f", PyTorch {torch.__version__}"
    else:
        versions += ", no PyTorch"
    print(f"test-peers-wta: {sys.executable}: {versions}")
    failures = []
    with tempfile.TemporaryDirectory() as d:
        tmp = Path(d)
        data, first, x, image = synthetic(tmp, first=20)
        run_dataset(failures, cli, tmp, "synthetic", data, first, x, image, 32, 20, 0.1, 5, use_torch)
        found = fmnist(tmp, first=40)
        if found is None:
            print("Fashion-MNIST is not installed: synthetic data only")
        else:
            data, first, x, image = found
            run_dataset(failures, cli, tmp, "fmnist-2000", data, first, x, image, 128, 40, 0.05, 11, use_torch)
    if failures:
        print(f"{len(failures)} comparisons failed: {', '.join(failures)}")
        return 1
    return 0


if __name__ == "__main__":
    sys.exit(main())
