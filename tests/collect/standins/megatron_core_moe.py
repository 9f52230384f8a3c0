"""Stand-in for Megatron-Core's MoE layer (Megatron-LM is not installable here).

Mirrors, with the same class names, attribute names and call signatures,
Megatron-LM commit 001199898c4b:
  megatron/core/transformer/moe/moe_layer.py      MoELayer (.router, .token_dispatcher,
                                                  .experts; route -> dispatch -> compute
                                                  -> combine; forward -> (output, mlp_bias))
  megatron/core/transformer/moe/router.py         TopKRouter.forward(input) -> (probs, routing_map)
  megatron/core/transformer/moe/moe_utils.py      get_capacity, apply_router_token_dropping
                                                  (the same torch calls, both drop policies)
  megatron/core/transformer/moe/token_dispatcher.py  MoEAlltoAllTokenDispatcher
                                                  (dispatch_preprocess, token_dispatch,
                                                  dispatch_postprocess, combine_preprocess,
                                                  token_combine, combine_postprocess)
  megatron/core/transformer/moe/experts.py        SequentialMLP.forward(permuted_local_hidden_states,
                                                  tokens_per_expert, permuted_probs)
One process, so the all-to-alls move nothing; they sleep `a2a_sleep` seconds instead,
the time a wire would take. Only what the adapter reads is real.
"""

import math
import time
from dataclasses import dataclass
from typing import Optional

import torch
import torch.utils.checkpoint
from torch import nn


@dataclass
class TransformerConfig:
    hidden_size: int = 16
    num_moe_experts: int = 8
    moe_router_topk: int = 2
    moe_expert_capacity_factor: Optional[float] = None
    moe_token_drop_policy: str = "probs"
    moe_pad_expert_input_to_capacity: bool = False
    ffn_hidden_size: int = 32


def get_capacity(num_tokens: int, num_experts: int, capacity_factor: float, min_capacity=None):
    capacity = math.ceil((num_tokens / num_experts) * capacity_factor)
    if min_capacity is not None and capacity < min_capacity:
        capacity = min_capacity
    return capacity


def apply_router_token_dropping(routing_probs, routing_map, router_topk, capacity_factor,
                                drop_policy="probs", pad_to_capacity=False):
    num_tokens, num_experts = routing_probs.shape
    expert_capacity = get_capacity(num_tokens=num_tokens * router_topk,
                                   num_experts=num_experts, capacity_factor=capacity_factor)
    if expert_capacity > num_tokens:
        capacity_mask = torch.ones_like(routing_probs).bool()
    elif drop_policy == "probs":
        _, capacity_indices = torch.topk(routing_probs, k=expert_capacity, dim=0, sorted=False)
        capacity_mask = torch.zeros_like(routing_probs).scatter(0, capacity_indices, 1).bool()
    elif drop_policy == "position":
        _, capacity_indices = torch.topk(routing_map.int(), k=expert_capacity, dim=0, sorted=False)
        capacity_mask = torch.zeros_like(routing_probs).scatter(0, capacity_indices, 1).bool()
    else:
        raise ValueError(drop_policy)
    if pad_to_capacity:
        final_map = capacity_mask
    else:
        final_map = torch.logical_and(routing_map, capacity_mask)
    return routing_probs * final_map, final_map


class TopKRouter(nn.Module):
    def __init__(self, config: TransformerConfig, pg_collection=None):
        super().__init__()
        self.config = config
        self.topk = config.moe_router_topk
        self.weight = nn.Parameter(torch.randn(config.num_moe_experts, config.hidden_size) * 0.5)
        self.layer_number = None

    def set_layer_number(self, layer_number):
        self.layer_number = layer_number

    def forward(self, input: torch.Tensor, padding_mask=None):
        logits = torch.nn.functional.linear(input.reshape(-1, input.shape[-1]), self.weight)
        scores = torch.softmax(logits, dim=-1, dtype=torch.float32)
        top_probs, top_indices = torch.topk(scores, k=self.topk, dim=1)
        probs = torch.zeros_like(logits).scatter(1, top_indices, top_probs)
        routing_map = torch.zeros_like(logits).int().scatter(1, top_indices, 1).bool()
        if self.config.moe_expert_capacity_factor is not None:
            probs, routing_map = apply_router_token_dropping(
                probs, routing_map, self.topk, self.config.moe_expert_capacity_factor,
                self.config.moe_token_drop_policy, self.config.moe_pad_expert_input_to_capacity)
        return probs, routing_map


class MoEAlltoAllTokenDispatcher:
    a2a_sleep = 0.001

    def __init__(self, num_local_experts, local_expert_indices, config, pg_collection=None):
        self.num_local_experts = num_local_experts
        self.local_expert_indices = local_expert_indices
        self.config = config

    def dispatch_preprocess(self, hidden_states, routing_map, probs):
        self.hidden_shape = hidden_states.shape
        self.routing_map = routing_map
        return hidden_states.reshape(-1, hidden_states.shape[-1]), probs

    def token_dispatch(self, hidden_states, probs):
        time.sleep(self.a2a_sleep)
        return hidden_states, probs

    def dispatch_postprocess(self, hidden_states, probs):
        tokens_per_expert = self.routing_map.sum(0)
        return hidden_states, tokens_per_expert, probs

    def combine_preprocess(self, hidden_states):
        return hidden_states

    def token_combine(self, hidden_states):
        time.sleep(self.a2a_sleep)
        return hidden_states

    def combine_postprocess(self, hidden_states):
        return hidden_states.view(self.hidden_shape)


class SequentialMLP(nn.Module):
    def __init__(self, num_local_experts, config, pg_collection=None):
        super().__init__()
        self.num_local_experts = num_local_experts
        self.local_experts = nn.ModuleList(
            nn.Sequential(nn.Linear(config.hidden_size, config.ffn_hidden_size), nn.GELU(),
                          nn.Linear(config.ffn_hidden_size, config.hidden_size))
            for _ in range(num_local_experts))

    def forward(self, permuted_local_hidden_states, tokens_per_expert, permuted_probs):
        # dense emulation: every expert on every token, weighted by its (kept) prob
        out = torch.zeros_like(permuted_local_hidden_states)
        for e, mlp in enumerate(self.local_experts):
            out = out + mlp(permuted_local_hidden_states) * permuted_probs[:, e:e + 1]
        return out, None


class MoELayer(nn.Module):
    def __init__(self, config: TransformerConfig, submodules=None, layer_number=None,
                 pg_collection=None):
        super().__init__()
        self.config = config
        self.layer_number = layer_number
        self.num_local_experts = config.num_moe_experts
        self.local_expert_indices = list(range(config.num_moe_experts))
        self.router = TopKRouter(config=config)
        self.token_dispatcher = MoEAlltoAllTokenDispatcher(
            self.num_local_experts, self.local_expert_indices, config=config)
        self.experts = SequentialMLP(self.num_local_experts, config)

    def router_and_preprocess(self, hidden_states):
        residual = hidden_states
        probs, routing_map = self.router(hidden_states)
        hidden_states, probs = self.token_dispatcher.dispatch_preprocess(hidden_states, routing_map, probs)
        return hidden_states, probs, residual

    def dispatch(self, hidden_states, probs):
        return self.token_dispatcher.token_dispatch(hidden_states, probs)

    def routed_experts_compute(self, hidden_states, probs, residual):
        dispatched_input, tokens_per_expert, permuted_probs = \
            self.token_dispatcher.dispatch_postprocess(hidden_states, probs)
        expert_output, mlp_bias = self.experts(dispatched_input, tokens_per_expert, permuted_probs)
        return self.token_dispatcher.combine_preprocess(expert_output), mlp_bias

    def combine(self, output, shared_expert_output):
        output = self.token_dispatcher.token_combine(output)
        return self.token_dispatcher.combine_postprocess(output)

    def forward(self, hidden_states: torch.Tensor):
        hidden_states, probs, residual = self.router_and_preprocess(hidden_states)
        dispatched_input, probs = self.dispatch(hidden_states, probs)
        output, mlp_bias = self.routed_experts_compute(dispatched_input, probs, residual)
        return self.combine(output, None), mlp_bias


class TransformerLayer(nn.Module):
    def __init__(self, config, layer_number, recompute=False):
        super().__init__()
        self.mlp = MoELayer(config, layer_number=layer_number)
        self.recompute = recompute

    def forward(self, x):
        if self.recompute:
            # as tensor_parallel.checkpoint (CheckpointFunction): the forward under
            # no_grad, the recomputation in backward with grad
            out = torch.utils.checkpoint.checkpoint(lambda h: self.mlp(h)[0], x, use_reentrant=True)
        else:
            out, _ = self.mlp(x)
        return x + out


class TransformerBlock(nn.Module):
    def __init__(self, config, num_layers, recompute=()):
        super().__init__()
        self.layers = nn.ModuleList(TransformerLayer(config, i + 1, i in recompute)
                                    for i in range(num_layers))

    def forward(self, x):
        for layer in self.layers:
            x = layer(x)
        return x


class GPTModel(nn.Module):
    """model.decoder.layers.N.mlp is the MoELayer, as in Megatron's GPTModel."""

    def __init__(self, config, num_layers, recompute=()):
        super().__init__()
        self.decoder = TransformerBlock(config, num_layers, recompute)

    def forward(self, x):
        return self.decoder(x)
