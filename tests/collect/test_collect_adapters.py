"""Each adapter against its stand-in module (tests/collect/standins/: same class names,
attribute names and call signatures as the framework files they name). Expected counts
are computed here, in plain Python, from what the framework itself outputs."""

import math
import tempfile
import unittest

import helpers  # noqa: F401  (sys.path)
from helpers import read_outputs

import torch
from moewb_collect import Collector, attach_deepspeed, attach_huggingface, attach_megatron, \
    attach_torchtitan


def count_map(map_rows, E):
    """Plain loops over a [T][E] 0/1 map: (counts, tokens, tokens with no 1)."""
    counts = [0] * E
    dropped = 0
    for row in map_rows:
        n = 0
        for e, v in enumerate(row):
            if v:
                counts[e] += 1
                n += 1
        dropped += n == 0
    return counts, len(map_rows), dropped


def add_into(acc, key, counts, T, D):
    if key not in acc:
        acc[key] = [counts, T, D]
    else:
        a = acc[key]
        acc[key] = [[x + y for x, y in zip(a[0], counts)], a[1] + T, a[2] + D]


class AdapterTest(unittest.TestCase):
    def check_outputs(self, d, expected, K, framework, a2a_expected, compute_expected):
        tpe, header, drops, times = read_outputs(d)
        self.assertEqual(header["framework"], framework)
        self.assertEqual(len(expected), 3 * header["moe_layers"])  # 3 steps, every layer
        self.assertEqual(sorted(times), [1, 2, 3])
        self.assertEqual(sorted(tpe), sorted(expected))
        for key, (counts, T, D) in expected.items():
            self.assertEqual(tpe[key], counts, key)
            row = drops[key]
            self.assertEqual(row["tokens"], T, key)
            self.assertEqual(row["assignments"], T * K, key)
            self.assertEqual(row["dropped_tokens"], D, key)
            self.assertEqual(row["dropped_assignments"], T * K - sum(counts), key)
        for step, t in times.items():
            if a2a_expected:
                self.assertGreater(t["a2a_s"], 0.0)
            else:
                self.assertIsNone(t["a2a_s"])
            if compute_expected:
                self.assertGreater(t["compute_s"], 0.0)
            self.assertLessEqual((t["a2a_s"] or 0) + (t["compute_s"] or 0), t["step_s"] * 1.001)
        return drops

    def test_megatron(self):
        import megatron_core_moe as mc
        E, K, L = 8, 2, 3
        for policy in ("position", "probs"):
            torch.manual_seed(10)
            cfg = mc.TransformerConfig(hidden_size=16, num_moe_experts=E, moe_router_topk=K,
                                       moe_expert_capacity_factor=1.0, moe_token_drop_policy=policy)
            model = mc.GPTModel(cfg, L, recompute=(1,))  # layer 1 recomputed in backward
            opt = torch.optim.SGD(model.parameters(), lr=0.05)
            with tempfile.TemporaryDirectory() as d:
                col = Collector(d, num_experts=E, topk=K, moe_layers=L)
                h = attach_megatron(model, col)
                self.assertEqual([n for n, _ in h.layers],
                                 ["decoder.layers.%d.mlp" % i for i in range(L)])
                expected = {}
                step_box = [0]

                def capture(m, _inp, out, layer):
                    if m.training and torch.is_grad_enabled():
                        c, T, D = count_map(out[1].int().tolist(), E)
                        add_into(expected, (step_box[0], layer), c, T, D)

                mine = [mod.mlp.router.register_forward_hook(
                    lambda m, i, o, layer=n: capture(m, i, o, layer))
                    for n, mod in enumerate(model.decoder.layers)]
                for step in range(1, 4):
                    step_box[0] = step
                    col.step_begin()
                    for _micro in range(2):
                        x = torch.randn(12, 2, 16)
                        loss = model(x).pow(2).mean()
                        loss.backward()
                    opt.step()
                    opt.zero_grad()
                    col.step_end(step)
                    with torch.no_grad():  # evaluation: not counted
                        model.eval()
                        model(torch.randn(5, 2, 16))
                        model.train()
                col.close()
                h.remove()
                for r in mine:
                    r.remove()
                self.assertNotIn("token_dispatch", model.decoder.layers[0].mlp.token_dispatcher.__dict__)
                # every layer counted once per micro-batch: 2 x 24 tokens, the
                # recomputed layer too
                self.assertEqual({v[1] for v in expected.values()}, {48})
                drops = self.check_outputs(d, expected, K, "megatron-core", True, True)
                self.assertGreater(sum(r["dropped_assignments"] for r in drops.values()), 0)

    def test_torchtitan(self):
        import torchtitan_moe as tt
        E, K, L = 8, 2, 2
        # zeroed by the expert-bias pre-hook, or never zeroed; with torch's non-reentrant
        # checkpoint wrapper the router runs again in backward (the buffer counts twice)
        for coeff, recompute in ((1e-3, False), (None, False), (1e-3, True)):
            torch.manual_seed(11)
            model = tt.Transformer(16, 24, E, K, L, load_balance_coeff=coeff, recompute=recompute)
            opt = torch.optim.SGD(model.parameters(), lr=0.05)
            with tempfile.TemporaryDirectory() as d:
                col = Collector(d, num_experts=E, topk=K, moe_layers=L)
                h = attach_torchtitan(model, col)
                self.assertEqual([l for _, l in h.layers], [0, 1])
                expected = {}
                step_box = [0]

                def capture(m, _inp, out, layer):
                    if m.training and torch.is_grad_enabled() and not recomputing[0]:
                        rows = out[1].tolist()
                        c = [0] * E
                        for r in rows:
                            for e in r:
                                c[e] += 1
                        add_into(expected, (step_box[0], layer), c, len(rows), 0)

                recomputing = [False]
                routers = [m for n, m in model.named_modules() if n.endswith("moe.router")]
                self.assertEqual(len(routers), L)
                mine = [r.register_forward_hook(lambda m, i_, o, layer=i: capture(m, i_, o, layer))
                        for i, r in enumerate(routers)]
                for step in range(1, 4):
                    step_box[0] = step
                    col.step_begin()
                    for _micro in range(2):
                        loss = model(torch.randn(2, 10, 16)).pow(2).mean()
                        recomputing[0] = True  # backward's router calls are the recomputation
                        loss.backward()
                        recomputing[0] = False
                    if coeff is not None:
                        h.read()  # after backward, before the optimizer's pre-hook zeroes
                        tt.update_expert_bias(model)
                    opt.step()
                    opt.zero_grad()
                    col.step_end(step)  # reads here when nobody zeroes the buffer
                    with torch.no_grad():
                        model.eval()
                        model(torch.randn(1, 4, 16))
                        model.train()
                col.close()
                h.remove()
                for r in mine:
                    r.remove()
                self.check_outputs(d, expected, K, "torchtitan", False, True)

    def test_deepspeed(self):
        import deepspeed_moe as ds
        E, K, L = 8, 2, 2
        torch.manual_seed(12)
        model = ds.Model(16, E, L, capacity_factor=1.0)
        opt = torch.optim.SGD(model.parameters(), lr=0.05)
        with tempfile.TemporaryDirectory() as d:
            col = Collector(d, num_experts=E, topk=K, moe_layers=L)
            h = attach_deepspeed(model, col)
            expected = {}
            step_box = [0]
            checked = []

            def capture(m, inp, out, layer):
                if not (m.training and torch.is_grad_enabled()):
                    return
                S = inp[0].shape[0]
                kept = [[any(slot) for slot in tok] for tok in out[2].tolist()]
                c, T, D = count_map(kept, E)
                # DeepSpeed's exp_counts: the demand before dropping; kept = min(demand, capacity)
                demand = out[3].tolist()
                cap = max(math.ceil(S / E * 1.0 * 2), 1)
                self.assertEqual(sum(demand), S * K)
                self.assertEqual(c, [min(x, cap) for x in demand])
                checked.append(True)
                add_into(expected, (step_box[0], layer), c, T, D)

            mine = [model.layers[i].mlp.deepspeed_moe.gate.register_forward_hook(
                lambda m, i_, o, layer=i: capture(m, i_, o, layer)) for i in range(L)]
            for step in range(1, 4):
                step_box[0] = step
                col.step_begin()
                out, aux = model(torch.randn(3, 20, 16))
                (out.pow(2).mean() + 0.01 * aux).backward()
                opt.step()
                opt.zero_grad()
                col.step_end(step)
            col.close()
            h.remove()
            for r in mine:
                r.remove()
            self.assertTrue(checked)
            drops = self.check_outputs(d, expected, K, "deepspeed", True, True)
            self.assertGreater(sum(r["dropped_assignments"] for r in drops.values()), 0)

    def test_huggingface(self):
        import hf_mixtral as hf
        cfg = hf.MixtralConfig(num_local_experts=8, num_experts_per_tok=2, num_hidden_layers=2)
        E, K, L = 8, 2, 2
        torch.manual_seed(13)
        model = hf.MixtralModel(cfg)
        opt = torch.optim.SGD(model.parameters(), lr=0.05)
        with tempfile.TemporaryDirectory() as d:
            col = Collector(d, num_experts=E, topk=K, moe_layers=L)
            h = attach_huggingface(model, col)
            self.assertEqual([n for n, _ in h.layers],
                             ["layers.0.block_sparse_moe", "layers.1.block_sparse_moe"])
            expected = {}
            step_box = [0]

            def capture(m, _inp, out, layer):
                if not (m.training and torch.is_grad_enabled()):
                    return
                c = [0] * E
                rows = out[1].tolist()
                for r in rows:  # the two largest logits, by plain sorting
                    for e in sorted(range(E), key=lambda j: -r[j])[:K]:
                        c[e] += 1
                add_into(expected, (step_box[0], layer), c, len(rows), 0)

            mine = [model.layers[i].block_sparse_moe.register_forward_hook(
                lambda m, i_, o, layer=i: capture(m, i_, o, layer)) for i in range(L)]
            for step in range(1, 4):
                step_box[0] = step
                col.step_begin()
                model(torch.randn(2, 9, 16)).pow(2).mean().backward()
                opt.step()
                opt.zero_grad()
                col.step_end(step)
            col.close()
            h.remove()
            for r in mine:
                r.remove()
            self.check_outputs(d, expected, K, "huggingface", False, True)

    def test_no_layers(self):
        col = Collector(tempfile.gettempdir(), num_experts=4, topk=1, moe_layers=1)
        for attach in (attach_megatron, attach_torchtitan, attach_deepspeed, attach_huggingface):
            with self.assertRaises(ValueError):
                attach(torch.nn.Linear(2, 2), col)
        col.close()


if __name__ == "__main__":
    unittest.main()
