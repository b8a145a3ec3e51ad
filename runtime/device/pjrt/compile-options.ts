// xla.CompileOptionsProto bytes for PJRT_Compile. libtpu rejects empty options: it needs the
// replica and partition counts and a device assignment. DebugOptions are never sent: a
// partial DebugOptions message replaces XLA's defaults (and changes the compiled program);
// single debug settings go in env_option_overrides, which XLA applies on top of its defaults.
import { ProtobufWriter } from '../protobuf-writer.js';

export type OptionOverride = string | boolean | number;

export interface CompileOptionsSpec {
  /** Device ids, one per partition (SPMD when there are several). */
  readonly deviceIds: readonly number[];
  /** DebugOptions fields by name, e.g. { xla_dump_to: '/tmp/x' }. */
  readonly overrides?: Readonly<Record<string, OptionOverride>>;
}

// Field numbers of xla/pjrt/proto/compile_options.proto and xla/xla_data.proto.
const COMPILE_OPTIONS = { executableBuildOptions: 3, envOptionOverrides: 7 } as const;
const BUILD_OPTIONS = { numReplicas: 4, numPartitions: 5, useSpmdPartitioning: 6, deviceAssignment: 9 } as const;
const DEVICE_ASSIGNMENT = { replicaCount: 1, computationCount: 2, computationDevices: 3 } as const;
const COMPUTATION_DEVICE = { replicaDeviceIds: 1 } as const;
const MAP_ENTRY = { key: 1, value: 2 } as const;
const OVERRIDE = { string: 1, bool: 2, int: 3 } as const;

export function compileOptionsProto(spec: CompileOptionsSpec): Uint8Array {
  const partitions = spec.deviceIds.length;
  if (partitions < 1) throw new Error('compile options: at least one device id is needed');
  const w = new ProtobufWriter();
  w.message(COMPILE_OPTIONS.executableBuildOptions, (b) => {
    b.int(BUILD_OPTIONS.numReplicas, 1).int(BUILD_OPTIONS.numPartitions, partitions);
    if (partitions > 1) b.int(BUILD_OPTIONS.useSpmdPartitioning, 1);
    b.message(BUILD_OPTIONS.deviceAssignment, (d) => {
      d.int(DEVICE_ASSIGNMENT.replicaCount, 1).int(DEVICE_ASSIGNMENT.computationCount, partitions);
      for (const id of spec.deviceIds) {
        d.message(DEVICE_ASSIGNMENT.computationDevices, (c) => c.packedInts(COMPUTATION_DEVICE.replicaDeviceIds, [id]));
      }
    });
  });
  for (const [name, value] of Object.entries(spec.overrides ?? {})) {
    w.message(COMPILE_OPTIONS.envOptionOverrides, (e) => {
      e.string(MAP_ENTRY.key, name);
      e.message(MAP_ENTRY.value, (v) => {
        if (typeof value === 'string') v.string(OVERRIDE.string, value);
        else if (typeof value === 'boolean') v.int(OVERRIDE.bool, value ? 1 : 0);
        else v.int(OVERRIDE.int, value);
      });
    });
  }
  return w.finish();
}
