# The runtime bench's Python peers: the same workloads (sizes as in the .mjs files beside
# this one) in numpy, PyTorch eager and torch.compile, written as their users write them.
# Driven by runtime.bench.mjs over stdin/stdout, one JSON object per line, so its steps are
# interleaved round by round with the TypeScript variants:
#   {"cmd": "hello"}                             -> {"peers": {name: version}, "threads": n}
#   {"cmd": "prepare", "id": "W2", "peer": p}    -> {"ok": true} | {"skip": reason}
#   {"cmd": "step", "id": "W2", "peer": p, "threads": n}  -> {"ms": wall time of one step}
# A peer whose package is missing is left out of "peers"; the bench then skips it.
# PyTorch runs each step with the threads asked (torch.set_num_threads): on a shared
# machine its OpenMP threads may lose much more to load with 2 threads than with 1.
import json
import sys
import time

found = {}
try:
    import numpy as np

    found["numpy"] = np.__version__
except ImportError:
    np = None
try:
    import torch
    import torch.nn.functional as F

    found["torch"] = torch.__version__
    found["torch.compile"] = torch.__version__
except ImportError:
    torch = None

DEFAULT_THREADS = torch.get_num_threads() if torch else None
N1 = 10_000
N2 = 4_194_304


def w1_numpy():
    x = np.ones(8, dtype=np.float32)

    def step():
        y = x
        for _ in range(N1):
            y = y + x
        return float(y[0])

    return step


def w1_torch():
    x = torch.ones(8)

    def step():
        y = x
        for _ in range(N1):
            y = y + x
        return y[0].item()

    return step


def w2_numpy():
    x = np.random.default_rng(2).random(N2, dtype=np.float32)
    return lambda: np.sqrt(np.abs(np.tanh(x * 1.5 + 0.5) * x - 0.25))


def w2_fn(x):
    return torch.sqrt(torch.abs(torch.tanh(x * 1.5 + 0.5) * x - 0.25))


def w2_torch(compiled):
    x = torch.rand(N2)
    fn = torch.compile(w2_fn) if compiled else w2_fn
    return lambda: fn(x)


def w3_numpy():
    rng = np.random.default_rng(3)
    a, b = rng.random((1024, 1024), dtype=np.float32), rng.random((1024, 1024), dtype=np.float32)
    return lambda: a @ b


def w3_torch():
    a, b = torch.rand(1024, 1024), torch.rand(1024, 1024)
    return lambda: a @ b


def w4_numpy():
    rng = np.random.default_rng(4)
    x, w1, w2 = (rng.random(s, dtype=np.float32) for s in ((256, 1024), (1024, 1024), (1024, 1024)))

    def step():
        z = np.maximum(x @ w1, 0) @ w2
        e = np.exp(z - z.max(axis=-1, keepdims=True))
        return e / e.sum(axis=-1, keepdims=True)

    return step


def w4_fn(x, w1, w2):
    return torch.softmax(torch.relu(x @ w1) @ w2, dim=-1)


def w4_torch(compiled):
    x, w1, w2 = torch.rand(256, 1024), torch.rand(1024, 1024), torch.rand(1024, 1024)
    fn = torch.compile(w4_fn) if compiled else w4_fn
    return lambda: fn(x, w1, w2)


def w5_fn(x, weight, bias):
    return F.gelu(F.layer_norm(x, [1024], weight, bias))


def w5_torch(compiled):
    x, weight, bias = torch.randn(4096, 1024), torch.rand(1024), torch.rand(1024)
    fn = torch.compile(w5_fn) if compiled else w5_fn
    return lambda: fn(x, weight, bias)


def w6_torch(compiled):
    torch.manual_seed(6)
    model = torch.nn.Sequential(torch.nn.Linear(784, 256), torch.nn.ReLU(), torch.nn.Linear(256, 10))
    opt = torch.optim.SGD(model.parameters(), lr=0.01)
    x, y = torch.randn(64, 784), torch.randint(0, 10, (64,))

    def train_step(xb, yb):
        opt.zero_grad()
        loss = F.cross_entropy(model(xb), yb)
        loss.backward()
        opt.step()
        return loss

    fn = torch.compile(train_step) if compiled else train_step
    return lambda: fn(x, y)


# (workload, peer) -> factory of a step; a pair missing here is not measured ("-").
FACTORIES = {
    ("W1", "numpy"): w1_numpy,
    ("W1", "torch"): w1_torch,
    ("W2", "numpy"): w2_numpy,
    ("W2", "torch"): lambda: w2_torch(False),
    ("W2", "torch.compile"): lambda: w2_torch(True),
    ("W3", "numpy"): w3_numpy,
    ("W3", "torch"): w3_torch,
    ("W4", "numpy"): w4_numpy,
    ("W4", "torch"): lambda: w4_torch(False),
    ("W4", "torch.compile"): lambda: w4_torch(True),
    ("W5", "torch"): lambda: w5_torch(False),
    ("W5", "torch.compile"): lambda: w5_torch(True),
    ("W6", "torch"): lambda: w6_torch(False),
    ("W6", "torch.compile"): lambda: w6_torch(True),
}

steps = {}


def answer(msg):
    cmd = msg["cmd"]
    if cmd == "hello":
        return {"peers": found, "threads": DEFAULT_THREADS}
    key = (msg["id"], msg["peer"])
    if cmd == "prepare":
        if msg["peer"] not in found:
            return {"skip": f"{msg['peer']} is not installed"}
        if key not in FACTORIES:
            return {"skip": "no such workload for this peer"}
        step = FACTORIES[key]()
        step()  # torch.compile compiles here, outside the timed steps
        steps[key] = step
        return {"ok": True}
    if cmd == "step":
        if torch and msg.get("threads") and torch.get_num_threads() != msg["threads"]:
            torch.set_num_threads(msg["threads"])
        t0 = time.perf_counter()
        steps[key]()
        return {"ms": (time.perf_counter() - t0) * 1000}
    if cmd == "drop":
        steps.pop(key, None)
        return {"ok": True}
    raise ValueError(f"unknown command {cmd!r}")


for line in sys.stdin:
    try:
        reply = answer(json.loads(line))
    except Exception as e:  # reported to the bench, which skips the peer
        reply = {"error": f"{type(e).__name__}: {e}"}
    sys.stdout.write(json.dumps(reply) + "\n")
    sys.stdout.flush()
