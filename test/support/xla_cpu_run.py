"""Runs StableHLO text on XLA:CPU (jaxlib's CPU client): the reference executor for the
StableHLO lowering's numbers. Test-only.

usage: xla_cpu_run.py, then one JSON request per line on stdin:
  {"text": MLIR, "args": [{"type": "f32"|"bf16"|"i32"|"i64"|"i1", "shape": [...], "data": base64}]}
answers one JSON line per request on stdout: {"outputs": [{"type", "shape", "data"}]} or
{"error": message}. Raw little-endian data; bf16 as its 16-bit patterns, i1 one byte each.
Executables are cached by text, so many programs run in one process.
"""
import base64
import json
import os
import sys

os.environ['JAX_PLATFORMS'] = 'cpu'  # never initialize libtpu here

import jax
import jax.extend

jax.config.update('jax_enable_x64', True)  # else device_put narrows int64 arguments to int32
import ml_dtypes
import numpy as np
from jax._src.lib import xla_client

NUMPY = {'f32': np.float32, 'bf16': ml_dtypes.bfloat16, 'i32': np.int32, 'i64': np.int64, 'i1': np.bool_}
NAMES = {np.dtype(v): k for k, v in NUMPY.items()}


def decode(arg):
    raw = base64.b64decode(arg['data'])
    return np.frombuffer(raw, dtype=NUMPY[arg['type']]).reshape(arg['shape'])


def encode(array):
    array = np.ascontiguousarray(array)
    return {'type': NAMES[array.dtype], 'shape': list(array.shape), 'data': base64.b64encode(array.tobytes()).decode()}


def main():
    backend = jax.extend.backend.get_backend('cpu')
    device = backend.local_devices()[0]
    compiled = {}
    for line in sys.stdin:
        request = json.loads(line)
        try:
            text = request['text']
            if text not in compiled:
                compiled[text] = backend.compile_and_load(text, xla_client.DeviceList((device,)), xla_client.CompileOptions())
            buffers = [jax.device_put(decode(a), device) for a in request['args']]
            outputs = compiled[text].execute(buffers)
            answer = {'outputs': [encode(np.asarray(o)) for o in outputs]}
        except Exception as error:  # reported to the test, which names the program
            answer = {'error': f'{type(error).__name__}: {error}'}
        sys.stdout.write(json.dumps(answer) + '\n')
        sys.stdout.flush()


main()
