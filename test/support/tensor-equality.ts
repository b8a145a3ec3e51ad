// A setup file: two tensors are equal to Vitest's toEqual (and to the deep comparison toBe
// makes for its message) only when they are the same tensor. A tensor iterates over its first
// dim, as a torch tensor does, so Vitest's iterable equality would walk its rows down to 0-d
// tensors, which have none (PyTorch's error). Values are compared through tolist()/array().
import { expect } from 'vitest';

const isTensor = (v: unknown): boolean => typeof v === 'object' && v !== null && v.constructor?.name === 'Tensor' && 'dtype' in v && Symbol.iterator in v;

expect.addEqualityTesters([(a: unknown, b: unknown) => (isTensor(a) || isTensor(b) ? a === b : undefined)]);
