// Every public Tensor method and property is either on DTensor or in NOT_ON_DTENSOR with the
// reason its error gives (dtensor-op-groups.ts): an op added to Tensor and to no list fails here,
// rather than being "dt.op is not a function" in a notebook. The lists name only Tensor methods,
// each once; the refused ones throw a TypeError naming DTensor's method and what to do instead.
import { describe, expect, it } from 'vitest';
import { tpu, Tensor } from 'tpu-kernel/runtime';
import * as groups from '../../dist/runtime/distributed/dtensor-op-groups.js';
import { mesh, S0 } from '../support/meshes.js';

/** Own names of a prototype and its ancestors', without the runtime's own (_x) and constructor. */
function publicNames(proto: object): string[] {
  const names = new Set<string>();
  for (let p = proto; p !== Object.prototype; p = Object.getPrototypeOf(p) as object) {
    for (const n of Object.getOwnPropertyNames(p)) if (!n.startsWith('_') && n !== 'constructor') names.add(n);
  }
  return [...names].sort();
}

const listed = [...groups.POINTWISE, ...groups.IN_PLACE, ...groups.REPLICATED, ...groups.HOST_READS, ...groups.COMPOSED, ...Object.keys(groups.ALONG_DIMS)];
const refused = Object.keys(groups.NOT_ON_DTENSOR);
const tensorNames = publicNames(Tensor.prototype);

describe('DTensor has every Tensor method, or refuses it with a reason', () => {
  it('no Tensor method or property is missing from DTensor', () => {
    const dtensorNames = new Set(publicNames(tpu.DTensor.prototype));
    expect(tensorNames.filter((n) => !dtensorNames.has(n))).toEqual([]);
  });

  it('the lists name Tensor methods only, each once, and none DTensor writes by hand', () => {
    expect([...listed, ...refused].filter((n) => !tensorNames.includes(n))).toEqual([]);
    expect([...listed, ...refused].filter((n, i, all) => all.indexOf(n) !== i)).toEqual([]);
    // a method of the class itself (add, sum, transpose, ...) would throw "installed twice" at load
    expect(listed.length + refused.length).toBeGreaterThan(150);
  });

  it('each refused one throws a TypeError naming it and saying what to do', () => {
    const dt = tpu.distributeTensor(tpu.ones([8, 2]), mesh, [S0]);
    for (const name of refused) {
      const reason = groups.NOT_ON_DTENSOR[name]!;
      expect(reason.length, name).toBeGreaterThan(20);
      const get = () => (dt as unknown as Record<string, unknown>)[name];
      const use = () => {
        const v = get();
        return typeof v === 'function' ? (v as () => unknown).call(dt) : v;
      };
      expect(use, name).toThrow(TypeError);
      expect(use, name).toThrow(`DTensor.${name}: not on a DTensor: ${reason}`);
    }
  });

  it('tpu\'s functions that DTensors refuse (random ones) say why; the pointwise list names tpu\'s functions', () => {
    const dt = tpu.distributeTensor(tpu.ones([8, 2]), mesh, [S0]);
    const functions = { ...tpu, ...tpu.nn.functional } as unknown as Record<string, unknown>;
    for (const [name, reason] of Object.entries(groups.FUNCTIONS_REFUSED)) {
      const f = functions[name] as (...a: unknown[]) => unknown;
      expect(() => f(dt, dt), name).toThrow(new RegExp(`^tpu(\\.nn\\.functional)?\\.${name}: not on a DTensor: ${reason.replace(/[().]/g, '\\$&')}$`));
    }
    expect(groups.FUNCTIONS_POINTWISE.filter((n) => typeof functions[n] !== 'function' && !tensorNames.includes(n))).toEqual([]);
  });

  it('a listed method on a DTensor answers (not "is not a function")', () => {
    const dt = tpu.distributeTensor(tpu.tensor([[1, 4], [9, 16]]), mesh, [S0]);
    expect(dt.sqrt().fullTensor().array()).toEqual([[1, 2], [3, 4]]);
    expect(dt.numel()).toBe(4);
    expect(dt.median().item()).toBe(4);
    expect(dt.t().placements.map(String)).toEqual(['Shard(1)']);
  });
});
