// CompileOptionsProto bytes, checked against hand-encoded protobuf (field numbers of
// xla/pjrt/proto/compile_options.proto), and topology create options. No libtpu needed.
import { describe, expect, it } from 'vitest';
import { compileOptionsProto } from '../../runtime/device/pjrt/compile-options.js';
import { topologyCreateOptions } from '../../runtime/device/pjrt/index.js';

const hex = (b: Uint8Array) => Buffer.from(b).toString('hex');

describe('compileOptionsProto', () => {
  it('one device: 1 replica, 1 partition, a 1x1 device assignment, no DebugOptions', () => {
    // device_assignment {replica_count: 1, computation_count: 1, computation_devices {replica_device_ids: [0]}}
    const assignment = '0801' + '1001' + '1a03' + '0a0100';
    const build = '2001' + '2801' + '4a09' + assignment;
    expect(hex(compileOptionsProto({ deviceIds: [0] }))).toBe('1a0f' + build);
  });

  it('SPMD over devices 0 and 1: num_partitions 2, use_spmd_partitioning, one device per partition', () => {
    const assignment = '0801' + '1002' + '1a030a0100' + '1a030a0101';
    const build = '2001' + '2802' + '3001' + '4a0e' + assignment;
    expect(hex(compileOptionsProto({ deviceIds: [0, 1] }))).toBe('1a16' + build);
  });

  it('debug settings go in env_option_overrides (string and bool values)', () => {
    const bytes = compileOptionsProto({ deviceIds: [0], overrides: { xla_dump_to: '/t', xla_dump_hlo_as_text: true } });
    const dumpTo = '0a0b' + Buffer.from('xla_dump_to').toString('hex') + '1204' + '0a022f74';
    const asText = '0a14' + Buffer.from('xla_dump_hlo_as_text').toString('hex') + '1202' + '1001';
    expect(hex(bytes).endsWith('3a13' + dumpTo + '3a1a' + asText)).toBe(true);
  });

  it('needs a device', () => {
    expect(() => compileOptionsProto({ deviceIds: [] })).toThrow('compile options: at least one device id is needed');
  });
});

describe('topologyCreateOptions', () => {
  it('gives slices smaller than a host their own host bounds', () => {
    expect(topologyCreateOptions('v5e:1x1')).toEqual({ chips_per_host_bounds: [1, 1, 1] });
    expect(topologyCreateOptions('v5e:2x1')).toEqual({ chips_per_host_bounds: [2, 1, 1] });
    expect(topologyCreateOptions('v5e:2x2')).toEqual({});
    expect(topologyCreateOptions('v5p:2x2x2')).toEqual({});
  });

  it('names the argument on a malformed topology', () => {
    expect(() => topologyCreateOptions('v5e-2x2')).toThrow(`topology: expected a name like 'v5e:2x2' or 'v5p:2x2x1', got "v5e-2x2"`);
  });
});
