"""PyTorch CPU answers for the torch test tier: reads a JSON list of cases on stdin, prints a
JSON list of results. Test-only helper (one process per test file, many cases each).

A case: {"name", "inputs": [{"values", "shape", "dtype"}], "py": an expression over x0, x1, ...,
torch and F, or statements that set `result`}. Non-finite numbers and -0 travel as the strings "nan", "inf", "-inf", "-0".
A result: {"outputs": [{"shape", "dtype", "values"}]} or {"error": message}.
"""
import json
import math
import sys

import torch
import torch.nn.functional as F

DTYPES = {"float32": torch.float32, "bfloat16": torch.bfloat16, "int32": torch.int32, "int64": torch.int64, "bool": torch.bool}
NAMES = {torch.float32: "float32", torch.bfloat16: "bfloat16", torch.int32: "int32", torch.int64: "int64",
         torch.bool: "bool", torch.float64: "float64", torch.float16: "float16", torch.uint8: "uint8"}


SPECIAL = {"nan": math.nan, "inf": math.inf, "-inf": -math.inf, "-0": -0.0}


def decode(v):
    if isinstance(v, str) and v in SPECIAL:
        return SPECIAL[v]
    return v


def encode(v):
    if isinstance(v, bool):
        return v
    if isinstance(v, float):
        if math.isnan(v):
            return "nan"
        if math.isinf(v):
            return "inf" if v > 0 else "-inf"
        if v == 0 and math.copysign(1, v) < 0:
            return "-0"
    return v


def make_input(spec):
    values = [decode(v) for v in spec["values"]]
    dtype = spec["dtype"]
    if dtype == "int64":  # exact: int64 inputs may travel as decimal strings
        values = [int(v) for v in values]
    if dtype == "bfloat16":  # rounded through float32, as the runtime uploads them
        t = torch.tensor(values, dtype=torch.float32).to(torch.bfloat16)
    else:
        t = torch.tensor(values, dtype=DTYPES[dtype])
    # a tensor of its own, as torch.tensor(nested) makes: a reshaped view of the flat list would
    # be a view of another tensor to autograd (in-place writes to it rebase views made from it)
    return t.reshape(spec["shape"]).clone()


def describe(t):
    if not isinstance(t, torch.Tensor):
        t = torch.tensor(t)
    flat = t.detach().reshape(-1)
    if flat.dtype == torch.bfloat16:
        flat = flat.to(torch.float32)
    values = flat.tolist()
    if flat.dtype == torch.int64:  # exact as decimal strings (JSON numbers stop at 2^53)
        return {"shape": list(t.shape), "dtype": "int64", "values": [str(v) for v in values]}
    return {"shape": list(t.shape), "dtype": NAMES.get(t.dtype, str(t.dtype)), "values": [encode(v) for v in values]}


def answer(case):
    env = {"torch": torch, "F": F, "math": math}
    for i, spec in enumerate(case["inputs"]):
        env[f"x{i}"] = make_input(spec)
    try:
        if "\n" in case["py"]:  # statements: the answer is the variable `result`
            exec(case["py"], env)
            out = env["result"]
        else:
            out = eval(case["py"], env)
    except Exception as e:  # the runtime must fail too
        return {"error": f"{type(e).__name__}: {str(e).splitlines()[0] if str(e) else ''}"}
    outs = list(out) if isinstance(out, (tuple, list)) else [out]
    result = {"outputs": [describe(o) for o in outs]}
    if env.get("nonfinite_on_the_way"):  # statements may note a NaN/Inf that later steps hid
        result["nonFiniteOnTheWay"] = True
    return result


def main():
    torch.manual_seed(0)
    cases = json.load(sys.stdin)
    json.dump([answer(c) for c in cases], sys.stdout)


if __name__ == "__main__":
    main()
