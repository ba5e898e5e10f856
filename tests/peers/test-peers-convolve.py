#!/usr/bin/python3
# test-peers-convolve.py — Latent's convolution against OpenCV's filter2D and sepFilter2D
#
# SPDX-License-Identifier: GPL-3.0-or-later
#
# Usage: /usr/bin/python3 tests/peers/test-peers-convolve.py BUILD_DIR
#
# Runs BUILD_DIR/tests/bench/latent-bench-convolve on raw float32 planes
# and compares every OpenCL method (direct, tiled, separable, fft, auto) and
# the C reference with OpenCV on the
# same data: filter2D for any kernel, sepFilter2D with the 1-D factors for
# separable ones, with the matching border (clamp = BORDER_REPLICATE, mirror
# = BORDER_REFLECT_101, zero = BORDER_CONSTANT 0; wrap, which filter2D does
# not offer, as copyMakeBorder(BORDER_WRAP) then the inner part). Images: a
# photograph (scikit-learn's china.jpg, read by OpenCV; a synthetic
# photograph-like picture when it is missing) in colour and grey, and
# uniform random data. Every value must agree within 1e-4 absolute.
# Exit 0 on success, 1 on a failed comparison, 77 (skip) without OpenCV.

import os
import subprocess
import sys
import tempfile
from pathlib import Path

SKIP = 77
ABS_MAX = 1e-4

try:
    import cv2
    import numpy as np
except ImportError as e:
    print(f"test-peers-convolve: SKIP: OpenCV and NumPy are needed ({e})")
    sys.exit(SKIP)

BORDERS = {
    "clamp": cv2.BORDER_REPLICATE,
    "mirror": cv2.BORDER_REFLECT_101,
    "zero": cv2.BORDER_CONSTANT,
    "wrap": cv2.BORDER_WRAP,
}


def photograph():
    """china.jpg (427 × 640) as float32 RGB in [0, 1], or a stand-in."""
    try:
        import sklearn.datasets
        path = Path(sklearn.datasets.__file__).parent / "images" / "china.jpg"
        bgr = cv2.imread(str(path), cv2.IMREAD_COLOR)
        if bgr is not None:
            return "china.jpg", cv2.cvtColor(bgr, cv2.COLOR_BGR2RGB).astype(np.float32) / 255.0
    except ImportError:
        pass
    # Smooth shading, hard edges, texture and 8-bit quantisation.
    h, w = 427, 640
    y, x = np.mgrid[0:h, 0:w].astype(np.float32)
    rng = np.random.default_rng(1)
    img = np.stack([0.5 + 0.4 * np.sin(x / 37.0 + c) * np.cos(y / 23.0 - c) for c in range(3)], axis=-1)
    img[(x - 300) ** 2 + (y - 200) ** 2 < 90 ** 2] = (0.9, 0.2, 0.1)
    img[100:180, 40:260] = (0.1, 0.3, 0.8)
    img += rng.normal(0, 0.03, img.shape)
    return "synthetic photograph", np.round(np.clip(img, 0, 1) * 255).astype(np.float32) / 255.0


def gaussian_1d(sigma, size):
    r = size // 2
    g = np.exp(-np.arange(-r, r + 1, dtype=np.float64) ** 2 / (2 * sigma * sigma))
    return g / g.sum()


def kernels():
    """(name, weights (float32), divisor, offset, 1-D factors or None)."""
    rng = np.random.default_rng(7)
    out = []
    for size, sigma in ((5, 1.0), (15, 2.5), (31, 5.0)):
        g = gaussian_1d(sigma, size)
        out.append((f"gaussian{size}", np.outer(g, g).astype(np.float32), 1.0, 0.0, (g, g)))
    out.append(("box7", np.ones((7, 7), np.float32), 49.0, 0.0, (np.ones(7), np.ones(7))))
    out.append(("sobel-x", np.array([[-1, 0, 1], [-2, 0, 2], [-1, 0, 1]], np.float32), 1.0, 0.5,
                (np.array([-1.0, 0, 1]), np.array([1.0, 2, 1]))))
    out.append(("sharpen", np.array([[0, -1, 0], [-1, 5, -1], [0, -1, 0]], np.float32), 1.0, 0.0, None))
    out.append(("laplacian", np.array([[0, 1, 0], [1, -4, 1], [0, 1, 0]], np.float32), 1.0, 0.5, None))
    out.append(("emboss", np.array([[-2, -1, 0], [-1, 1, 1], [0, 1, 2]], np.float32), 1.0, 0.0, None))
    for size in (5, 15, 31):
        w = rng.uniform(0, 1, (size, size)).astype(np.float32)
        out.append((f"random{size}", w, float(w.astype(np.float64).sum()), 0.0, None))
    w = rng.uniform(-1, 1, (9, 9)).astype(np.float32)
    out.append(("signed9", w, float(np.abs(w.astype(np.float64)).sum()), 0.25, None))
    return out


def write_kernel(path, w, divisor, offset):
    with open(path, "w") as f:
        f.write(f"divisor = {divisor!r}\noffset = {offset!r}\n")
        for row in w:
            f.write(" ".join(f"{v:.9g}" for v in row) + "\n")


def opencv(img, w, divisor, offset, factors, border):
    """OpenCV's answer: float64 kernel, float32 image, per channel."""
    r = w.shape[0] // 2
    k = w.astype(np.float64) / divisor
    src = img
    if border == "wrap":
        src = cv2.copyMakeBorder(img, r, r, r, r, cv2.BORDER_WRAP)
    flag = BORDERS[border] if border != "wrap" else cv2.BORDER_CONSTANT
    if factors is not None:
        row, col = factors
        out = cv2.sepFilter2D(src, cv2.CV_32F, np.asarray(row, np.float64), np.asarray(col, np.float64) / divisor,
                              delta=offset, borderType=flag)
    else:
        out = cv2.filter2D(src, cv2.CV_32F, k, delta=offset, borderType=flag)
    if border == "wrap":
        out = out[r:-r or None, r:-r or None]
    return out.reshape(img.shape)


def ours(bench, tmp, img, kernel_path, border, method):
    h, w = img.shape[:2]
    c = 1 if img.ndim == 2 else img.shape[2]
    planes = img.reshape(h, w, c).transpose(2, 0, 1).astype("<f4")
    src, dst = tmp / "in.f32", tmp / "out.f32"
    planes.tofile(src)
    args = [str(bench), "--input", str(src), "--output", str(dst), "--width", str(w), "--height", str(h),
            "--channels", str(c), "--kernel", str(kernel_path), "--border", border]
    args += ["--reference"] if method == "reference" else ["--method", method]
    p = subprocess.run(args, capture_output=True, text=True, timeout=600)
    if p.returncode != 0:
        raise AssertionError(f"{' '.join(args)} failed: {p.stderr.strip()}")
    out = np.fromfile(dst, "<f4").reshape(c, h, w).transpose(1, 2, 0)
    return out.reshape(img.shape)


def main():
    if len(sys.argv) != 2:
        sys.exit("usage: test-peers-convolve.py BUILD_DIR")
    bench = Path(sys.argv[1]) / "tests" / "bench" / "latent-bench-convolve"
    if not bench.exists():
        print(f"test-peers-convolve: {bench} is missing; build it first", file=sys.stderr)
        return 1
    env_device = os.environ.get("LATENT_OPENCL", "auto")
    print(f"test-peers-convolve: OpenCV {cv2.__version__}, NumPy {np.__version__}, device {env_device}")

    name, photo = photograph()
    rng = np.random.default_rng(3)
    images = [
        (name, photo),
        (name + " grey", cv2.cvtColor(photo, cv2.COLOR_RGB2GRAY)),
        ("random 257 × 193", rng.uniform(0, 1, (193, 257)).astype(np.float32)),
        ("random 64 × 48 × 4", rng.uniform(0, 1, (48, 64, 4)).astype(np.float32)),
    ]

    failures = 0
    checks = 0
    with tempfile.TemporaryDirectory() as tmpdir:
        tmp = Path(tmpdir)
        for kname, w, divisor, offset, factors in kernels():
            kernel_path = tmp / f"{kname}.txt"
            write_kernel(kernel_path, w, divisor, offset)
            for iname, img in images:
                # The photograph in colour carries every border and method;
                # the others a share, to keep the run short.
                borders = list(BORDERS) if iname == name else ["mirror", "wrap"]
                methods = ["direct", "tiled", "fft"] + (["separable"] if factors is not None else [])
                if iname.startswith("random 257"):
                    methods.append("auto")
                if iname.startswith("random 64"):
                    methods.append("reference")
                for border in borders:
                    expected = opencv(img, w, divisor, offset, factors, border)
                    for method in methods:
                        got = ours(bench, tmp, img, kernel_path, border, method)
                        worst = float(np.max(np.abs(got.astype(np.float64) - expected)))
                        checks += 1
                        status = "ok" if worst <= ABS_MAX else "FAIL"
                        if worst > ABS_MAX:
                            failures += 1
                        print(f"{status}: {iname}, {kname}, {border}, {method}: max |Δ| = {worst:.2e}",
                              flush=True)

    print(f"test-peers-convolve: {checks - failures} of {checks} comparisons within {ABS_MAX}")
    return 1 if failures else 0


if __name__ == "__main__":
    sys.exit(main())
