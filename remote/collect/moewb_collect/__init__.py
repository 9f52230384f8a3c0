"""moewb_collect: expert load, dropped tokens and step timing from inside a training.

    from moewb_collect import Collector, attach_megatron
    col = Collector(out_dir, num_experts=64, topk=2, moe_layers=32)
    attach_megatron(model, col)            # or the generic hook: col.record_routing(...)

See docs/collect.md. Standard library + torch only.
"""

from .adapters import (Handle, attach_deepspeed, attach_huggingface, attach_megatron,
                       attach_torchtitan)
from .collector import FORMAT, Collector, capacity_from_factor, routing_stats

__all__ = ["Collector", "FORMAT", "Handle", "attach_deepspeed", "attach_huggingface",
           "attach_megatron", "attach_torchtitan", "capacity_from_factor", "routing_stats"]
