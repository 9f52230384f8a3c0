"""Adapters: where to hook the Collector in each framework (docs/collect.md).

Each adapter is attach_<x>(model_or_layer, collector) -> handle; handle.remove()
takes every hook back out. The names below are the frameworks' own, read from
their sources (the versions are in docs/collect.md):

  Megatron-Core  megatron/core/transformer/moe/moe_layer.py   MoELayer: .router
                 (TopKRouter, forward -> (probs, routing_map), the map after
                 capacity dropping), .token_dispatcher (token_dispatch /
                 token_combine: the all-to-alls), .experts
  torchtitan     torchtitan/models/moe/moe.py                 MoE: buffer
                 tokens_per_expert (accumulated in forward, zeroed by the
                 optimizer pre-hook of the expert-bias update), .experts
  DeepSpeed      deepspeed/moe/layer.py, sharded_moe.py       MoE: .deepspeed_moe
                 (MOELayer) .gate (TopKGate, forward -> (l_aux, combine_weights,
                 dispatch_mask, exp_counts)), .experts
  Hugging Face   transformers/models/mixtral/modeling_mixtral.py and the like:
                 *SparseMoeBlock, forward -> (hidden_states, router_logits), .top_k,
                 .experts
"""

import re

import torch

_LAYER_RE = re.compile(r"(?:^|\.)layers\.(\d+)(?:\.|$)")


class Handle:
    """What an adapter returns: remove() takes its hooks out."""

    def __init__(self, collector):
        self.collector = collector
        self._removers = []
        self.layers = []  # (module name, layer number) of every hooked MoE layer

    def _add(self, remover):
        self._removers.append(remover)

    def remove(self):
        while self._removers:
            r = self._removers.pop()
            try:
                r()
            except Exception:
                pass


def _layer_number(name, fallback):
    """The N of `...layers.N...` in a module's name (the layer number the framework's
    own files use), else the MoE layer's position in the model."""
    m = None
    for m in _LAYER_RE.finditer(name):
        pass
    return int(m.group(1)) if m else fallback


def _find(model, predicate):
    found = [(n, m) for n, m in model.named_modules() if predicate(m)]
    return found


def _counting():
    """Count a router call only in a training forward pass that builds the graph:
    not in evaluation (no_grad) and, with activation checkpointing, only once (the
    recomputation in backward runs with grad; the first no_grad forward is skipped)."""
    return torch.is_grad_enabled()


def _time_module(handle, collector, module, kind):
    """Time module's forward as `kind` (pre-hook begins, forward hook ends)."""
    def pre(_m, _inp):
        collector._begin(kind)

    def post(_m, _inp, _out):
        collector._end(kind)

    h1 = module.register_forward_pre_hook(pre)
    try:  # end before hooks registered earlier (torch >= 2.0), e.g. an EP combine
        h2 = module.register_forward_hook(post, prepend=True)
    except TypeError:
        h2 = module.register_forward_hook(post)
    handle._add(h1.remove)
    handle._add(h2.remove)


def _set_framework(collector, name):
    if collector.framework == "generic":
        collector.framework = name


# ---------------------------------------------------------------- Megatron-Core

def attach_megatron(model, collector):
    """Megatron-Core: every MoELayer's TopKRouter output (probs, routing_map) -- the
    map after capacity dropping -- plus the token dispatcher's all-to-alls and the
    experts' forward time."""
    from .collector import _A2A, _COMPUTE

    layers = _find(model, lambda m: type(m).__name__ == "MoELayer"
                   or (hasattr(m, "router") and hasattr(m, "token_dispatcher")
                       and hasattr(m, "experts")))
    # the decoder's layers only: an MTP block (mtp.layers.M...) would repeat their numbers
    layers = [(n, m) for n, m in layers if "mtp" not in n.split(".")]
    if not layers:
        raise ValueError("attach_megatron: no MoELayer (router, token_dispatcher, experts) "
                         "in the model")
    _set_framework(collector, "megatron-core")
    handle = Handle(collector)
    for i, (name, moe) in enumerate(layers):
        layer = _layer_number(name, i)
        handle.layers.append((name, layer))

        def router_hook(m, _inp, out, layer=layer):
            if not (m.training and _counting()):
                return
            routing_map = out[1]
            collector.record_routing(layer, kept_map=routing_map.reshape(-1, routing_map.shape[-1]))

        handle._add(moe.router.register_forward_hook(router_hook).remove)

        disp = moe.token_dispatcher
        names = [n for n in ("token_dispatch", "token_combine") if hasattr(disp, n)]
        if not names:  # core_v0.8 .. v0.12: permutation + all-to-all in one method
            names = [n for n in ("token_permutation", "token_unpermutation") if hasattr(disp, n)]
        for meth in names:
            orig = getattr(disp, meth)

            def wrapped(*args, _orig=orig, **kwargs):
                collector._begin(_A2A)
                try:
                    return _orig(*args, **kwargs)
                finally:
                    collector._end(_A2A)

            setattr(disp, meth, wrapped)

            def restore(disp=disp, meth=meth, wrapped=wrapped):
                if disp.__dict__.get(meth) is wrapped:
                    delattr(disp, meth)

            handle._add(restore)
        _time_module(handle, collector, moe.experts, _COMPUTE)
    return handle


# ------------------------------------------------------------------- torchtitan

class _TitanState:
    __slots__ = ("module", "layer", "base", "halve")

    def __init__(self, module, layer, halve):
        self.module = module
        self.layer = layer
        self.base = None
        self.halve = halve


def _recomputed(block):
    """torchtitan's _is_recomputation_enabled: the transformer block wrapped by
    non-reentrant activation checkpointing (checkpoint_impl NO_REENTRANT) runs the router
    again in backward, so tokens_per_expert counts every token twice."""
    impl = getattr(block, "checkpoint_impl", None)
    return impl is not None and getattr(impl, "name", str(impl)).endswith("NO_REENTRANT")


def attach_torchtitan(model, collector):
    """torchtitan: each MoE module's `tokens_per_expert` buffer. The buffer adds up the
    step's router counts in forward and the expert-bias optimizer pre-hook zeroes it,
    so the counts are read after backward and before optimizer.step(): call
    handle.read() there (or col.step_end(step) there, which reads too). The handle
    snapshots the buffer at the step's first forward, so a buffer that nobody zeroes
    (load_balance_coeff None) is read as this step's difference. Under non-reentrant
    activation checkpointing of the block (checkpoint_impl NO_REENTRANT) the buffer
    counts every token twice; the adapter halves it, as torchtitan's expert-bias update
    does. torchtitan routes dropless: nothing is dropped."""
    from .collector import _COMPUTE

    mods = _find(model, lambda m: type(m).__name__ == "MoE" and hasattr(m, "tokens_per_expert"))
    if not mods:
        raise ValueError("attach_torchtitan: no MoE module with a tokens_per_expert buffer")
    _set_framework(collector, "torchtitan")
    handle = Handle(collector)
    states = []
    named = dict(model.named_modules())
    for i, (name, moe) in enumerate(mods):
        parts = name.split(".")
        ancestors = [named.get(".".join(parts[:j])) for j in range(1, len(parts))]
        halve = any(a is not None and _recomputed(a) for a in ancestors)
        st = _TitanState(moe, _layer_number(name, i), halve)
        states.append(st)
        handle.layers.append((name, st.layer))

        def pre(m, _inp, st=st):
            if st.base is None and m.training:
                st.base = m.tokens_per_expert.detach().clone()

        handle._add(moe.register_forward_pre_hook(pre).remove)
        if hasattr(moe, "experts"):
            _time_module(handle, collector, moe.experts, _COMPUTE)

    K = collector.topk

    def read():
        with torch.no_grad():
            for st in states:
                if st.base is None:
                    continue
                delta = (st.module.tokens_per_expert.detach() - st.base).round().to(torch.int64)
                if st.halve:  # as torchtitan's own expert-bias update corrects it
                    delta = delta // 2
                st.base = None
                if collector.stopped or collector.closed:
                    continue
                collector._add(st.layer, delta, 0, 0, device_tokens=delta.sum() // K)

    handle.read = read
    collector._pre_step_end.append(read)
    handle._add(lambda: collector._pre_step_end.remove(read))
    return handle


# -------------------------------------------------------------------- DeepSpeed

def attach_deepspeed(model, collector):
    """DeepSpeed: each deepspeed.moe.layer.MoE. Its forward returns (output, l_aux,
    exp_counts); exp_counts is the demand BEFORE capacity dropping. The kept
    assignments come from its gate (TopKGate) output (l_aux, combine_weights,
    dispatch_mask [S, E, C], exp_counts): token s kept by expert e when
    dispatch_mask[s, e, :] has a slot. Time: the experts module is compute; from the
    gate's end to the experts' start and from the experts' end to MOELayer's end is
    the all-to-all (with DeepSpeed's dispatch/combine einsums)."""
    from .collector import _A2A, _COMPUTE

    mods = _find(model, lambda m: type(m).__name__ == "MoE" and hasattr(m, "deepspeed_moe"))
    if not mods:
        raise ValueError("attach_deepspeed: no deepspeed.moe.layer.MoE in the model")
    _set_framework(collector, "deepspeed")
    handle = Handle(collector)
    warned = []
    for i, (name, moe) in enumerate(mods):
        layer = _layer_number(name, i)
        handle.layers.append((name, layer))
        inner = moe.deepspeed_moe
        gate = inner.gate
        if getattr(gate, "k", collector.topk) != collector.topk and not warned:
            warned.append(True)
            collector._warn_once(f"moewb_collect: DeepSpeed gate k={gate.k} but the "
                                 f"collector's topk={collector.topk}")
        state = {"a2a": False}

        def gate_hook(m, _inp, out, layer=layer, state=state):
            if m.training and _counting():
                if isinstance(out, (tuple, list)) and len(out) == 4:
                    dispatch_mask = out[2]
                    collector.record_routing(layer, kept_map=dispatch_mask.any(dim=2))
                else:  # Tutel's gate output: no dispatch mask
                    collector._warn_once("moewb_collect: a DeepSpeed gate with Tutel "
                                         "(use_tutel) is not counted")
            if not state["a2a"]:
                collector._begin(_A2A)
                state["a2a"] = True

        def experts_pre(_m, _inp, state=state):
            if state["a2a"]:
                collector._end(_A2A)
                state["a2a"] = False
            collector._begin(_COMPUTE)

        def experts_post(_m, _inp, _out, state=state):
            collector._end(_COMPUTE)
            collector._begin(_A2A)
            state["a2a"] = True

        def layer_post(_m, _inp, _out, state=state):
            if state["a2a"]:
                collector._end(_A2A)
                state["a2a"] = False

        handle._add(gate.register_forward_hook(gate_hook).remove)
        handle._add(inner.experts.register_forward_pre_hook(experts_pre).remove)
        handle._add(inner.experts.register_forward_hook(experts_post).remove)
        handle._add(inner.register_forward_hook(layer_post).remove)
    return handle


# ------------------------------------------------------------------ Hugging Face

def attach_huggingface(model, collector):
    """Hugging Face MoE models (Mixtral, Qwen2-MoE, ... : modules named
    *SparseMoeBlock): each block's router_logits (its forward returns
    (hidden_states, router_logits)) -> top-k -> counts. Dropless: nothing dropped.
    The experts' forward is compute; no all-to-all (no expert parallelism)."""
    from .collector import _COMPUTE

    blocks = _find(model, lambda m: type(m).__name__.endswith("SparseMoeBlock"))
    if not blocks:
        raise ValueError("attach_huggingface: no *SparseMoeBlock in the model")
    _set_framework(collector, "huggingface")
    handle = Handle(collector)
    for i, (name, block) in enumerate(blocks):
        layer = _layer_number(name, i)
        handle.layers.append((name, layer))
        k = int(getattr(block, "top_k", collector.topk))

        def hook(m, _inp, out, layer=layer, k=k):
            if not (m.training and _counting()):
                return
            if not (isinstance(out, (tuple, list)) and len(out) >= 2):
                return
            logits = out[1]
            with torch.no_grad():
                idx = torch.topk(logits.reshape(-1, logits.shape[-1]), k, dim=-1).indices
            collector.record_routing(layer, topk_indices=idx)

        handle._add(block.register_forward_hook(hook).remove)
        experts = getattr(block, "experts", None)
        if isinstance(experts, torch.nn.ModuleList):
            for e in experts:
                _time_module(handle, collector, e, _COMPUTE)
        elif isinstance(experts, torch.nn.Module):
            _time_module(handle, collector, experts, _COMPUTE)
    return handle
