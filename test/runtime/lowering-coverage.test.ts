// Every backend lowers every primitive it claims, and no lowering names a primitive that
// does not exist (a renamed op would leave its rule behind). A new backend adds its table
// to BACKENDS.
import { describe, expect, it } from 'vitest';
import { registeredOps } from '../../runtime/ops/index.js';
import { LoweringTable, loweringGaps } from '../../runtime/device/lowering-table.js';
import { onnxLowerings } from '../../runtime/device/onnx/lowerings/index.js';

const BACKENDS: readonly LoweringTable<unknown>[] = [onnxLowerings];
const primitives = registeredOps().map((op) => op.name);

describe('lowering coverage', () => {
  it('the registry holds the primitives the ops define', () => {
    expect(primitives).toEqual(expect.arrayContaining(['add', 'matmul', 'conv2d', 'topkValues', 'embedSlice', 'constant']));
    expect(new Set(primitives).size).toBe(primitives.length);
  });

  for (const table of BACKENDS) {
    it(`${table.backend}: every claimed primitive has a lowering, every lowering a primitive`, () => {
      expect(loweringGaps(table, primitives)).toEqual({ unlowered: [], unknown: [] });
    });
  }

  it('names the gaps of a backend that claims a primitive it does not lower', () => {
    const partial = new LoweringTable<() => string>('partial', ['add', 'mul']);
    partial.register({ add: () => 'a', addd: () => 'typo' });
    expect(loweringGaps(partial, primitives)).toEqual({ unlowered: ['mul'], unknown: ['addd'] });
    expect(() => partial.get('mul')).toThrow("the partial backend has no lowering for the primitive 'mul'");
    expect(() => partial.register({ add: () => 'again' })).toThrow("partial lowerings: 'add' is registered twice");
  });

  it('a backend without a claimed list is held to every primitive', () => {
    const empty = new LoweringTable<() => string>('empty');
    expect(loweringGaps(empty, primitives).unlowered).toEqual(primitives);
  });
});
