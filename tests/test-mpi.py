#!/usr/bin/python3
# test-mpi.py — one run over several MPI ranks gives one process's answer
#
# Usage: test-mpi.py LATENT_CLI MPIRUN
#
# Each algorithm whose iteration is a pass over the rows runs under
# `mpirun -np 1`, `-np 2` and `-np 3` (more ranks than cores: oversubscribed)
# from the same seed; the results must agree within float summation order:
# the same iterations and labels, every number within a relative 1e-6.
# A rank killed in the middle ends the job, with its rank named, not a hang.
#
# SPDX-License-Identifier: GPL-3.0-or-later

import json
import os
import signal
import struct
import subprocess
import sys
import tempfile
import time
import unittest

from compare_results import png_pixels, agree, write_npy

CLI, MPIRUN = sys.argv[1], sys.argv[2]
del sys.argv[1:3]

ENV = dict(os.environ, OMPI_ALLOW_RUN_AS_ROOT="1", OMPI_ALLOW_RUN_AS_ROOT_CONFIRM="1",
           LATENT_OPENCL="off", OMPI_MCA_btl="self,vader", OMPI_MCA_rmaps_base_oversubscribe="1")


def mpirun(np, *args, timeout=300):
    return subprocess.run([MPIRUN, "--oversubscribe", "-np", str(np), CLI, "run", *args],
                          capture_output=True, text=True, env=ENV, timeout=timeout)


class Ranks(unittest.TestCase):
    def setUp(self):
        self.tmp = tempfile.TemporaryDirectory()

    def tearDown(self):
        self.tmp.cleanup()

    def results(self, algorithm, *args):
        out = {}
        for np in (1, 2, 3):
            path = os.path.join(self.tmp.name, f"{algorithm}-{np}.json")
            p = mpirun(np, algorithm, *args, "--seed", "7", "--json", path)
            self.assertEqual(p.returncode, 0, f"-np {np}: {p.stderr}")
            with open(path) as f:
                out[np] = json.load(f)
        return out

    def check(self, algorithm, *args):
        out = self.results(algorithm, *args)
        for np in (2, 3):
            self.assertIsNone(agree(out[1], out[np], 1e-6, 1e-9), f"{algorithm}: -np {np} differs from -np 1")
        return out

    def test_kmeans(self):
        out = self.check("kmeans", "--data", "blobs:n=6000,k=5,dims=3,seed=2", "--param", "k=5")
        self.assertEqual(len(out[3]["labels"]), 6000)

    def test_kmeans_empty_clusters(self):
        """Random rows of data with many duplicates start several centres on
        one point: the empty clusters move to the rows farthest from their
        centres, a step that reads every rank's rows."""
        path = os.path.join(self.tmp.name, "duplicates.csv")
        with open(path, "w") as f:
            f.write("x,y\n" + "0,0\n" * 60 + "1,1\n" * 60 + "".join(f"{i},{2 * i}\n" for i in range(2, 8)))
        first = mpirun(2, "kmeans", "--data", path, "--param", "k=6", "--param", "init=random",
                       "--param", "max-iterations=1", "--seed", "7")
        self.assertIn("re-seeded from the farthest", first.stderr)
        self.check("kmeans", "--data", path, "--param", "k=6", "--param", "init=random")
        self.check("kmeans", "--data", path, "--param", "k=6", "--param", "init=random", "--param", "max-iterations=1")

    def test_gmm(self):
        self.check("gmm", "--data", "blobs:n=3000,k=3,dims=2,seed=4", "--param", "k=3")

    def test_linear(self):
        for algorithm in ("pca", "ppca", "fa"):
            with self.subTest(algorithm=algorithm):
                self.check(algorithm, "--data", "iris", "--param", "components=2")

    def test_prototype(self):
        self.check("prototype", "--data", "iris")

    def test_streamed(self):
        """Each rank streams its share of a NumPy file from disk."""
        path = os.path.join(self.tmp.name, "rows.npy")
        write_npy(path, [[float(k * 37 % 101) / 10 + (k % 3) * 20 for k in range(i * 4, i * 4 + 4)]
                         for i in range(4000)])
        for algorithm in ("kmeans", "pca"):
            with self.subTest(algorithm=algorithm):
                self.check(algorithm, "--data", path, "--memory", "16K", "--param",
                           "k=3" if algorithm == "kmeans" else "components=2")

    def test_followed(self):
        """Rank 0 alone writes --follow's folder; the run file ends finished."""
        folder = os.path.join(self.tmp.name, "followed")
        p = mpirun(2, "kmeans", "--data", "blobs:n=3000,k=4,dims=2,seed=3", "--param", "k=4", "--follow", folder)
        self.assertEqual(p.returncode, 0, p.stderr)
        self.assertEqual(sorted(os.listdir(folder)), ["experiment.json", "run.latent"])
        with open(os.path.join(folder, "run.latent"), "rb") as f:
            head = f.read(64)
        # "LATENTRN", byte order, version, the algorithm's id (a length with its
        # end, then the bytes), then the state: 2, finished.
        self.assertEqual(head[:8], b"LATENTRN")
        n = struct.unpack_from("<Q", head, 16)[0]
        self.assertEqual(head[24:24 + n - 1], b"kmeans")
        self.assertEqual(struct.unpack_from("<I", head, 24 + n - 1)[0], 2)

    def test_watched_frames(self):
        """A recorded (or followed) job's frames show every rank's rows as
        each pass leaves them: frame for frame, -np 2 draws what -np 1 does
        (they showed the start's labels for the other ranks' rows)."""
        frames = {}
        for np in (1, 2):
            folder = os.path.join(self.tmp.name, f"frames-{np}")
            os.makedirs(folder)
            p = mpirun(np, "kmeans", "--data", "blobs:n=4000,k=6,dims=2,seed=8", "--param", "k=6",
                       "--param", "init=random", "--iterations", "6", "--frame-every", "1", "--seed", "3",
                       "--size", "320x240", "--export-animation", os.path.join(folder, "f.png"))
            self.assertEqual(p.returncode, 0, p.stderr)
            frames[np] = sorted(os.listdir(folder))
        self.assertEqual(frames[1], frames[2])
        self.assertGreaterEqual(len(frames[1]), 4)
        for name in frames[1][1:-1]:
            _, _, one = png_pixels(os.path.join(self.tmp.name, "frames-1", name))
            _, _, two = png_pixels(os.path.join(self.tmp.name, "frames-2", name))
            differing = sum(a != b for r1, r2 in zip(one, two) for a, b in zip(r1, r2))
            self.assertLess(differing, 0.002 * sum(len(r) for r in one), f"{name}: {differing} bytes differ")

    def test_logreg(self):
        """Each rank a share of every mini-batch (and of L-BFGS's batch of
        all rows), the gradients summed."""
        for optimizer in ("adam", "lbfgs"):
            with self.subTest(optimizer=optimizer):
                self.check("logreg", "--data", "blobs:n=3000,k=4,dims=5,seed=3", "--param", f"optimizer={optimizer}",
                           "--param", "epochs=4", "--param", "batch=64")
        p = mpirun(2, "logreg", "--data", "iris", "--param", "epochs=1")
        self.assertIn("each passing over its share of the rows", p.stderr)

    def test_replicated(self):
        """A learner that does not share its work yet runs whole on every
        rank, and says so."""
        self.check("wta", "--data", "iris", "--param", "epochs=2", "--param", "hidden=8")
        p = mpirun(2, "wta", "--data", "iris", "--param", "epochs=1", "--param", "hidden=8")
        self.assertIn("does not share its work yet", p.stderr)

    def test_killed_rank(self):
        """A rank killed mid-run stops the job, which names it; no hang."""
        proc = subprocess.Popen([MPIRUN, "--oversubscribe", "-np", "2", CLI, "run", "kmeans", "--data",
                                 "blobs:n=400000,k=20,dims=8,seed=1", "--param", "k=200",
                                 "--param", "max-iterations=100000", "--param", "tol=0"],
                                stdout=subprocess.PIPE, stderr=subprocess.PIPE, text=True, env=ENV)
        victim = None
        deadline = time.monotonic() + 60
        while victim is None and time.monotonic() < deadline:
            time.sleep(0.5)
            for pid in os.listdir("/proc"):
                try:
                    with open(f"/proc/{pid}/environ", "rb") as f:
                        environ = f.read().split(b"\0")
                except OSError:
                    continue
                if b"OMPI_COMM_WORLD_RANK=1" in environ and os.path.basename(
                        os.readlink(f"/proc/{pid}/exe")) == "latent-cli":
                    victim = int(pid)
        self.assertIsNotNone(victim, "rank 1 never started")
        time.sleep(3)
        os.kill(victim, signal.SIGKILL)
        try:
            _, err = proc.communicate(timeout=60)
        except subprocess.TimeoutExpired:
            proc.kill()
            self.fail("the job went on for a minute after rank 1 was killed")
        self.assertNotEqual(proc.returncode, 0)
        self.assertRegex(err, r"rank 1\b", err)


if __name__ == "__main__":
    unittest.main(verbosity=2)
