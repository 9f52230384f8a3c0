"""Counts and drops of the generic hook against a brute-force loop; the written files."""

import os
import tempfile
import time
import unittest

import helpers  # noqa: F401  (sys.path)
from helpers import brute_force, megatron_capacity, read_outputs

import torch
from moewb_collect import Collector, routing_stats


def random_topk(gen, tokens, experts, k, skew=0.0):
    """Distinct experts per token (as top-k gives), skewed towards low expert ids."""
    w = torch.tensor([1.0 + skew * (experts - e) for e in range(experts)])
    scores = torch.rand((tokens, experts), generator=gen) * w
    return torch.topk(scores, k, dim=1).indices, torch.softmax(scores * 3, dim=1)


class RoutingStatsTest(unittest.TestCase):
    def check(self, E, K, idx, capacity=None, policy="position", probs=None, via="topk"):
        rows = idx.tolist()
        pl = probs.tolist() if probs is not None else None
        exp_counts, exp_T, exp_D, exp_DA = brute_force(E, K, rows, capacity, policy, pl)
        rmap = torch.zeros((len(rows), E), dtype=torch.bool).scatter_(1, idx, True)
        if via == "topk":
            counts, T, D = routing_stats(E, K, topk_indices=idx, capacity=capacity,
                                         probs=probs, drop_policy=policy)
        else:
            counts, T, D = routing_stats(E, K, routing_map=rmap, capacity=capacity,
                                         probs=probs, drop_policy=policy)
        got_counts = counts.tolist()
        got_D = int(D)
        self.assertEqual(got_counts, exp_counts)
        self.assertEqual(T, exp_T)
        self.assertEqual(got_D, exp_D)
        self.assertEqual(T * K - sum(got_counts), exp_DA)
        return exp_D, exp_DA

    def test_no_capacity_counts(self):
        g = torch.Generator().manual_seed(1)
        for E, K, T in ((8, 2, 100), (64, 2, 1000), (16, 4, 37), (4, 1, 9)):
            idx, _ = random_topk(g, T, E, K, skew=0.5)
            for via in ("topk", "map"):
                D, DA = self.check(E, K, idx, via=via)
                self.assertEqual((D, DA), (0, 0))

    def test_capacity_position(self):
        g = torch.Generator().manual_seed(2)
        seen_drop = False
        for E, K, T, cf in ((8, 2, 200, 1.0), (8, 2, 200, 1.25), (16, 4, 77, 1.0), (4, 1, 50, 0.5),
                            (8, 2, 3, 1.0)):
            idx, _ = random_topk(g, T, E, K, skew=0.8)
            cap = megatron_capacity(T, E, K, cf)
            for via in ("topk", "map"):
                D, DA = self.check(E, K, idx, capacity=cap, via=via)
                seen_drop = seen_drop or DA > 0
                self.assertLessEqual(D * K, DA)
        self.assertTrue(seen_drop, "the skewed routings must overflow some expert")

    def test_capacity_probs(self):
        g = torch.Generator().manual_seed(3)
        for E, K, T, cf in ((8, 2, 150, 1.0), (16, 2, 64, 1.0), (4, 1, 40, 0.75)):
            idx, probs = random_topk(g, T, E, K, skew=0.8)
            cap = megatron_capacity(T, E, K, cf)
            D, DA = self.check(E, K, idx, capacity=cap, policy="probs", probs=probs)
            self.assertGreater(DA, 0)
            # the same probabilities given only for the k chosen experts ([T, K])
            counts, T2, D2 = routing_stats(E, K, topk_indices=idx, capacity=cap,
                                           probs=probs.gather(1, idx), drop_policy="probs")
            self.assertEqual(int(D2), D)
            self.assertEqual(T2 * K - int(counts.sum()), DA)

    def test_kept_map(self):
        g = torch.Generator().manual_seed(4)
        E, K, T = 8, 2, 60
        idx, _ = random_topk(g, T, E, K, skew=1.0)
        rows = idx.tolist()
        # an arbitrary framework decision: drop assignments at random
        keep = (torch.rand((T, K), generator=g) > 0.3).tolist()
        kept_map = torch.zeros((T, E), dtype=torch.bool)
        exp_counts = [0] * E
        exp_D = 0
        for t in range(T):
            n = 0
            for j in range(K):
                if keep[t][j]:
                    kept_map[t, rows[t][j]] = True
                    exp_counts[rows[t][j]] += 1
                    n += 1
            exp_D += n == 0
        counts, TT, D = routing_stats(E, K, kept_map=kept_map)
        self.assertEqual(counts.tolist(), exp_counts)
        self.assertEqual(int(D), exp_D)
        self.assertGreater(exp_D, 0)

    def test_bad_input(self):
        with self.assertRaises(ValueError):
            routing_stats(8, 2)
        with self.assertRaises(ValueError):
            routing_stats(8, 2, routing_map=torch.zeros((4, 7), dtype=torch.bool))
        with self.assertRaises(ValueError):
            routing_stats(8, 2, topk_indices=torch.zeros((4, 2), dtype=torch.long), capacity=1,
                          drop_policy="probs")
        with self.assertRaises(ValueError):
            Collector("/nonexistent", num_experts=4, topk=5, moe_layers=1)


class CollectorFilesTest(unittest.TestCase):
    def test_steps_layers_microbatches_every(self):
        E, K, L = 16, 2, 3
        g = torch.Generator().manual_seed(5)
        with tempfile.TemporaryDirectory() as d:
            col = Collector(d, num_experts=E, topk=K, moe_layers=L, every=2, rank=3, world=4)
            expected = {}
            for step in range(1, 7):
                col.step_begin()
                for layer in (1, 3, 5):  # Megatron-style layer numbers, not 0..L-1
                    acc = None
                    for _micro in range(3):
                        idx, _ = random_topk(g, 40, E, K, skew=0.9)
                        cap = megatron_capacity(40, E, K, 1.0)
                        col.record_routing(layer, topk_indices=idx, capacity=cap)
                        c, T, D, DA = brute_force(E, K, idx.tolist(), cap)
                        if acc is None:
                            acc = [c, T, D, DA]
                        else:
                            acc = [[a + b for a, b in zip(acc[0], c)], acc[1] + T, acc[2] + D,
                                   acc[3] + DA]
                    expected[(step, layer)] = acc
                    with col.alltoall():
                        time.sleep(0.002)
                    with col.expert_compute():
                        time.sleep(0.003)
                col.step_end(step)
            col.close()
            tpe, header, drops, times = read_outputs(d, rank=3)
            self.assertEqual(header, {"format": "moewb-collect/1", "rank": 3, "world": 4,
                                      "framework": "generic", "experts": E, "topk": K,
                                      "moe_layers": L, "every": 2, "clock": "monotonic"})
            self.assertEqual(sorted(tpe), [(s, l) for s in (2, 4, 6) for l in (1, 3, 5)])
            self.assertEqual(sorted(times), [2, 4, 6])
            for key, (c, T, D, DA) in expected.items():
                if key[0] % 2:
                    continue
                self.assertEqual(tpe[key], c)
                row = drops[key]
                self.assertEqual((row["tokens"], row["assignments"], row["dropped_tokens"],
                                  row["dropped_assignments"]), (T, T * K, D, DA))
            for t in times.values():
                self.assertGreaterEqual(t["a2a_s"], 3 * 0.002 * 0.9)
                self.assertGreaterEqual(t["compute_s"], 3 * 0.003 * 0.9)
                self.assertLessEqual(t["a2a_s"] + t["compute_s"], t["step_s"])

    def test_every_kind_of_call_in_one_step(self):
        """All input kinds, both policies and uneven micro-batch sizes in one step: the
        batched counting at step_end must equal the brute force per call."""
        for limit in (None, 1):  # counted at step_end, or at every call (held-bytes bound)
            self.every_kind(limit)

    def every_kind(self, limit):
        E, K = 8, 2
        g = torch.Generator().manual_seed(6)
        with tempfile.TemporaryDirectory() as d:
            col = Collector(d, num_experts=E, topk=K, moe_layers=5)
            if limit is not None:
                col._pending_limit = limit
            exp = {}

            def add(layer, r):
                a = exp.get(layer)
                exp[layer] = r if a is None else [[x + y for x, y in zip(a[0], r[0])],
                                                  a[1] + r[1], a[2] + r[2], a[3] + r[3]]

            col.step_begin()
            for T in (30, 30, 17):
                idx, probs = random_topk(g, T, E, K, skew=0.9)
                rows = idx.tolist()
                cap = megatron_capacity(T, E, K, 1.0)
                rmap = torch.zeros((T, E), dtype=torch.bool).scatter_(1, idx, True)
                col.record_routing(0, topk_indices=idx)
                add(0, brute_force(E, K, rows))
                col.record_routing(1, topk_indices=idx, capacity=cap)
                add(1, brute_force(E, K, rows, cap))
                col.record_routing(2, routing_map=rmap, capacity=cap, probs=probs,
                                   drop_policy="probs")
                add(2, brute_force(E, K, rows, cap, "probs", probs.tolist()))
                col.record_routing(3, topk_indices=idx, capacity=cap, probs=probs.gather(1, idx),
                                   drop_policy="probs")
                add(3, brute_force(E, K, rows, cap, "probs", probs.tolist()))
                keep = rmap & (torch.rand((T, E), generator=g) > 0.4)
                col.record_routing(4, kept_map=keep)
                kept_rows = [[e for e in range(E) if keep[t, e]] for t in range(T)]
                c, _, D, _ = brute_force(E, K, kept_rows)
                add(4, [c, T, D, T * K - sum(c)])
            col.step_end(1)
            col.close()
            tpe, _h, drops, _t = read_outputs(d)
            for layer, (c, T, D, DA) in exp.items():
                self.assertEqual(tpe[(1, layer)], c, layer)
                row = drops[(1, layer)]
                self.assertEqual((row["tokens"], row["dropped_tokens"], row["dropped_assignments"]),
                                 (T, D, DA), layer)
            self.assertGreater(sum(exp[l][3] for l in (1, 2, 3)), 0)

    def test_slow_disk_never_blocks_the_step(self):
        """A writer slowed to 0.2 s a write: step_end stays fast, the queue (2 steps)
        overflows, the lost steps are counted with one warning, the rest is written."""
        import warnings
        with tempfile.TemporaryDirectory() as d:
            col = Collector(d, num_experts=4, topk=1, moe_layers=1, max_pending=2)
            fast_write = Collector._write

            def slow_write(f, data):
                time.sleep(0.2)
                fast_write(f, data)

            col._write = slow_write
            worst = 0.0
            with warnings.catch_warnings(record=True) as caught:
                warnings.simplefilter("always")
                for step in range(1, 21):
                    col.step_begin()
                    col.record_routing(0, topk_indices=torch.tensor([[0], [1], [3]]))
                    t0 = time.perf_counter()
                    col.step_end(step)
                    worst = max(worst, time.perf_counter() - t0)
                col.close()
            self.assertLess(worst, 0.1)
            self.assertGreater(col.lost_steps, 0)
            mine = [w for w in caught if "moewb_collect" in str(w.message)]
            self.assertEqual(len(mine), 1, [str(w.message) for w in mine])
            tpe, _h, _d, times = read_outputs(d)
            self.assertEqual(len(times), 20 - col.lost_steps)
            self.assertEqual(sorted(s for s, _ in tpe), sorted(times))
            for counts in tpe.values():
                self.assertEqual(counts, [1, 1, 0, 1])

    def test_cuda_events_bookkeeping(self):
        """The cuda-events clock's bookkeeping (events recorded, paired, resolved on
        the writer thread, returned to the pool), with torch.cuda.Event replaced by a host-clock
        event of the same methods: this machine has no GPU."""
        class HostEvent:
            made = 0

            def __init__(self, enable_timing=False):
                HostEvent.made += 1
                self.t = None

            def record(self, stream=None):
                self.t = time.perf_counter()

            def synchronize(self):
                pass

            def elapsed_time(self, end):
                return (end.t - self.t) * 1000.0

        real = torch.cuda.Event
        torch.cuda.Event = HostEvent
        try:
            with tempfile.TemporaryDirectory() as d:
                col = Collector(d, num_experts=4, topk=1, moe_layers=1, clock="cuda-events")
                for step in range(1, 6):
                    col.step_begin()
                    for _ in range(3):
                        with col.alltoall():
                            time.sleep(0.002)
                        with col.expert_compute():
                            time.sleep(0.003)
                    col.record_routing(0, topk_indices=torch.tensor([[0], [2]]))
                    col.step_end(step)
                    time.sleep(0.05)  # the writer reads the events and returns them
                col.close()
                _tpe, header, _d, times = read_outputs(d)
        finally:
            torch.cuda.Event = real
        self.assertEqual(header["clock"], "cuda-events")
        self.assertEqual(sorted(times), [1, 2, 3, 4, 5])
        for t in times.values():
            self.assertGreaterEqual(t["a2a_s"], 0.006 * 0.9)
            self.assertGreaterEqual(t["compute_s"], 0.009 * 0.9)
            self.assertLessEqual(t["a2a_s"] + t["compute_s"], t["step_s"])
        # 14 events a step (its start and end, 6 spans); the writer returns them to the
        # pool once read: without reuse 5 steps would make 70
        self.assertLessEqual(HostEvent.made, 2 * 14, "events are reused from the pool")

    def test_null_times_and_append(self):
        with tempfile.TemporaryDirectory() as d:
            for _run in range(2):
                col = Collector(d, num_experts=4, topk=1, moe_layers=1)
                col.step_begin()
                col.record_routing(0, topk_indices=torch.tensor([[0], [1], [1]]))
                col.step_end(1)
                col.close()
            from helpers import read_jsonl
            side = read_jsonl(os.path.join(d, "moewb_collect", "rank0.jsonl"))
            # a second collector on the same folder appends, one header
            self.assertEqual(sum(1 for o in side if "format" in o), 1)
            tl = [o for o in side if o.get("kind") == "time"]
            self.assertEqual(len(tl), 2)
            self.assertIsNone(tl[0]["a2a_s"])
            self.assertIsNone(tl[0]["compute_s"])


if __name__ == "__main__":
    unittest.main()
