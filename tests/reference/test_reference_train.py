#!/usr/bin/python3
"""test_reference_train: the reference training (remote/reference/reference_train.py) run for
real, --quick, with /usr/bin/python3 (Debian's python3-torch on CPU), then imported with the
real moewb. Every expected figure is computed here from the files the training wrote and from
the corpus, never taken from the script.

    test_reference_train.py --moewb PATH/TO/moewb --script PATH/TO/reference_train.py
"""

import argparse
import collections
import json
import math
import os
import signal
import sqlite3
import subprocess
import sys
import tempfile
import time
import unittest

sys.dont_write_bytecode = True  # no __pycache__ in the source tree (reference_moe is imported)

ARGS = None
# The trainings run 2 processes here to keep the test near a minute on 2 shared cores (4
# processes take 1.5-2x as long there); the expert-parallel check below and `moewb
# reference` (tests/e2e) use 4.
WORLD = 2
EP_WORLD = 4
CORPUS = "/usr/share/common-licenses"


def run(cmd, timeout=120, **kw):
    return subprocess.run(cmd, capture_output=True, text=True, timeout=timeout, **kw)


def train(out, variant, world=WORLD):
    t0 = time.monotonic()
    p = run([sys.executable, ARGS.script, "--out", out, "--variant", variant, "--quick", "--world", str(world)],
            timeout=150)
    return p, time.monotonic() - t0


def read_json(path):
    with open(path) as f:
        return json.load(f)


def read_lines(path):
    with open(path) as f:
        return f.read().splitlines()


def read_jsonl(path):
    with open(path) as f:
        return [json.loads(l) for l in f if l.strip()]


def validation_losses(log):
    out = []
    with open(log) as f:
        for line in f:
            if "validation loss at iteration" in line:
                fields = [s.strip() for s in line.split("|")]
                value = [s for s in fields if s.startswith("lm loss value:")][0]
                out.append(float(value.split(":", 1)[1]))
    return out


def unigram_entropy_of_training_slice():
    """Independent of the script: the regular files of the corpus in sorted order, the first
    90 % of the bytes, their byte-frequency entropy in nats."""
    names = sorted(n for n in os.listdir(CORPUS)
                   if os.path.isfile(os.path.join(CORPUS, n)) and not os.path.islink(os.path.join(CORPUS, n)))
    parts = []
    for n in names:
        with open(os.path.join(CORPUS, n), "rb") as f:
            parts.append(f.read())
    data = b"".join(parts)
    train_part = data[:len(data) - int(len(data) * 0.1)]
    counts = collections.Counter(train_part)
    n = len(train_part)
    return -sum(c / n * math.log(c / n) for c in counts.values())


class ReferenceTrain(unittest.TestCase):
    tmp = None
    runs = {}

    @classmethod
    def setUpClass(cls):
        cls.tmp = tempfile.mkdtemp(prefix="moewb-reference-test-")
        for variant in ("moe-cf1.0", "dense"):
            out = os.path.join(cls.tmp, variant)
            p, seconds = train(out, variant)
            cls.runs[variant] = (out, p, seconds)
            sys.stderr.write("%s --quick --world %d: %.1f s, exit %d\n" % (variant, WORLD, seconds, p.returncode))

    @classmethod
    def tearDownClass(cls):
        subprocess.run(["rm", "-rf", cls.tmp])

    def finished(self, variant):
        out, p, _ = self.runs[variant]
        self.assertEqual(p.returncode, 0, "%s failed: %s" % (variant, p.stderr))
        return out, p

    def test_progress_and_files(self):
        for variant in ("moe-cf1.0", "dense"):
            out, p = self.finished(variant)
            fractions = [float(l.split()[1]) for l in p.stdout.splitlines() if l.startswith("progress ")]
            self.assertGreater(len(fractions), 5)
            self.assertEqual(fractions, sorted(fractions), "progress goes forward")
            self.assertEqual(fractions[-1], 1.0)
            names = sorted(n for n in os.listdir(out))
            expected = ["record.json", "torch_profile", "train.log"] + (
                ["moewb_collect", "tokens_per_expert"] if variant != "dense" else [])
            self.assertEqual(names, sorted(expected), "only the outputs, no leftover work folder")

    def test_validation_loss_below_unigram_entropy(self):
        entropy = unigram_entropy_of_training_slice()
        self.assertGreater(entropy, 2.5)  # English text: about 3.2 nats per byte
        for variant in ("moe-cf1.0", "dense"):
            out, _ = self.finished(variant)
            losses = validation_losses(os.path.join(out, "train.log"))
            self.assertGreaterEqual(len(losses), 2, variant)
            self.assertLess(losses[-1], math.log(256), variant)
            # Learned more than byte frequencies: clearly below the unigram entropy.
            self.assertLess(losses[-1], entropy - 0.2, "%s: %.3f vs unigram %.3f" % (variant, losses[-1], entropy))
            self.assertLess(losses[-1], losses[0], variant)

    def test_iteration_lines(self):
        for variant in ("moe-cf1.0", "dense"):
            out, _ = self.finished(variant)
            record = read_json(os.path.join(out, "record.json"))
            steps = 0
            for line in read_lines(os.path.join(out, "train.log")):
                if " iteration " in line and "/" in line and line.rstrip().endswith("|"):
                    steps += 1
                    fields = dict(s.strip().split(":", 1) for s in line.split("|")[1:] if ":" in s)
                    self.assertGreater(float(fields["elapsed time per iteration (ms)"]), 0)
                    self.assertGreater(float(fields["lm loss"]), 0)
                    self.assertEqual(int(fields["consumed tokens"]), steps * record["batch"]["global_batch_tokens"])
            self.assertEqual(record["recipe"]["tokens_trained"], steps * record["batch"]["global_batch_tokens"])
            self.assertGreater(steps, record["throughput"]["warmup_steps_excluded"])

    def test_records_validate_and_match(self):
        records = {}
        for variant in ("moe-cf1.0", "dense"):
            out, _ = self.finished(variant)
            p = run([ARGS.moewb, "record", "validate", os.path.join(out, "record.json")])
            self.assertEqual(p.returncode, 0, p.stdout + p.stderr)
            records[variant] = read_json(os.path.join(out, "record.json"))
        moe, dense = records["moe-cf1.0"], records["dense"]
        self.assertEqual(moe["model"]["kind"], "moe")
        self.assertEqual(dense["model"]["kind"], "dense")
        self.assertEqual(moe["moe"]["capacity_factor"], 1.0)
        self.assertEqual(moe["moe"]["overflow_policy"], "drop")
        self.assertEqual(moe["parallelism"]["ep"], WORLD)
        self.assertEqual(moe["parallelism"]["dp"], WORLD)
        self.assertEqual(moe["cluster"]["accelerators_per_node"], WORLD)
        for section in ("batch", "recipe", "throughput"):
            self.assertEqual(moe[section], dense[section], section + " must match for stage 2")
        # Matched activated parameters: within 5 % (the routers are the difference).
        a, b = moe["model"]["activated_params"], dense["model"]["activated_params"]
        self.assertLess(abs(a - b) / b, 0.05)
        self.assertGreater(moe["model"]["total_params"], a)
        self.assertEqual(dense["model"]["ffn_hidden_size"], moe["moe"]["top_k"] * moe["model"]["ffn_hidden_size"])

    def test_drops_and_tokens_per_expert(self):
        out, _ = self.finished("moe-cf1.0")
        record = read_json(os.path.join(out, "record.json"))
        E, K = record["moe"]["experts"], record["moe"]["top_k"]
        cf = record["moe"]["capacity_factor"]
        tokens_per_rank = record["batch"]["global_batch_tokens"] // WORLD
        capacity = math.ceil(cf * tokens_per_rank * K / E)
        side = {}
        tpe = {}
        for r in range(WORLD):
            lines = read_jsonl(os.path.join(out, "moewb_collect", "rank%d.jsonl" % r))
            self.assertEqual(lines[0]["format"], "moewb-collect/1")
            self.assertEqual((lines[0]["rank"], lines[0]["world"], lines[0]["experts"], lines[0]["topk"]),
                             (r, WORLD, E, K))
            for l in lines[1:]:
                if l["kind"] == "drops":
                    side[(r, l["step"], l["layer"])] = l
                elif l["kind"] == "time":
                    self.assertGreaterEqual(min(l["step_s"], l["a2a_s"], l["compute_s"]), 0)
                    self.assertGreater(l["a2a_s"], 0, "the all-to-alls were timed")
                    self.assertGreater(l["compute_s"], 0, "the experts were timed")
                    self.assertLessEqual(l["a2a_s"] + l["compute_s"], l["step_s"] * 1.01 + 0.002)
            for l in read_jsonl(os.path.join(out, "tokens_per_expert", "rank%d.jsonl" % r)):
                self.assertEqual(len(l["tpe"]), E)
                tpe[(r, l["iter"], l["layer"])] = l["tpe"]
        self.assertEqual(set(side), set(tpe), "a drops line for every tokens-per-expert line")
        steps = {k[1] for k in side}
        self.assertEqual(steps, set(range(1, max(steps) + 1)))
        dropped_tokens = dropped_assignments = 0
        for key, l in side.items():
            T, A, D, DA = l["tokens"], l["assignments"], l["dropped_tokens"], l["dropped_assignments"]
            self.assertEqual(T, tokens_per_rank)
            self.assertEqual(A, T * K)
            self.assertTrue(0 <= D <= T and 0 <= DA <= A and D * K <= DA, l)
            # Brute force: the kept assignments counted per expert add up to tokens*k minus
            # the dropped assignments, and no expert kept more than its capacity.
            counts = tpe[key]
            self.assertEqual(sum(counts), T * K - DA, key)
            self.assertLessEqual(max(counts), capacity, key)
            # An expert that dropped anything is full: at least one expert reached capacity.
            if DA > 0:
                self.assertEqual(max(counts), capacity, key)
            dropped_tokens += D
            dropped_assignments += DA
        self.assertGreater(dropped_tokens, 0, "capacity factor 1.0 drops tokens")
        self.assertGreater(dropped_assignments, dropped_tokens)

    def import_run(self, variant):
        out, _ = self.finished(variant)
        project = os.path.join(self.tmp, variant + ".moewb")
        if os.path.exists(project):
            os.remove(project)
        p = run([ARGS.moewb, "init", project])
        self.assertEqual(p.returncode, 0, p.stdout + p.stderr)
        p = run([ARGS.moewb, "--project", project, "record", "add", os.path.join(out, "record.json")])
        self.assertEqual(p.returncode, 0, p.stdout + p.stderr)
        p = run([ARGS.moewb, "--project", project, "--json", "import", out, "--run", variant])
        self.assertEqual(p.returncode, 0, p.stdout + p.stderr)
        result = json.loads(p.stdout)
        self.assertEqual(len(result["runs"]), 1, "one run")
        db = sqlite3.connect(project)
        metrics = collections.defaultdict(dict)
        for name, step, value in db.execute(
                "SELECT m.name, s.step, s.value FROM step_metric s JOIN metric_name m ON m.id = s.metric_id "
                "JOIN run r ON r.id = s.run_id WHERE r.name = ?", (variant,)):
            metrics[name][step] = value
        # one count per (step, layer): the chunks' rows (schema 5, docs/store.md)
        loads = db.execute("SELECT COALESCE(SUM(e.steps), 0) FROM expert_load_chunk e JOIN run r ON r.id = e.run_id "
                           "WHERE r.name = ?", (variant,)).fetchone()[0]
        db.close()
        return out, result, metrics, loads

    def test_import_dense(self):
        out, result, metrics, loads = self.import_run("dense")
        losses = validation_losses(os.path.join(out, "train.log"))
        self.assertAlmostEqual(max(metrics["val_loss"].items())[1], losses[-1], places=4)
        self.assertGreater(len(metrics["lm_loss"]), 0)
        self.assertEqual(len(metrics["elapsed_ms_per_iter"]), len(metrics["lm_loss"]))
        self.assertIn("tokens_per_s_per_gpu", metrics)
        self.assertEqual(loads, 0)

    def test_import_moe(self):
        out, result, metrics, loads = self.import_run("moe-cf1.0")
        losses = validation_losses(os.path.join(out, "train.log"))
        self.assertAlmostEqual(max(metrics["val_loss"].items())[1], losses[-1], places=4)
        steps = len(metrics["lm_loss"])
        self.assertGreater(steps, 0)
        self.assertIn("load_balancing_loss", metrics)
        record = read_json(os.path.join(out, "record.json"))
        self.assertEqual(loads, steps * record["model"]["moe_layers"], "expert load of every step and layer")
        formats = {f["format"] for f in result["runs"][0]["plan"]["files"]}
        self.assertIn("megatron-log", formats)
        # The profiler's traces of every rank (torch 1.13: the legacy format) give the
        # busiest-device share of the profiled iterations (docs/anatomy.md).
        self.assertIn("torch-legacy-json", formats)
        self.assertEqual(len([f for f in result["runs"][0]["plan"]["files"] if f["format"] == "torch-legacy-json"]), WORLD)
        self.assertGreater(len(metrics["trace_busiest_share"]), 0)
        db = sqlite3.connect(os.path.join(self.tmp, "moe-cf1.0.moewb"))
        rows = collections.defaultdict(list)
        for step, rank, step_us, busy_us in db.execute(
                "SELECT a.step, a.rank, a.step_us, a.busy_us FROM step_anatomy a JOIN run r ON r.id = a.run_id "
                "WHERE r.name = ?", ("moe-cf1.0",)):
            rows[step].append((rank, step_us, busy_us))
        db.close()
        for step, share in metrics["trace_busiest_share"].items():
            self.assertIn(step, metrics["lm_loss"], "trace step %d is a logged iteration" % step)
            self.assertEqual(sorted(r for r, _, _ in rows[step]), list(range(WORLD)), "every rank's row")
            # The busiest rank: the largest busy time (lowest rank on ties); its share of its own step.
            rank, step_us, busy_us = min(rows[step], key=lambda r: (-r[2], r[0]))
            self.assertAlmostEqual(share, busy_us / step_us, places=9)
            self.assertAlmostEqual(metrics["trace_mean_share"][step],
                                   sum(b / s for _, s, b in rows[step]) / WORLD, places=9)
            self.assertLessEqual(share, 1.0)
        self.assertIn("megatron-tpe-jsonl", formats)
        if "moewb-collect-jsonl" in formats:
            # The sidecar importer: the drop rate of every step from the sidecar lines.
            side = collections.defaultdict(lambda: [0, 0])
            for r in range(WORLD):
                for l in read_jsonl(os.path.join(out, "moewb_collect", "rank%d.jsonl" % r))[1:]:
                    if l["kind"] == "drops":
                        side[l["step"]][0] += l["dropped_tokens"]
                        side[l["step"]][1] += l["tokens"]
            self.assertEqual(set(metrics["drop_rate"]), set(side))
            for step, (d, t) in side.items():
                self.assertAlmostEqual(metrics["drop_rate"][step], d / t, places=9)
        else:
            sys.stderr.write("note: this moewb has no moewb-collect-jsonl importer; drop rate not checked\n")


def _ep_rank(rank, world, rendezvous, reference_dir, results):
    import torch
    import torch.distributed as dist
    torch.set_num_threads(1)
    os.environ["GLOO_SOCKET_IFNAME"] = "lo"
    dist.init_process_group("gloo", init_method="file://" + rendezvous, rank=rank, world_size=world)
    for cf in (1.0, None):
        _ep_check(rank, world, cf, reference_dir, results)
    dist.destroy_process_group()


def _ep_check(rank, world, cf, reference_dir, results):
    """One rank of the expert-parallel check: the MoE layer's output and gradients against
    a loop over tokens that applies every expert by hand on one process."""
    import torch
    sys.path.insert(0, reference_dir)
    from reference_moe import MoELayer
    E, K, D, H, T = 8, 2, 16, 8, 40
    torch.manual_seed(0)
    layer = MoELayer(D, H, E, K, cf, 0, 3, rank, world)
    every = MoELayer(D, H, E, K, cf, 0, 3, 0, 1)  # the same experts, all of them on one process
    router = layer.router.weight.detach()
    g = torch.Generator().manual_seed(5 + world)
    xs = [torch.randn(T, D, generator=g) for _ in range(world)]
    x = xs[rank].clone().requires_grad_()
    y = layer(x)
    (y * (rank + 1)).sum().backward()
    # By hand, every rank's tokens: softmax, top-2, gates renormalised, capacity
    # ceil(cf*T*K/E) per expert over one rank's tokens, the first assignments in token
    # order kept, loss = sum over ranks of (rank+1) * output.
    w1 = every.w1.detach().clone().requires_grad_()
    w2 = every.w2.detach().clone().requires_grad_()
    xn = [t.clone().requires_grad_() for t in xs]
    cap = None if cf is None else math.ceil(cf * T * K / E)
    total, mine, dropped = 0, None, 0
    for r, xr in enumerate(xn):
        probs = torch.softmax(xr @ router.t(), -1)
        used = [0] * E
        rows = []
        for t in range(T):
            top = sorted(range(E), key=lambda e: -float(probs[t, e]))[:K]
            norm = sum(probs[t, e] for e in top)
            row = torch.zeros(D)
            for e in top:
                used[e] += 1
                if cap is not None and used[e] > cap:
                    dropped += 1
                    continue
                row = row + probs[t, e] / norm * (torch.relu(xr[t] @ w1[e].t()) @ w2[e].t())
            rows.append(row)
        out = torch.stack(rows)
        if r == rank:
            mine = out.detach()
        total = total + (r + 1) * out.sum()
    total.backward()
    local = E // world
    lo = rank * local
    results.put((cf, rank, {
        "output": torch.allclose(y.detach(), mine, atol=1e-5),
        "x_grad": torch.allclose(x.grad, xn[rank].grad, atol=1e-5),
        "w1_grad": torch.allclose(layer.w1.grad, w1.grad[lo:lo + local], atol=1e-5),
        "w2_grad": torch.allclose(layer.w2.grad, w2.grad[lo:lo + local], atol=1e-5),
        "dropped": dropped,
    }))


class ExpertParallel(unittest.TestCase):
    """reference_moe.MoELayer over EP_WORLD gloo processes (uneven all_to_all_single splits, the
    hand-written backward) equals a by-hand loop over tokens and experts on one process."""

    def test_against_a_loop_by_hand(self):
        import torch.multiprocessing as mp
        results = mp.get_context("spawn").SimpleQueue()
        with tempfile.TemporaryDirectory(prefix="moewb-reference-ep-") as tmp:
            mp.spawn(_ep_rank, args=(EP_WORLD, os.path.join(tmp, "rendezvous"),
                                     os.path.dirname(os.path.abspath(ARGS.script)), results),
                     nprocs=EP_WORLD)
        got = {}
        for _ in range(2 * EP_WORLD):
            cf, rank, r = results.get()
            got[(cf, rank)] = r
        for cf in (1.0, None):
            for rank in range(EP_WORLD):
                r = dict(got[(cf, rank)])
                dropped = r.pop("dropped")
                self.assertEqual(r, {"output": True, "x_grad": True, "w1_grad": True, "w2_grad": True}, (cf, rank))
                if cf is None:
                    self.assertEqual(dropped, 0)
                else:
                    self.assertGreater(dropped, 0, "the check must exercise dropping")


def children_of(pid):
    kids = []
    for entry in os.listdir("/proc"):
        if not entry.isdigit():
            continue
        try:
            with open("/proc/%s/stat" % entry) as f:
                stat = f.read()
        except OSError:
            continue
        ppid = int(stat[stat.rindex(")") + 2:].split()[1])
        if ppid == pid:
            kids.append(int(entry))
    return kids


def alive(pid):
    try:
        with open("/proc/%d/stat" % pid) as f:
            stat = f.read()
    except OSError:
        return False
    return stat[stat.rindex(")") + 2] != "Z"


class Signals(unittest.TestCase):
    def cancel(self, signum, wait_for):
        out = tempfile.mkdtemp(prefix="moewb-reference-signal-")
        try:
            p = subprocess.Popen([sys.executable, ARGS.script, "--out", out, "--variant", "moe-cf1.0", "--quick",
                                  "--world", str(WORLD)], stdout=subprocess.PIPE, stderr=subprocess.PIPE, text=True)
            deadline = time.monotonic() + 60
            while time.monotonic() < deadline:
                line = p.stdout.readline()
                if not line or wait_for in line:
                    break
            kids = children_of(p.pid)
            self.assertEqual(len(kids), WORLD, "one process per rank")
            t0 = time.monotonic()
            p.send_signal(signum)
            code = p.wait(timeout=10)
            elapsed = time.monotonic() - t0
            err = p.stderr.read()
            p.stdout.close()
            p.stderr.close()
            self.assertLess(elapsed, 2.0, "ended within 2 s")
            self.assertNotEqual(code, 0)
            self.assertEqual(len(err.strip().splitlines()), 1, err)
            self.assertIn("cancelled", err)
            time.sleep(0.2)
            self.assertEqual([k for k in kids if alive(k)], [], "every rank ended")
            self.assertEqual(os.listdir(out), [], "nothing half-written")
        finally:
            subprocess.run(["rm", "-rf", out])

    def test_sigterm_while_training(self):
        self.cancel(signal.SIGTERM, "iteration 5/")

    def test_sigint_while_starting(self):
        self.cancel(signal.SIGINT, "starting")

    def test_usage_errors(self):
        out = tempfile.mkdtemp(prefix="moewb-reference-usage-")
        try:
            p = run([sys.executable, ARGS.script, "--out", out, "--variant", "moe-cf1.0", "--world", "3"])
            self.assertEqual(p.returncode, 2)
            self.assertEqual(len(p.stderr.strip().splitlines()), 1)
            self.assertIn("--world", p.stderr)
            open(os.path.join(out, "train.log"), "w").close()
            p = run([sys.executable, ARGS.script, "--out", out, "--variant", "dense"])
            self.assertEqual(p.returncode, 2)
            self.assertIn("train.log", p.stderr)
            self.assertEqual(os.listdir(out), ["train.log"])
        finally:
            subprocess.run(["rm", "-rf", out])


if __name__ == "__main__":
    ap = argparse.ArgumentParser()
    ap.add_argument("--moewb", required=True)
    ap.add_argument("--script", required=True)
    ARGS, rest = ap.parse_known_args()
    unittest.main(argv=[sys.argv[0]] + rest, verbosity=2)
