"""The generic hook inside a real 2-process torch.distributed (gloo) training with expert
parallelism: tokens dispatched to the rank that holds their expert with all_to_all_single
and uneven splits, experts computed there, combined back, backward and SGD. Each rank
works out in plain Python what the collector should write; the files must say exactly
that."""

import json
import os
import socket
import tempfile
import unittest

import helpers  # noqa: F401  (sys.path)
from helpers import brute_force, megatron_capacity, read_outputs

import torch
import torch.distributed as dist
import torch.multiprocessing as mp

E, K, H, T, LAYERS, STEPS, WORLD = 8, 2, 16, 96, 2, 4, 2
LOCAL = E // WORLD
CF = 1.0


def free_port():
    with socket.socket() as s:
        s.bind(("127.0.0.1", 0))
        return s.getsockname()[1]


def worker(rank, port, out_dir):
    from moewb_collect import Collector
    import torch.distributed.nn.functional as dnn

    dist.init_process_group("gloo", init_method=f"tcp://127.0.0.1:{port}", rank=rank,
                            world_size=WORLD)
    torch.manual_seed(100)  # the same model on both ranks
    routers = [torch.nn.Linear(H, E) for _ in range(LAYERS)]
    with torch.no_grad():
        for r in routers:  # skew: experts 0-2 popular, so some overflow and splits differ
            r.bias.copy_(torch.tensor([1.5, 1.0, 0.8, 0, 0, 0, -0.5, -1.0]))
    torch.manual_seed(200 + rank)  # each rank: its own local experts and data
    experts = [[torch.nn.Linear(H, H) for _ in range(LOCAL)] for _ in range(LAYERS)]
    params = [p for m in routers for p in m.parameters()] + \
             [p for layer in experts for m in layer for p in m.parameters()]
    opt = torch.optim.SGD(params, lr=0.01)
    col = Collector(out_dir, num_experts=E, topk=K, moe_layers=LAYERS)
    expected = {}
    splits_seen = []
    cap = megatron_capacity(T, E, K, CF)
    for step in range(1, STEPS + 1):
        col.step_begin()
        x = torch.randn(T, H)
        target = torch.randn(T, H)
        h = x
        for layer in range(LAYERS):
            probs = torch.softmax(routers[layer](h), dim=-1)
            top_p, idx = torch.topk(probs, K, dim=-1)
            col.record_routing(layer, topk_indices=idx, capacity=cap)
            expected[f"{step},{layer}"] = brute_force(E, K, idx.tolist(), cap)
            # the training's own capacity dropping (position: first in token order)
            rmap = torch.zeros(T, E, dtype=torch.bool).scatter_(1, idx, True)
            keep_map = rmap & (rmap.cumsum(0) <= cap)
            kept = keep_map.gather(1, idx)  # [T, K]
            tok = torch.arange(T).unsqueeze(1).expand(T, K)[kept]
            exp_ids = idx[kept]
            weights = top_p[kept]
            order = torch.argsort(exp_ids // LOCAL, stable=True)
            tok, exp_ids, weights = tok[order], exp_ids[order], weights[order]
            send_splits = torch.bincount(exp_ids // LOCAL, minlength=WORLD)
            recv_splits = torch.empty_like(send_splits)
            dist.all_to_all_single(recv_splits, send_splits)
            ins, outs = send_splits.tolist(), recv_splits.tolist()
            splits_seen.append(ins)
            with col.alltoall():
                recv_x = dnn.all_to_all_single(torch.empty(sum(outs), H), h[tok], outs, ins)
                recv_e = torch.empty(sum(outs), dtype=torch.long)
                dist.all_to_all_single(recv_e, exp_ids.contiguous(), outs, ins)
            with col.expert_compute():
                y = torch.zeros_like(recv_x)
                local = recv_e - rank * LOCAL
                for j in range(LOCAL):
                    sel = (local == j).nonzero().view(-1)
                    y = y.index_add(0, sel, torch.tanh(experts[layer][j](recv_x[sel])))
            with col.alltoall():
                back = dnn.all_to_all_single(torch.empty(len(tok), H), y, ins, outs)
            h = h + torch.zeros_like(h).index_add(0, tok, back * weights.unsqueeze(1))
        loss = (h - target).pow(2).mean()
        loss.backward()
        opt.step()
        opt.zero_grad()
        col.step_end(step)
    col.close()
    with open(os.path.join(out_dir, f"expected{rank}.json"), "w") as f:
        json.dump({"expected": expected, "splits": splits_seen}, f)
    dist.barrier()
    dist.destroy_process_group()


class GlooTrainingTest(unittest.TestCase):
    def test_two_rank_expert_parallel_training(self):
        with tempfile.TemporaryDirectory() as d:
            mp.spawn(worker, args=(free_port(), d), nprocs=WORLD, join=True)
            uneven = False
            for rank in range(WORLD):
                with open(os.path.join(d, f"expected{rank}.json")) as f:
                    ref = json.load(f)
                uneven = uneven or any(s[0] != s[1] for s in ref["splits"])
                tpe, header, drops, times = read_outputs(d, rank)
                self.assertEqual((header["rank"], header["world"], header["framework"]),
                                 (rank, WORLD, "generic"))
                self.assertEqual(len(tpe), STEPS * LAYERS)
                total_dropped = 0
                for key, (counts, tokens, D, DA) in ref["expected"].items():
                    step, layer = map(int, key.split(","))
                    self.assertEqual(tpe[(step, layer)], counts)
                    row = drops[(step, layer)]
                    self.assertEqual((row["tokens"], row["assignments"], row["dropped_tokens"],
                                      row["dropped_assignments"]), (tokens, tokens * K, D, DA))
                    total_dropped += DA
                self.assertGreater(total_dropped, 0, "capacity factor 1.0 with a skew drops")
                self.assertEqual(sorted(times), list(range(1, STEPS + 1)))
                for t in times.values():
                    self.assertGreater(t["a2a_s"], 0)
                    self.assertGreater(t["compute_s"], 0)
                    self.assertLessEqual(t["a2a_s"] + t["compute_s"], t["step_s"])
            self.assertTrue(uneven, "the dispatch splits must be uneven")


if __name__ == "__main__":
    unittest.main()
