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
                    for layer in range(LAYERS):
                        idx = torch.topk(torch.rand((T, E), generator=g) + bias, K, dim=1).indices
                        cap = megatron_capacity(T, E, K, 1.0)
                        col.record_routing(layer, topk_indices=idx, capacity=cap)
                        c, tt, dd, da = brute_force(E, K, idx.tolist(), cap)
                        a = exp.setdefault((step, layer), [[0] * E, 0, 0, 0])
                        exp[(step, layer)] = [[x + y for x, y in zip(a[0], c)], a[1] + tt,
                                              a[2] + dd, a[3] + da]
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

            proj = os.path.join(d, "p.moewb")
            rec = os.path.join(d, "rec.json")
            record(rec, "collected")
            self.moewb("init", proj)
            self.moewb("--project", proj, "record", "add", rec)
            self.moewb("--project", proj, "import", run_dir, "--record", "collected", "--run", "c")

            db = sqlite3.connect(proj)
            load = {}
            for step, layer, experts, codec, blob in db.execute(
                    "SELECT step, layer, experts, codec, counts FROM expert_load "
                    "JOIN run ON run.id = expert_load.run_id WHERE run.name = 'c'"):
                self.assertEqual((experts, codec), (E, 0))
                load[(step, layer)] = list(struct.unpack("<%dI" % E, blob))
            self.assertEqual(load, {key: v[0] for key, v in exp.items()})

            metrics = {}
            for name, step, value in db.execute(
                    "SELECT metric_name.name, step, value FROM step_metric "
                    "JOIN metric_name ON metric_name.id = step_metric.metric_id "
                    "JOIN run ON run.id = step_metric.run_id WHERE run.name = 'c'"):
                metrics[(name, step)] = value
            db.close()
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


if __name__ == "__main__":
    unittest.main()
