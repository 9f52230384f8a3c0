"""Stand-in for torchtitan's MoE module (torchtitan is not installable here).

Mirrors, with the same class names, attribute names and call signatures,
torchtitan commit 003edbe52d6f, torchtitan/models/moe/moe.py:
  TokenChoiceTopKRouter.forward(x, expert_bias) -> (top_scores, selected_experts_indices,
      num_tokens_per_expert)  (histc over the indices)
  GroupedExperts.forward(x, num_tokens_per_expert)
  MoE: buffer tokens_per_expert (float32, not persistent), add_ed in forward under
      no_grad; load_balance_coeff; expert_bias
and torchtitan/components/optimizer.py's expert-bias update, which an optimizer step
pre-hook runs: it reads tokens_per_expert and zeroes it (update_expert_bias below).
"""

import torch
from torch import nn


class TokenChoiceTopKRouter(nn.Module):
    def __init__(self, dim, num_experts, top_k, score_func="softmax", route_norm=False,
                 route_scale=1.0, _debug_force_load_balance=False):
        super().__init__()
        self.gate = nn.Linear(dim, num_experts, bias=False)
        self.num_experts = num_experts
        self.top_k = top_k

    def forward(self, x, expert_bias=None):
        scores = torch.softmax(self.gate(x).float(), dim=1)
        biased = scores + expert_bias if expert_bias is not None else scores
        _, selected_experts_indices = torch.topk(biased, k=self.top_k, dim=1)
        top_scores = scores.gather(dim=1, index=selected_experts_indices)
        num_tokens_per_expert = torch.histc(selected_experts_indices.view(-1).float(),
                                            bins=self.num_experts, min=0, max=self.num_experts)
        return top_scores, selected_experts_indices, num_tokens_per_expert


class GroupedExperts(nn.Module):
    def __init__(self, dim, hidden_dim, num_experts, use_grouped_mm=False):
        super().__init__()
        self.num_experts = num_experts
        self.w1 = nn.Parameter(torch.randn(num_experts, dim, hidden_dim) * 0.1)
        self.w2 = nn.Parameter(torch.randn(num_experts, hidden_dim, dim) * 0.1)

    def forward(self, x, num_tokens_per_expert):
        counts = num_tokens_per_expert.long().tolist()
        outs = []
        for e, chunk in enumerate(torch.split(x, counts, dim=0)):
            outs.append(torch.relu(chunk @ self.w1[e]) @ self.w2[e])
        return torch.cat(outs, dim=0)


class MoE(nn.Module):
    def __init__(self, dim, hidden_dim, num_experts, top_k, load_balance_coeff=1e-3):
        super().__init__()
        self.experts = GroupedExperts(dim, hidden_dim, num_experts)
        self.router = TokenChoiceTopKRouter(dim, num_experts, top_k)
        self.top_k = top_k
        self.load_balance_coeff = load_balance_coeff
        if load_balance_coeff is not None:
            self.register_buffer("expert_bias", torch.zeros(num_experts, dtype=torch.float32),
                                 persistent=True)
        else:
            self.expert_bias = None
        self.register_buffer("tokens_per_expert", torch.zeros(num_experts, dtype=torch.float32),
                             persistent=False)

    def forward(self, x):
        bs, slen, dim = x.shape
        x = x.view(-1, dim)
        top_scores, selected_experts_indices, num_tokens_per_expert = self.router(x, self.expert_bias)
        with torch.no_grad():
            self.tokens_per_expert.add_(num_tokens_per_expert)
        order = torch.argsort(selected_experts_indices.view(-1), stable=True)
        scores_sorted = top_scores.view(-1)[order]
        token_idx = (order // self.top_k).reshape(-1, 1).expand(-1, dim)
        routed_input = torch.gather(x, dim=0, index=token_idx)
        routed_output = self.experts(routed_input, num_tokens_per_expert)
        routed_output = routed_output * scores_sorted.reshape(-1, 1)
        out = torch.zeros_like(x).scatter_add(dim=0, index=token_idx, src=routed_output)
        return out.reshape(bs, slen, dim)


class TransformerBlock(nn.Module):
    def __init__(self, dim, moe):
        super().__init__()
        self.moe = moe

    def forward(self, x):
        return x + self.moe(x)


class Transformer(nn.Module):
    """model.layers.N.moe, as in torchtitan's MoE models. recompute=True wraps each block
    as torchtitan's activation checkpointing does (torch's checkpoint_wrapper,
    CheckpointImpl.NO_REENTRANT): model.layers.N._checkpoint_wrapped_module.moe."""

    def __init__(self, dim, hidden_dim, num_experts, top_k, n_layers, load_balance_coeff=1e-3,
                 recompute=False):
        super().__init__()
        blocks = {str(i): TransformerBlock(dim, MoE(dim, hidden_dim, num_experts, top_k,
                                                    load_balance_coeff)) for i in range(n_layers)}
        if recompute:
            from torch.distributed.algorithms._checkpoint.checkpoint_wrapper import (
                CheckpointImpl, checkpoint_wrapper)
            blocks = {k: checkpoint_wrapper(b, checkpoint_impl=CheckpointImpl.NO_REENTRANT)
                      for k, b in blocks.items()}
        self.layers = nn.ModuleDict(blocks)

    def forward(self, x):
        for layer in self.layers.values():
            x = layer(x)
        return x


def update_expert_bias(model):
    """torchtitan's _update_expert_bias (optimizer step pre-hook): uses and zeroes
    every MoE's tokens_per_expert."""
    with torch.no_grad():
        for m in model.modules():
            if isinstance(m, MoE) and m.load_balance_coeff is not None:
                tpe = m.tokens_per_expert
                m.expert_bias.add_(m.load_balance_coeff * torch.sign(tpe.mean() - tpe))
                tpe.zero_()
