"""JAX's ahead-of-time compile of StableHLO text for a named TPU topology (no TPU needed):
the independent reference for the pjrt binding's figures.

usage: jax_tpu_compile.py < requests.json
Reads a JSON list of {"stablehlo", "topology", "numPartitions", "createOptions"} on stdin;
prints one JSON list with, per request, {"cost": {...}, "memory": {...}, "hloText"} or
{"error": message}.
"""
import json
import os
import sys

os.environ.setdefault('TPU_SKIP_MDS_QUERY', '1')  # else libtpu asks a cloud metadata server
os.environ.setdefault('ALLOW_MULTIPLE_LIBTPU_LOAD', '1')  # the test process has libtpu loaded too

import numpy as np
from jax._src import xla_bridge
from jax._src.interpreters import mlir
from jax._src.lib import xla_client
from jax._src.lib.mlir import ir


def compile_one(request, topologies):
    name = request['topology']
    options = request.get('createOptions') or {}
    key = (name, json.dumps(options, sort_keys=True))
    if key not in topologies:
        topology = xla_bridge.make_pjrt_tpu_topology(name, **options)
        topologies[key] = topology._make_compile_only_devices()
    devices = topologies[key]
    partitions = request.get('numPartitions', 1)
    compile_options = xla_client.CompileOptions()
    build = compile_options.executable_build_options
    build.num_replicas = 1
    build.num_partitions = partitions
    build.use_spmd_partitioning = partitions > 1
    ids = [d.id for d in devices[:partitions]]
    build.device_assignment = xla_client.DeviceAssignment.create(np.array([ids], dtype=np.int32))
    with mlir.make_ir_context():
        module = ir.Module.parse(request['stablehlo'])
        executable = devices[0].client.compile(
            module, xla_client.DeviceList(tuple(devices[:partitions])), compile_options)
    stats = executable.get_compiled_memory_stats()
    return {
        'cost': {k: float(v) for k, v in executable.cost_analysis().items()},
        'memory': {
            'argumentBytes': stats.argument_size_in_bytes,
            'outputBytes': stats.output_size_in_bytes,
            'aliasBytes': stats.alias_size_in_bytes,
            'tempBytes': stats.temp_size_in_bytes,
            'generatedCodeBytes': stats.generated_code_size_in_bytes,
        },
        'hloText': executable.hlo_modules()[0].to_string(),
    }


def main():
    requests = json.load(sys.stdin)
    topologies = {}
    results = []
    for request in requests:
        try:
            results.append(compile_one(request, topologies))
        except Exception as e:  # reported per request; the test decides
            results.append({'error': str(e)})
    json.dump(results, sys.stdout)


if __name__ == '__main__':
    main()
