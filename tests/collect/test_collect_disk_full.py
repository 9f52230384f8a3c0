"""A full disk stops collecting with one warning; the training finishes.

As root the collector writes into a 64 KiB tmpfs mounted for the test (ENOSPC, a real
full file system); otherwise a child process with RLIMIT_FSIZE (EFBIG). Either way the
training is a child process that must exit 0 after all its steps, with exactly one
collector warning on stderr and no half-written line in either file."""

import os
import subprocess
import sys
import tempfile
import unittest

import helpers
from helpers import read_jsonl

CHILD = r"""
import resource, sys, torch
sys.path.insert(0, sys.argv[1])
if sys.argv[3] == "rlimit":
    resource.setrlimit(resource.RLIMIT_FSIZE, (48 * 1024, 48 * 1024))
from moewb_collect import Collector
E, K, L, T = 64, 2, 32, 256
col = Collector(sys.argv[2], num_experts=E, topk=K, moe_layers=L)
w = torch.nn.Linear(32, E)
opt = torch.optim.SGD(w.parameters(), lr=0.01)
for step in range(1, 41):
    col.step_begin()
    x = torch.randn(T, 32)
    logits = w(x)
    idx = torch.topk(logits, K, dim=-1).indices
    for layer in range(L):
        col.record_routing(layer, topk_indices=idx, capacity=T * K // E)
    with col.expert_compute():
        loss = logits.pow(2).mean()
    loss.backward()
    opt.step()
    opt.zero_grad()
    col.step_end(step)
col.close()
print("trained", step, "steps; collector stopped:", col.stopped)
"""


def try_mount(path):
    if os.geteuid() != 0:
        return False
    r = subprocess.run(["mount", "-t", "tmpfs", "-o", "size=64k", "tmpfs", path],
                       capture_output=True)
    return r.returncode == 0


class DiskFullTest(unittest.TestCase):
    def run_child(self, out_dir, mode):
        pkg = os.path.join(helpers.ROOT, "remote", "collect")
        return subprocess.run([sys.executable, "-c", CHILD, pkg, out_dir, mode],
                              capture_output=True, text=True, timeout=120)

    def check(self, r, out_dir):
        self.assertEqual(r.returncode, 0, r.stderr)
        self.assertIn("trained 40 steps; collector stopped: True", r.stdout)
        warnings = [l for l in r.stderr.splitlines() if "RuntimeWarning" in l or "moewb_collect" in l]
        self.assertEqual(len(warnings), 1, r.stderr)
        self.assertIn("collecting stopped, the training goes on", warnings[0])
        tpe = read_jsonl(os.path.join(out_dir, "tokens_per_expert", "rank0.jsonl"))
        side = read_jsonl(os.path.join(out_dir, "moewb_collect", "rank0.jsonl"))
        steps = [o["iter"] for o in tpe]
        self.assertGreater(len(steps), 0)
        self.assertLess(max(steps), 40, "the disk must have filled before the end")
        self.assertEqual(side[0]["format"], "moewb-collect/1")

    def test_full_tmpfs(self):
        d = tempfile.mkdtemp(prefix="moewb-collect-full-")
        mounted = try_mount(d)
        try:
            if not mounted:
                self.skipTest("not root or no tmpfs mount here; test_file_size_limit covers it")
            r = self.run_child(d, "tmpfs")
            self.check(r, d)
        finally:
            if mounted:
                subprocess.run(["umount", d], check=True)
            os.rmdir(d) if not os.listdir(d) else None
            subprocess.run(["rm", "-rf", d])

    def test_file_size_limit(self):
        with tempfile.TemporaryDirectory() as d:
            r = self.run_child(d, "rlimit")
            self.check(r, d)


if __name__ == "__main__":
    unittest.main()
