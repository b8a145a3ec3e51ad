// Named TPU topologies ('v5e:2x2', 'v5p:2x2x1', 'v6e:2x2', ...) as libtpu describes them:
// created once per name and kept for the process (they are small and compiles reuse them).
import { libtpu } from './libtpu.js';
import { PjrtError } from './errors.js';
import type { DeviceDescription, NamedValues, TopologyHandle } from './native-addon.js';

export interface TpuTopology {
  readonly name: string;
  readonly handle: TopologyHandle;
  /** e.g. 'TPU v5 lite'. */
  readonly deviceKind: string;
  readonly devices: readonly DeviceDescription[];
  /** libtpu's platform version: chip and libtpu build. */
  readonly platformVersion: string;
}

const NAME = /^(v\d+[a-z]*):(\d+(?:x\d+)*)$/;

/**
 * libtpu's create options for a topology name. Hosts hold up to 2x2x1 chips by default; a
 * smaller slice (v5e:1x1) must say its own bounds or libtpu rejects it.
 */
export function topologyCreateOptions(name: string): NamedValues {
  const m = NAME.exec(name);
  if (!m) throw new TypeError(`topology: expected a name like 'v5e:2x2' or 'v5p:2x2x1', got ${JSON.stringify(name)}`);
  const dims = m[2].split('x').map(Number);
  const chips = dims.reduce((a, b) => a * b, 1);
  if (chips >= 4) return {};
  const bounds = [...dims, 1, 1, 1].slice(0, 3);
  return { chips_per_host_bounds: bounds };
}

const topologies = new Map<string, Promise<TpuTopology>>();

async function create(name: string): Promise<TpuTopology> {
  const options = topologyCreateOptions(name);
  const { addon, plugin } = await libtpu();
  let handle: TopologyHandle;
  try {
    handle = await addon.createTopology(plugin, name, options);
  } catch (e) {
    throw PjrtError.from(e);
  }
  const info = addon.topologyInfo(handle);
  return {
    name,
    handle,
    deviceKind: info.devices[0]?.kind ?? '',
    devices: info.devices,
    platformVersion: info.platformVersion,
  };
}

/** The topology of that name (created on first use). */
export function tpuTopology(name: string): Promise<TpuTopology> {
  let t = topologies.get(name);
  if (!t) {
    t = create(name);
    topologies.set(name, t);
    t.catch(() => topologies.delete(name));
  }
  return t;
}
