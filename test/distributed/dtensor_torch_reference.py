"""PyTorch DTensor answers for test/distributed/dtensor-options.test.ts: reads a JSON list of cases
on stdin, prints a JSON list of results. PyTorch's own DTensor runs in this one process over 4
simulated ranks (the fake process group, and LocalTensorMode, which keeps every rank's local
tensor and runs the collectives on them), on a [4] or [2, 2] mesh.

A case: {"mesh": [4] or [2, 2], "inputs": [{"values", "shape", "dtype", "placements": ["Shard(0)",
"Replicate()", "Partial('sum')", ...]}], "py": an expression over d0, d1, ... (DTensors) and torch}.
A result: {"placements": "[Shard(0)]", "full": {shape, dtype, values}, "locals": one per rank}
or {"error": message}.
"""
import json
import math
import os
import sys

import torch
import torch.distributed as dist
from torch.distributed.tensor import DTensor, Partial, Replicate, Shard, distribute_tensor, init_device_mesh
from torch.distributed._local_tensor import LocalTensor, LocalTensorMode
from torch.distributed.tensor._ops._math_ops import _NormPartial
from torch.testing._internal.distributed.fake_pg import FakeStore

sys.path.insert(0, os.path.join(os.path.dirname(os.path.abspath(__file__)), "..", "torch"))
from torch_reference import describe, make_input  # noqa: E402  (the torch tier's value encoding)

RANKS = 4
PLACEMENTS = {"Shard": Shard, "Replicate": Replicate, "Partial": Partial}


def placement_name(p):
    """The runtime's spelling: Shard(0), Replicate(), Partial('sum'), _NormPartial(2)."""
    if isinstance(p, _NormPartial):
        return f"_NormPartial({p.norm_type:g})"
    if p.is_shard():
        return f"Shard({p.dim})"
    if p.is_partial():
        return f"Partial('{p.reduce_op}')"
    return "Replicate()"


def make_dtensor(spec, mesh):
    # every rank's copy of the global value (torch.tensor in the mode makes a plain tensor, which
    # the mode's collectives take as one rank's, so a Partial of it would not add up)
    x = LocalTensor({k: make_input(spec) for k in range(RANKS)})
    ps = [eval(s, {}, PLACEMENTS) for s in spec["placements"]]
    parts = math.prod(n for n, p in zip(mesh.shape, ps) if p.is_partial())
    if parts == 1:
        return distribute_tensor(x, mesh, ps)
    # as tpu.distributeTensor: Partial('sum') parts are x / n on every chip
    pieces = distribute_tensor(x / parts, mesh, [Replicate() if p.is_partial() else p for p in ps]).to_local()
    return DTensor.from_local(pieces, mesh, ps, shape=x.shape, stride=x.stride())


def rank_piece(t, k):
    return t._local_tensors[k] if hasattr(t, "_local_tensors") else t


def answer(case, meshes):
    mesh = meshes[tuple(case["mesh"])]
    try:
        env = {"torch": torch}
        for i, spec in enumerate(case["inputs"]):
            env[f"d{i}"] = make_dtensor(spec, mesh)
        out = eval(case["py"], env)
        full = out.full_tensor()
        local = out.to_local()
        return {"placements": "[" + ", ".join(placement_name(p) for p in out.placements) + "]",
                "full": rank_piece(full, 0).clone(), "locals": [rank_piece(local, k).clone() for k in range(RANKS)]}
    except Exception as e:  # the runtime must fail too
        return {"error": f"{type(e).__name__}: {str(e).splitlines()[0] if str(e) else ''}"}


def main():
    cases = json.load(sys.stdin)
    dist.init_process_group("fake", store=FakeStore(), rank=0, world_size=RANKS)
    with LocalTensorMode(RANKS):
        meshes = {(4,): init_device_mesh("cpu", (4,)), (2, 2): init_device_mesh("cpu", (2, 2))}
        results = [answer(c, meshes) for c in cases]
    for r in results:  # plain tensors again, outside the mode
        if "full" in r:
            r["full"] = describe(r["full"])
            r["locals"] = [describe(t) for t in r["locals"]]
    json.dump(results, sys.stdout)


if __name__ == "__main__":
    main()
