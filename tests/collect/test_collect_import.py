"""What the collector writes, imported by the real `moewb import` as one run: the
tokens-per-expert rank files summed over ranks into the run's expert load, the sidecars
into drop rate, dropped tokens/assignments and the measured busiest-device share. The
expected figures are computed here from the routing (brute force) and from the time rows
in the files, then compared with what the project file (SQLite) holds."""

import copy
import json
import os
import sqlite3
import struct
import subprocess
import tempfile
import time
import unittest

import helpers
from helpers import brute_force, megatron_capacity, read_outputs

import torch
from moewb_collect import Collector

MOEWB = os.environ.get("MOEWB_CLI", os.path.join(helpers.ROOT, "build", "app", "moewb"))
E, K, LAYERS, STEPS, WORLD, T = 8, 2, 2, 3, 2, 40


def decode_chunk(blob, rows, experts):
    """A schema-5 expert-load chunk (docs/store.md, "Expert load"), read here without
    the program: zstd, then varints: rows, experts, the steps as zigzag deltas, then
    each expert's counts over the steps as zigzag deltas. Yields (step, counts)."""
    raw = subprocess.run(["zstd", "-d", "-c", "-q"], input=blob, stdout=subprocess.PIPE, check=True).stdout
    pos = 0

    def varint():
        nonlocal pos
        v = shift = 0
        while True:
            b = raw[pos]
            pos += 1
            v |= (b & 0x7F) << shift
            shift += 7
            if not b & 0x80:
                return v

    def signed():
        v = varint()
        return (v >> 1) ^ -(v & 1)

    assert (varint(), varint()) == (rows, experts)
    steps, step = [], 0
    for _ in range(rows):
        step += signed()
        steps.append(step)
    columns = []
    for _ in range(experts):
        c, col = 0, []
        for _ in range(rows):
            c += signed()
            col.append(c)
        columns.append(col)
    assert pos == len(raw)
    for i, step in enumerate(steps):
        yield step, [columns[e][i] for e in range(experts)]


def route_step(col, g, bias, exp, key):
    """One rank's step: each layer routes T tokens (top-K of random scores + bias) at
    capacity factor 1.0 through the collector; the brute-force counts, tokens, dropped
    tokens and dropped assignments are summed into exp[key + (layer,)]."""
    cap = megatron_capacity(T, E, K, 1.0)
    for layer in range(LAYERS):
        idx = torch.topk(torch.rand((T, E), generator=g) + bias, K, dim=1).indices
        col.record_routing(layer, topk_indices=idx, capacity=cap)
        c, tt, dd, da = brute_force(E, K, idx.tolist(), cap)
        a = exp.setdefault(key + (layer,), [[0] * E, 0, 0, 0])
        exp[key + (layer,)] = [[x + y for x, y in zip(a[0], c)], a[1] + tt, a[2] + dd, a[3] + da]


def record(path, name):
    with open(os.path.join(helpers.ROOT, "tests", "fixtures", "records", "moe-64e-top8.json")) as f:
        r = json.load(f)
    r = copy.deepcopy(r)
    r["name"] = name
    r["moe"]["experts"] = E
    r["moe"]["top_k"] = K
    r["model"]["layers"] = LAYERS
    r["model"]["moe_layers"] = LAYERS
    r["cluster"]["nodes"] = 1
    r["cluster"]["accelerators_per_node"] = WORLD
    r["parallelism"] = {"dp": WORLD, "tp": 1, "pp": 1, "ep": WORLD, "cp": 1}
    with open(path, "w") as f:
        json.dump(r, f)


@unittest.skipUnless(os.access(MOEWB, os.X_OK), f"{MOEWB} not built")
class ImportTest(unittest.TestCase):
    def moewb(self, *args):
        r = subprocess.run([MOEWB, *args], capture_output=True, text=True, timeout=120)
        self.assertEqual(r.returncode, 0, r.stdout + r.stderr)
        return r.stdout

    def import_run(self, d, run_dir, run):
        """`moewb import run_dir` as one run into a new project in d; the run's expert load
        {(step, layer): counts} and step metrics {(name, step): value}, read from the project
        file with sqlite3."""
        proj = os.path.join(d, "p.moewb")
        rec = os.path.join(d, "rec.json")
        record(rec, "collected")
        self.moewb("init", proj)
        self.moewb("--project", proj, "record", "add", rec)
        self.moewb("--project", proj, "import", run_dir, "--record", "collected", "--run", run)
        db = sqlite3.connect(proj)
        load = {}
        for layer, rows, experts, codec, blob in db.execute(
                "SELECT layer, steps, experts, codec, counts FROM expert_load_chunk "
                "JOIN run ON run.id = expert_load_chunk.run_id WHERE run.name = ?", (run,)):
            self.assertEqual((experts, codec), (E, 1))
            for step, counts in decode_chunk(blob, rows, experts):
                load[(step, layer)] = counts
        metrics = {}
        for name, step, value in db.execute(
                "SELECT metric_name.name, step, value FROM step_metric "
                "JOIN metric_name ON metric_name.id = step_metric.metric_id "
                "JOIN run ON run.id = step_metric.run_id WHERE run.name = ?", (run,)):
            metrics[(name, step)] = value
        db.close()
        return load, metrics

    def test_import_two_ranks(self):
        g = torch.Generator().manual_seed(7)
        bias = torch.tensor([2.0, 1.0, 0.5, 0, 0, 0, 0, 0])
        with tempfile.TemporaryDirectory() as d:
            run_dir = os.path.join(d, "train")
            cols = [Collector(run_dir, num_experts=E, topk=K, moe_layers=LAYERS, rank=r, world=WORLD)
                    for r in range(WORLD)]
            exp = {}  # (step, layer) -> [counts, T, D, DA] summed over ranks
            for step in range(1, STEPS + 1):
                for r, col in enumerate(cols):  # the ranks one after the other, same steps
                    col.step_begin()
                    route_step(col, g, bias, exp, (step,))
                    with col.alltoall():
                        time.sleep(0.002 * (1 + step % 2))
                    with col.expert_compute():  # rank 1 computes longer in odd steps
                        time.sleep(0.004 if r == 0 else 0.002 + 0.004 * (step % 2))
                    col.step_end(step)
            for col in cols:
                col.close()

            # the busiest-device share, from the files' time rows
            rows = {r: read_outputs(run_dir, r)[3] for r in range(WORLD)}
            share = {}
            for step in range(1, STEPS + 1):
                b = max(range(WORLD), key=lambda r: (rows[r][step]["compute_s"], -r))
                t = rows[b][step]
                share[step] = (t["compute_s"] + t["a2a_s"]) / t["step_s"]

            load, metrics = self.import_run(d, run_dir, "c")
            self.assertEqual(load, {key: v[0] for key, v in exp.items()})
            for step in range(1, STEPS + 1):
                T_ = sum(v[1] for (s, _), v in exp.items() if s == step)
                D_ = sum(v[2] for (s, _), v in exp.items() if s == step)
                DA_ = sum(v[3] for (s, _), v in exp.items() if s == step)
                self.assertGreater(DA_, 0)
                self.assertAlmostEqual(metrics[("drop_rate", step)], D_ / T_, places=9)
                self.assertAlmostEqual(metrics[("assignment_drop_rate", step)], DA_ / (T_ * K), places=9)
                self.assertEqual(metrics[("dropped_tokens", step)], D_)
                self.assertEqual(metrics[("dropped_assignments", step)], DA_)
                self.assertAlmostEqual(metrics[("busiest_device_share", step)], share[step], places=6)

    def test_import_resumed_training(self):
        """A training that dies after step 5 and is resumed from its checkpoint of step 2:
        the new collectors append steps 3 and 4 to the same files. The import keeps the first
        run's steps 1-2 and the resumed run's 3-4; the first run's 3-5 are replaced (its
        step 5, which the resumed run never reached, too)."""
        g = torch.Generator().manual_seed(11)
        with tempfile.TemporaryDirectory() as d:
            run_dir = os.path.join(d, "train")
            exp = {}  # (attempt, step, layer) -> [counts, T, D, DA] summed over ranks

            def train(attempt, steps, hot):
                bias = torch.zeros(E)
                bias[hot] = 3.0  # each attempt routes differently: its rows are told apart
                cols = [Collector(run_dir, num_experts=E, topk=K, moe_layers=LAYERS, rank=r, world=WORLD,
                                  clock="monotonic") for r in range(WORLD)]
                for step in steps:
                    for col in cols:
                        col.step_begin()
                        route_step(col, g, bias, exp, (attempt, step))
                        col.step_end(step)
                for col in cols:
                    col.close()

            train(1, range(1, 6), 0)
            train(2, range(3, 5), 5)
            side = helpers.read_jsonl(os.path.join(run_dir, "moewb_collect", "rank0.jsonl"))
            self.assertEqual([o["step"] for o in side if o.get("kind") == "time"], [1, 2, 3, 4, 5, 3, 4])

            load, metrics = self.import_run(d, run_dir, "resumed")

            kept = {(s, layer): v for (attempt, s, layer), v in exp.items()
                    if (attempt == 1 and s < 3) or attempt == 2}
            self.assertEqual(load, {key: v[0] for key, v in kept.items()})
            self.assertEqual(sorted({s for (_, s) in metrics}), [1, 2, 3, 4])
            for step in range(1, 5):
                T_ = sum(v[1] for (s, _), v in kept.items() if s == step)
                D_ = sum(v[2] for (s, _), v in kept.items() if s == step)
                DA_ = sum(v[3] for (s, _), v in kept.items() if s == step)
                self.assertEqual(metrics[("dropped_tokens", step)], D_)
                self.assertEqual(metrics[("dropped_assignments", step)], DA_)
                self.assertAlmostEqual(metrics[("drop_rate", step)], D_ / T_, places=9)
            # the two attempts' rows differ, so the comparison above tells them apart
            self.assertNotEqual(exp[(1, 3, 0)][0], exp[(2, 3, 0)][0])


if __name__ == "__main__":
    unittest.main()
