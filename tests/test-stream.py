#!/usr/bin/python3
# test-stream.py — a NumPy file streamed from disk gives the answer held
#
# Usage: test-stream.py LATENT_CLI
#
# A .npy file larger than the memory budget (--memory) is streamed: its
# rows are read a chunk at a time (here about 24 chunks). Each algorithm
# runs on it held in memory and streamed, from the same seed; the results
# must agree: on the reference path the same labels, iterations and every
# number within a relative 1e-5 (float summation order, and a streamed
# PCA's projection is a product in floats); on the device
# (PoCL), where each chunk is a pass of its own, within 1e-4. A value not
# finite is refused naming the file, row and column.
#
# SPDX-License-Identifier: GPL-3.0-or-later

import json
import os
import random
import subprocess
import sys
import tempfile
import unittest

from compare_results import TIMES, agree, write_npy

CLI = sys.argv[1]
del sys.argv[1]

# The message of a streamed k-means says where it started (test_kmeans).
# The message of a streamed k-means says where it started (test_kmeans).
IGNORED = TIMES | {"message"}
# 6000 rows of 8 floats, 192 KB: with 64 KB of budget, chunks of 8 KB.
BUDGET = "64K"


class Streamed(unittest.TestCase):
    @classmethod
    def setUpClass(cls):
        cls.tmp = tempfile.TemporaryDirectory()
        rand = random.Random(5)
        centres = [[rand.uniform(-10, 10) for _ in range(8)] for _ in range(5)]
        labels = [rand.randrange(5) for _ in range(6000)]
        rows = [[c + rand.gauss(0, 1.5) for c in centres[k]] for k in labels]
        cls.rows = rows
        cls.data = os.path.join(cls.tmp.name, "blobs.npy")
        cls.labels = os.path.join(cls.tmp.name, "blobs-labels.npy")
        write_npy(cls.data, rows)
        write_npy(cls.labels, labels, "<i4")

    @classmethod
    def tearDownClass(cls):
        cls.tmp.cleanup()

    def run_cli(self, algorithm, *args, memory=None, device="off"):
        path = os.path.join(self.tmp.name, f"{algorithm}-{memory}.json")
        command = [CLI, "run", algorithm, "--data", self.data, "--labels", self.labels, "--seed", "7",
                   "--device", device, "--json", path, *args]
        if memory:
            command += ["--memory", memory]
        p = subprocess.run(command, capture_output=True, text=True, timeout=300)
        self.assertEqual(p.returncode, 0, p.stderr)
        # Streamed, it says so; held, it does not.
        self.assertEqual("streamed from disk" in p.stderr, memory is not None, p.stderr)
        with open(path) as f:
            return json.load(f), p.stderr

    def check(self, algorithm, *args, device="off", tol=1e-5):
        held, _ = self.run_cli(algorithm, *args, device=device)
        streamed, stderr = self.run_cli(algorithm, *args, memory=BUDGET, device=device)
        self.assertRegex(stderr, r"streamed from disk, 192\.0\skB, 8\.2\skB chunks")
        self.assertIsNone(agree(held, streamed, tol, tol, IGNORED), f"{algorithm}: streamed differs from held")
        return held, streamed

    def test_kmeans(self):
        held, streamed = self.check("kmeans", "--param", "k=5")
        self.assertEqual(len(streamed["labels"]), 6000)
        # Its sample is every row here: k-means++ started where it did held.
        self.assertIn("Started by k-means++ on a sample of 6000 of the 6000 rows", streamed["message"])

    def test_kmeans_device(self):
        """Each chunk a pass of its own on the device, against the whole
        set on it: the same clusters."""
        held, streamed = self.check("kmeans", "--param", "k=5", device="cpu", tol=1e-4)
        self.assertEqual(held["labels"], streamed["labels"])

    def test_gmm(self):
        self.check("gmm", "--param", "k=5")

    def test_gmm_device(self):
        """Streamed, the mixture leaves the device (which would hold every
        row) for the reference, a chunk at a time: the same fit."""
        held, streamed = self.check("gmm", "--param", "k=5", device="cpu", tol=1e-3)
        self.assertEqual(held["labels"], streamed["labels"])

    def test_linear(self):
        for algorithm in ("pca", "ppca", "fa"):
            with self.subTest(algorithm=algorithm):
                self.check(algorithm, "--param", "components=3")

    def test_pca_device(self):
        """The moments a chunk at a time on the device, merged in double."""
        self.check("pca", "--param", "components=3", device="cpu", tol=1e-4)

    def test_prototype(self):
        self.check("prototype")

    def test_minibatches(self):
        """Mini-batches gather their rows from the file in the same order
        as from memory: the same curves."""
        self.check("logreg", "--param", "epochs=3", "--param", "batch=64")
        self.check("wta", "--param", "epochs=2", "--param", "hidden=8")

    def test_copied(self):
        """Big-endian doubles cannot stream where they lie: they stream from
        a float32 copy in the cache folder, made once, with the same answer."""
        rows = [[float(v) for v in row] for row in self.rows]
        path = os.path.join(self.tmp.name, "doubles.npy")
        write_npy(path, rows, ">f8")
        results = []
        for memory in (None, BUDGET, BUDGET):
            command = [CLI, "run", "kmeans", "--data", path, "--param", "k=5", "--seed", "7", "--device", "off",
                       "--json", path + ".json"] + (["--memory", memory] if memory else [])
            p = subprocess.run(command, capture_output=True, text=True, timeout=300)
            self.assertEqual(p.returncode, 0, p.stderr)
            self.assertEqual("from a float32 copy" in p.stderr, memory is not None, p.stderr)
            if memory:
                self.assertRegex(p.stderr, r"doubles\.npy: \S*/latent/streams/doubles-[0-9a-f]{16}\.npy\n")
            with open(path + ".json") as f:
                results.append(json.load(f))
        self.assertIsNone(agree(results[0], results[1], 1e-5, 1e-5, IGNORED))
        self.assertEqual(results[1]["labels"], results[2]["labels"])

    def test_not_finite(self):
        """A NaN is found when its chunk is read, not when the file is
        opened: the message names the file, the row and the column."""
        rows = [[float(i % 7), float(i % 5)] for i in range(5000)]
        rows[4321][1] = float("nan")
        path = os.path.join(self.tmp.name, "nan.npy")
        write_npy(path, rows)
        p = subprocess.run([CLI, "run", "kmeans", "--data", path, "--memory", "16K", "--device", "off"],
                           capture_output=True, text=True, timeout=60)
        self.assertNotEqual(p.returncode, 0)
        self.assertIn(f"{path}: row 4322, column 2: not a finite number", p.stderr)

    def test_bad_budget(self):
        p = subprocess.run([CLI, "run", "kmeans", "--data", self.data, "--memory", "lots"],
                           capture_output=True, text=True, timeout=60)
        self.assertNotEqual(p.returncode, 0)
        self.assertIn("--memory: “lots” is not a size", p.stderr)


if __name__ == "__main__":
    unittest.main(verbosity=2)
