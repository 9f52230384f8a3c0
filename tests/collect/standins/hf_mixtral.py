"""Stand-in for a Hugging Face MoE model (transformers is not installable here).

Mirrors, with the same class names, attribute names and call signatures,
transformers commit 00d4b3d2142c, src/transformers/models/mixtral/modeling_mixtral.py:
  MixtralSparseMoeBlock(config): .gate (Linear hidden -> num_local_experts), .experts
      (ModuleList of MixtralBlockSparseTop2MLP), .top_k (num_experts_per_tok),
      forward(hidden_states) -> (final_hidden_states, router_logits [batch*seq, E])
  MixtralDecoderLayer.block_sparse_moe; MixtralModel.layers
"""

from dataclasses import dataclass

import torch
import torch.nn.functional as F
from torch import nn


@dataclass
class MixtralConfig:
    hidden_size: int = 16
    intermediate_size: int = 24
    num_local_experts: int = 8
    num_experts_per_tok: int = 2
    num_hidden_layers: int = 2
    router_jitter_noise: float = 0.0


class MixtralBlockSparseTop2MLP(nn.Module):
    def __init__(self, config):
        super().__init__()
        self.w1 = nn.Linear(config.hidden_size, config.intermediate_size, bias=False)
        self.w2 = nn.Linear(config.intermediate_size, config.hidden_size, bias=False)
        self.w3 = nn.Linear(config.hidden_size, config.intermediate_size, bias=False)

    def forward(self, hidden_states):
        return self.w2(F.silu(self.w1(hidden_states)) * self.w3(hidden_states))


class MixtralSparseMoeBlock(nn.Module):
    def __init__(self, config):
        super().__init__()
        self.hidden_dim = config.hidden_size
        self.num_experts = config.num_local_experts
        self.top_k = config.num_experts_per_tok
        self.gate = nn.Linear(self.hidden_dim, self.num_experts, bias=False)
        self.experts = nn.ModuleList(MixtralBlockSparseTop2MLP(config) for _ in range(self.num_experts))

    def forward(self, hidden_states):
        batch_size, sequence_length, hidden_dim = hidden_states.shape
        hidden_states = hidden_states.view(-1, hidden_dim)
        router_logits = self.gate(hidden_states)
        routing_weights = F.softmax(router_logits, dim=1, dtype=torch.float)
        routing_weights, selected_experts = torch.topk(routing_weights, self.top_k, dim=-1)
        routing_weights /= routing_weights.sum(dim=-1, keepdim=True)
        final = torch.zeros_like(hidden_states)
        expert_mask = F.one_hot(selected_experts, num_classes=self.num_experts).permute(2, 1, 0)
        for expert_idx in range(self.num_experts):
            idx, top_x = torch.where(expert_mask[expert_idx])
            if top_x.numel() == 0:
                continue
            current = hidden_states[None, top_x].reshape(-1, hidden_dim)
            out = self.experts[expert_idx](current) * routing_weights[top_x, idx, None]
            final.index_add_(0, top_x, out)
        return final.reshape(batch_size, sequence_length, hidden_dim), router_logits


class MixtralDecoderLayer(nn.Module):
    def __init__(self, config):
        super().__init__()
        self.block_sparse_moe = MixtralSparseMoeBlock(config)

    def forward(self, x):
        out, router_logits = self.block_sparse_moe(x)
        return x + out, router_logits


class MixtralModel(nn.Module):
    def __init__(self, config):
        super().__init__()
        self.layers = nn.ModuleList(MixtralDecoderLayer(config) for _ in range(config.num_hidden_layers))

    def forward(self, x):
        for layer in self.layers:
            x, _ = layer(x)
        return x
