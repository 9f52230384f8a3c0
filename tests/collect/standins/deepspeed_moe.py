"""Stand-in for DeepSpeed's MoE layer (DeepSpeed is not installable here).

Mirrors, with the same class names, attribute names and call signatures,
DeepSpeed commit 0c691a52a6e0:
  deepspeed/moe/layer.py        MoE(hidden_size, expert, num_experts, ep_size, k,
                                capacity_factor, eval_capacity_factor, min_capacity, ...);
                                .deepspeed_moe (MOELayer); forward(hidden_states,
                                used_token=None) -> (output, l_aux, exp_counts)
  deepspeed/moe/sharded_moe.py  TopKGate(model_dim, num_experts, k, capacity_factor, ...)
                                forward(input, used_token=None, use_tutel=False) ->
                                (l_aux, combine_weights, dispatch_mask, exp_counts);
                                top2gating's capacity (ceil(S / E * capacity_factor * 2),
                                min_capacity) and its position-based dropping (locations
                                from cumsum, the second choices after all first choices);
                                MOELayer(gate, experts, ...) with the two _AllToAll
  deepspeed/moe/experts.py      Experts(expert, num_local_experts)
One process: the all-to-alls sleep `a2a_sleep` seconds instead of moving data.
exp_counts here is the demand before dropping over both choices.
"""

import copy
import math
import time

import torch
import torch.nn.functional as F
from torch import nn


def _capacity(gates, capacity_factor, min_capacity):
    num_tokens, num_experts = gates.shape
    capacity = math.ceil((num_tokens / num_experts) * capacity_factor)
    return max(capacity, min_capacity)


def top2gating(logits, capacity_factor, min_capacity):
    gates = F.softmax(logits, dim=1)
    num_experts = gates.shape[1]
    capacity = _capacity(gates, capacity_factor * 2, min_capacity)
    indices1_s = torch.argmax(gates, dim=1)
    mask1 = F.one_hot(indices1_s, num_classes=num_experts)
    logits_except1 = logits.masked_fill(mask1.bool(), float("-inf"))
    indices2_s = torch.argmax(logits_except1, dim=1)
    mask2 = F.one_hot(indices2_s, num_classes=num_experts)
    locations1 = torch.cumsum(mask1, dim=0) - 1
    locations2 = torch.cumsum(mask2, dim=0) - 1
    locations2 += torch.sum(mask1, dim=0, keepdim=True)
    exp_counts = torch.sum(mask1 + mask2, dim=0).detach()
    me = torch.mean(gates, dim=0)
    ce = torch.mean(mask1.float(), dim=0)
    l_aux = torch.mean(me * ce) * num_experts * num_experts
    mask1 = mask1 * torch.lt(locations1, capacity)
    mask2 = mask2 * torch.lt(locations2, capacity)
    locations1_s = torch.sum(locations1 * mask1, dim=1)
    locations2_s = torch.sum(locations2 * mask2, dim=1)
    mask1_float = mask1.float()
    mask2_float = mask2.float()
    gates1_s = torch.einsum("se,se->s", gates, mask1_float)
    gates2_s = torch.einsum("se,se->s", gates, mask2_float)
    denom_s = torch.clamp(gates1_s + gates2_s, min=torch.finfo(gates.dtype).eps)
    gates1 = torch.einsum("s,se->se", gates1_s / denom_s, mask1_float)
    gates2 = torch.einsum("s,se->se", gates2_s / denom_s, mask2_float)
    locations1_sc = F.one_hot(locations1_s, num_classes=capacity).float()
    locations2_sc = F.one_hot(locations2_s, num_classes=capacity).float()
    combine_weights = torch.einsum("se,sc->sec", gates1, locations1_sc) + \
        torch.einsum("se,sc->sec", gates2, locations2_sc)
    dispatch_mask = combine_weights.bool()
    return l_aux, combine_weights, dispatch_mask, exp_counts


class TopKGate(nn.Module):
    def __init__(self, model_dim, num_experts, k=1, capacity_factor=1.0, eval_capacity_factor=1.0,
                 min_capacity=8, noisy_gate_policy=None, drop_tokens=True, use_rts=True,
                 ep_group=None, top2_2nd_expert_sampling=True):
        super().__init__()
        assert k == 2, "the stand-in implements top-2 gating"
        self.wg = nn.Linear(model_dim, num_experts, bias=False)
        self.k = k
        self.capacity_factor = capacity_factor
        self.eval_capacity_factor = eval_capacity_factor
        self.min_capacity = min_capacity

    def forward(self, input, used_token=None, use_tutel=False):
        logits = F.linear(input.float(), weight=self.wg.weight.float(), bias=None)
        return top2gating(logits, self.capacity_factor if self.training else self.eval_capacity_factor,
                          self.min_capacity)


class Experts(nn.Module):
    def __init__(self, expert, num_local_experts=1, expert_group_name=None):
        super().__init__()
        self.deepspeed_experts = nn.ModuleList(copy.deepcopy(expert) for _ in range(num_local_experts))
        self.num_local_experts = num_local_experts

    def forward(self, inputs):
        chunks = inputs.chunk(self.num_local_experts, dim=1)
        outs = [e(c) for c, e in zip(chunks, self.deepspeed_experts)]
        return torch.cat(outs, dim=1)


class MOELayer(nn.Module):
    a2a_sleep = 0.001

    def __init__(self, gate, experts, ep_group_name, ep_size, num_local_experts, use_tutel=False):
        super().__init__()
        self.gate = gate
        self.experts = experts
        self.ep_size = ep_size
        self.num_local_experts = num_local_experts

    def forward(self, *input, **kwargs):
        d_model = input[0].shape[-1]
        reshaped_input = input[0].reshape(-1, d_model)
        self.l_aux, combine_weights, dispatch_mask, self.exp_counts = self.gate(reshaped_input, input[1])
        dispatched_input = torch.einsum("sec,sm->ecm", dispatch_mask.type_as(input[0]), reshaped_input)
        time.sleep(self.a2a_sleep)  # _AllToAll.apply(self.ep_group, dispatched_input)
        dispatched_input = dispatched_input.reshape(self.ep_size, self.num_local_experts, -1, d_model)
        expert_output = self.experts(dispatched_input)
        expert_output = expert_output.reshape(self.ep_size * self.num_local_experts, -1, d_model)
        time.sleep(self.a2a_sleep)  # _AllToAll.apply(self.ep_group, expert_output)
        combined_output = torch.einsum("sec,ecm->sm", combine_weights.type_as(input[0]), expert_output)
        return combined_output.reshape(input[0].shape)


class MoE(nn.Module):
    def __init__(self, hidden_size, expert, num_experts=1, ep_size=1, k=1, capacity_factor=1.0,
                 eval_capacity_factor=1.0, min_capacity=4, use_residual=False,
                 noisy_gate_policy=None, drop_tokens=True, use_rts=True, use_tutel=False,
                 enable_expert_tensor_parallelism=False, top2_2nd_expert_sampling=True):
        super().__init__()
        self.ep_size = ep_size
        self.num_experts = num_experts
        self.num_local_experts = num_experts // ep_size
        experts = Experts(expert, self.num_local_experts)
        self.deepspeed_moe = MOELayer(
            TopKGate(hidden_size, num_experts, k, capacity_factor, eval_capacity_factor, min_capacity),
            experts, "ep_size_%d" % ep_size, ep_size, self.num_local_experts)

    def forward(self, hidden_states, used_token=None):
        output = self.deepspeed_moe(hidden_states, used_token)
        return output, self.deepspeed_moe.l_aux, self.deepspeed_moe.exp_counts


class Block(nn.Module):
    def __init__(self, dim, moe):
        super().__init__()
        self.mlp = moe

    def forward(self, x):
        out, l_aux, _ = self.mlp(x)
        return x + out, l_aux


class Model(nn.Module):
    """model.layers.N.mlp is the deepspeed.moe.layer.MoE."""

    def __init__(self, dim, num_experts, n_layers, capacity_factor):
        super().__init__()
        expert = nn.Sequential(nn.Linear(dim, 2 * dim), nn.ReLU(), nn.Linear(2 * dim, dim))
        self.layers = nn.ModuleList(
            Block(dim, MoE(dim, expert, num_experts=num_experts, k=2,
                           capacity_factor=capacity_factor, min_capacity=1))
            for _ in range(n_layers))

    def forward(self, x):
        aux = 0.0
        for layer in self.layers:
            x, l_aux = layer(x)
            aux = aux + l_aux
        return x, aux
