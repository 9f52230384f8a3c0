"""The reference model: a tiny byte-level transformer LM whose FFNs are either dense or
expert-parallel MoE layers (real expert parallelism over torch.distributed / gloo).

Used by reference_train.py; see docs/reference.md. Standard library + torch 1.13 only.
"""

import math

import torch
import torch.distributed as dist
import torch.nn.functional as F
from torch import nn


def linear(x, weight):
    """x @ weight.T through a 1x1 convolution. Debian's torch 1.13 is built with a generic
    BLAS (torch.__config__.show(): BLAS_INFO=generic) whose matrix products are about 6x
    slower here than oneDNN's convolutions, forward and backward; the result is the same."""
    shape = x.shape
    y = F.conv2d(x.reshape(-1, shape[-1], 1, 1), weight[:, :, None, None])
    return y.reshape(shape[:-1] + (weight.shape[0],))


class Linear(nn.Module):
    """nn.Linear without bias, computed by linear() above."""

    def __init__(self, d_in, d_out):
        super().__init__()
        self.weight = nn.Parameter(torch.empty(d_out, d_in))
        nn.init.kaiming_uniform_(self.weight, a=math.sqrt(5))  # nn.Linear's default

    def forward(self, x):
        return linear(x, self.weight)


class _NullTimer:
    def __enter__(self):
        return self

    def __exit__(self, *exc):
        return False


_NULL = _NullTimer()


def _timer(collector, kind):
    if collector is None:
        return _NULL
    return collector.alltoall() if kind == "a2a" else collector.expert_compute()


class AllToAll(torch.autograd.Function):
    """all_to_all_single with uneven splits that autograd can go through.

    torch 1.13 has no autograd formula for all_to_all_single (and none for gloo), so the
    backward is written out: the gradient travels the reverse way, with the split sizes
    swapped. Both directions are timed as all-to-all when a collector is given."""

    @staticmethod
    def forward(ctx, x, out_splits, in_splits, collector):
        ctx.out_splits = out_splits
        ctx.in_splits = in_splits
        ctx.collector = collector
        out = x.new_empty((sum(out_splits),) + tuple(x.shape[1:]))
        with _timer(collector, "a2a"):
            dist.all_to_all_single(out, x.contiguous(), out_splits, in_splits)
        return out

    @staticmethod
    def backward(ctx, grad):
        g_in = grad.new_empty((sum(ctx.in_splits),) + tuple(grad.shape[1:]))
        with _timer(ctx.collector, "a2a"):
            dist.all_to_all_single(g_in, grad.contiguous(), ctx.in_splits, ctx.out_splits)
        return g_in, None, None, None


class ExpertMLPs(torch.autograd.Function):
    """The local experts' MLPs (linear -> ReLU -> linear, no biases) over rows grouped by
    local expert. The forward builds its own small autograd graph on detached inputs and
    the backward runs it, so that both passes of the experts, and nothing else, are timed
    as expert compute (collector.expert_compute()); the all-to-alls around them are timed
    as all-to-all, forward and backward."""

    @staticmethod
    def forward(ctx, x, w1, w2, sizes, collector, build_graph):
        ctx.collector = collector
        with _timer(collector, "compute"), torch.set_grad_enabled(build_graph):
            xd, w1d, w2d = (t.detach().requires_grad_(build_graph) for t in (x, w1, w2))
            outs = []
            off = 0
            for j, n in enumerate(sizes):
                outs.append(linear(torch.relu(linear(xd[off:off + n], w1d[j])), w2d[j]))
                off += n
            y = torch.cat(outs, 0) if outs else xd.new_empty((0, w2.shape[1]))
        ctx.graph = (xd, w1d, w2d, y)
        return y.detach()

    @staticmethod
    def backward(ctx, gy):
        xd, w1d, w2d, y = ctx.graph
        ctx.graph = None
        with _timer(ctx.collector, "compute"), torch.enable_grad():
            if y.numel() > 0:
                torch.autograd.backward(y, gy)
        grads = [t.grad if t.grad is not None else torch.zeros_like(t) for t in (xd, w1d, w2d)]
        return grads[0], grads[1], grads[2], None, None, None


def position_kept_map(routing_map, capacity):
    """Megatron-Core's capacity pruning with drop policy "position": per expert, the
    first `capacity` assignments in token order are kept. routing_map: bool [T, E]."""
    if capacity is None:
        return routing_map
    position = torch.cumsum(routing_map.to(torch.int64), dim=0)
    return routing_map & (position <= capacity)


class MoELayer(nn.Module):
    """Top-k softmax router + E experts spread over the ranks (E / world per rank),
    tokens dispatched to the experts' ranks with all_to_all_single (uneven splits, the
    splits exchanged first) and combined back with a second all_to_all_single."""

    def __init__(self, d_model, ffn_hidden, experts, top_k, capacity_factor, layer_number,
                 seed, rank, world):
        super().__init__()
        if experts % world != 0:
            raise ValueError("experts (%d) must be a multiple of the processes (%d)" % (experts, world))
        self.d_model = d_model
        self.experts = experts
        self.top_k = top_k
        self.capacity_factor = capacity_factor  # None = dropless
        self.layer_number = layer_number
        self.rank = rank
        self.world = world
        self.local = experts // world
        self.router = Linear(d_model, experts)
        # All experts' weights come from one generator seeded per layer, so expert e is the
        # same tensor whatever the number of processes; this rank keeps its slice.
        gen = torch.Generator().manual_seed(seed * 1000003 + layer_number * 1009)
        # [expert, out, in], as nn.Linear stores its weight.
        w1 = torch.randn(experts, ffn_hidden, d_model, generator=gen) / math.sqrt(d_model)
        w2 = torch.randn(experts, d_model, ffn_hidden, generator=gen) / math.sqrt(ffn_hidden)
        lo = rank * self.local
        self.w1 = nn.Parameter(w1[lo:lo + self.local].clone())
        self.w2 = nn.Parameter(w2[lo:lo + self.local].clone())
        self.w1.is_expert = True
        self.w2.is_expert = True
        self.collector = None
        self.last_aux = None

    def capacity(self, tokens):
        if self.capacity_factor is None:
            return None
        # Megatron-Core get_capacity: ceil(tokens * topk / experts * capacity_factor).
        return int(math.ceil(tokens * self.top_k / self.experts * self.capacity_factor))

    def forward(self, x):
        shape = x.shape
        x = x.reshape(-1, self.d_model)
        tokens = x.shape[0]
        logits = self.router(x)
        probs = torch.softmax(logits, dim=-1)
        top_p, top_idx = torch.topk(probs, self.top_k, dim=-1)
        gates = top_p / top_p.sum(dim=-1, keepdim=True)
        routing_map = torch.zeros(tokens, self.experts, dtype=torch.bool)
        routing_map.scatter_(1, top_idx, True)
        # Switch / Megatron-Core load-balancing loss (unscaled; 1.0 when balanced).
        demand = routing_map.sum(0).to(probs.dtype)
        self.last_aux = (probs.sum(0) * demand).sum() * (self.experts / (tokens * tokens * self.top_k))

        kept_map = position_kept_map(routing_map, self.capacity(tokens))
        if self.collector is not None and self.training:
            self.collector.record_routing(self.layer_number, topk_indices=top_idx, kept_map=kept_map)

        kept = kept_map.gather(1, top_idx).reshape(-1)          # [T*k] in (token, slot) order
        expert_of = top_idx.reshape(-1)[kept]
        token_of = torch.arange(tokens).repeat_interleave(self.top_k)[kept]
        gate_of = gates.reshape(-1)[kept]
        expert_sorted, order = torch.sort(expert_of, stable=True)
        token_sorted = token_of[order]
        gate_sorted = gate_of[order]

        send_counts = torch.bincount(expert_sorted, minlength=self.experts)   # per global expert
        recv_counts = torch.empty_like(send_counts)
        with _timer(self.collector, "a2a"):
            dist.all_to_all_single(recv_counts, send_counts)                 # the splits first
        recv_counts = recv_counts.view(self.world, self.local)               # [source rank, local expert]
        in_splits = send_counts.view(self.world, self.local).sum(1).tolist()
        out_splits = recv_counts.sum(1).tolist()

        dispatched = AllToAll.apply(x[token_sorted], out_splits, in_splits, self.collector)
        # Rows arrive source-major, each source's rows sorted by local expert: group them
        # by local expert for the MLPs, then put them back in arrival order.
        local_of = torch.arange(self.local).repeat(self.world).repeat_interleave(recv_counts.reshape(-1))
        _, perm = torch.sort(local_of, stable=True)
        sizes = recv_counts.sum(0).tolist()
        y = ExpertMLPs.apply(dispatched[perm], self.w1, self.w2, sizes, self.collector,
                            torch.is_grad_enabled())
        inverse = torch.empty_like(perm)
        inverse[perm] = torch.arange(perm.numel())
        combined = AllToAll.apply(y[inverse], in_splits, out_splits, self.collector)

        out = torch.zeros_like(x)
        out = out.index_add(0, token_sorted, combined * gate_sorted.unsqueeze(1))
        return out.reshape(shape)


class DenseFFN(nn.Module):
    def __init__(self, d_model, ffn_hidden):
        super().__init__()
        self.fc1 = Linear(d_model, ffn_hidden)
        self.fc2 = Linear(ffn_hidden, d_model)

    def forward(self, x):
        return self.fc2(torch.relu(self.fc1(x)))


class Block(nn.Module):
    def __init__(self, d_model, heads, ffn):
        super().__init__()
        self.heads = heads
        self.ln1 = nn.LayerNorm(d_model)
        self.qkv = Linear(d_model, 3 * d_model)
        self.proj = Linear(d_model, d_model)
        self.ln2 = nn.LayerNorm(d_model)
        self.ffn = ffn

    def forward(self, x, mask):
        b, t, d = x.shape
        q, k, v = self.qkv(self.ln1(x)).split(d, dim=2)
        dh = d // self.heads
        q = q.view(b, t, self.heads, dh).transpose(1, 2)
        k = k.view(b, t, self.heads, dh).transpose(1, 2)
        v = v.view(b, t, self.heads, dh).transpose(1, 2)
        att = (q @ k.transpose(-2, -1)) / math.sqrt(dh)
        att = att.masked_fill(mask[:t, :t], float("-inf")).softmax(dim=-1)
        x = x + self.proj((att @ v).transpose(1, 2).reshape(b, t, d))
        return x + self.ffn(self.ln2(x))


class ByteLM(nn.Module):
    """Byte-level causal LM. moe: None for the dense model, else a dict with experts,
    top_k, capacity_factor (None = dropless), rank, world. Layers with an MoE FFN are
    those in moe_layer_ids (0-based block index, the N of decoder.layers.N)."""

    def __init__(self, cfg, moe, seed):
        super().__init__()
        d = cfg["d_model"]
        self.seq_len = cfg["seq_len"]
        self.embed = nn.Embedding(256, d)
        self.pos = nn.Embedding(cfg["seq_len"], d)
        self.moe_layers = []
        blocks = []
        for i in range(cfg["layers"]):
            if moe is not None and i in cfg["moe_layer_ids"]:
                ffn = MoELayer(d, cfg["expert_hidden"], moe["experts"], moe["top_k"],
                               moe["capacity_factor"], i, seed, moe["rank"], moe["world"])
                self.moe_layers.append(ffn)
            else:
                ffn = DenseFFN(d, cfg["dense_hidden"])
            blocks.append(Block(d, cfg["heads"], ffn))
        self.blocks = nn.ModuleList(blocks)
        self.ln_f = nn.LayerNorm(d)
        self.head = Linear(d, 256)
        self.register_buffer("mask", torch.triu(torch.ones(cfg["seq_len"], cfg["seq_len"], dtype=torch.bool), 1),
                             persistent=False)

    def set_collector(self, collector):
        for m in self.moe_layers:
            m.collector = collector

    def forward(self, idx):
        b, t = idx.shape
        x = self.embed(idx) + self.pos(torch.arange(t))[None]
        for blk in self.blocks:
            x = blk(x, self.mask)
        return self.head(self.ln_f(x))

    def aux_losses(self):
        return [m.last_aux for m in self.moe_layers]
