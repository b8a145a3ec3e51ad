"""PyTorch FSDP2's state dicts for test/distributed/fsdp-state-dict.test.ts: fully_shard on a
gloo world of 4 CPU processes, of Sequential(Linear(2, 10), BatchNorm1d(10), Linear(10, 3)) with
0.weight frozen. Prints, as JSON: each state_dict() entry's type, shape, placements, requires_grad
and every rank's local shape; the same of an Adam's state after one step (over the parameters that
require grad); and whether load_state_dict takes the DTensors and set_model_state_dict
(full_state_dict=True) full tensors, with the values of a loaded full tensor on each rank."""
import json
import os
import socket
import sys

import torch
import torch.distributed as dist
import torch.multiprocessing as mp
from torch.distributed.checkpoint.state_dict import StateDictOptions, set_model_state_dict
from torch.distributed.device_mesh import init_device_mesh
from torch.distributed.fsdp import fully_shard
from torch.distributed.tensor import DTensor

WORLD = 4


def describe(v):
    if isinstance(v, DTensor):
        locals_ = [None] * WORLD
        dist.all_gather_object(locals_, list(v.to_local().shape))
        return {"type": "DTensor", "shape": list(v.shape), "placements": [f"Shard({p.dim})" if p.is_shard() else "Replicate()" for p in v.placements], "locals": locals_, "requiresGrad": v.requires_grad}
    return {"type": "Tensor", "shape": list(v.shape), "requiresGrad": v.requires_grad}


def run(rank, port, out):
    os.environ["MASTER_ADDR"], os.environ["MASTER_PORT"] = "127.0.0.1", str(port)
    dist.init_process_group("gloo", rank=rank, world_size=WORLD)
    mesh = init_device_mesh("cpu", (WORLD,))
    model = torch.nn.Sequential(torch.nn.Linear(2, 10), torch.nn.BatchNorm1d(10), torch.nn.Linear(10, 3))
    model[0].weight.requires_grad_(False)
    fully_shard(model, mesh=mesh)
    result = {"stateDict": {k: describe(v) for k, v in model.state_dict().items()}}
    result["parameters"] = {k: describe(p) for k, p in model.named_parameters()}
    opt = torch.optim.Adam([p for p in model.parameters() if p.requires_grad])
    model(torch.arange(8.0).reshape(4, 2)).sum().backward()
    opt.step()
    result["optimizer"] = {str(i): {k: describe(v) for k, v in s.items()} for i, s in opt.state_dict()["state"].items()}
    model.load_state_dict(model.state_dict())
    full = {k: torch.arange(v.numel(), dtype=v.dtype).reshape(v.shape) for k, v in model.state_dict().items()}
    set_model_state_dict(model, full, options=StateDictOptions(full_state_dict=True))
    pieces = [None] * WORLD
    dist.all_gather_object(pieces, model[2].weight.to_local().flatten().tolist())
    result["loadedFull2Weight"] = pieces
    if rank == 0:
        with open(out, "w") as f:
            json.dump(result, f)
    dist.destroy_process_group()


if __name__ == "__main__":
    with socket.socket() as s:
        s.bind(("127.0.0.1", 0))
        port = s.getsockname()[1]
    out = sys.argv[1]
    mp.spawn(run, args=(port, out), nprocs=WORLD)
