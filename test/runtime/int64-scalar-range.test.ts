// A JS number meeting an int64 tensor is an int64 operand: beyond int64's range it is an error
// naming the op and the argument (PyTorch: "Overflow when unpacking long"), never a silent
// wraparound; within it, the result is exact. References: BigInt arithmetic written here.
import { afterEach, describe, expect, it } from 'vitest';
import { tpu } from 'tpu-kernel/runtime';
import { int64Values } from '../support/int64-values.js';

afterEach(() => tpu.mode('strict'));

describe.each(['debug', 'strict', 'fused'] as const)('%s mode', (mode) => {
  it('refuses a scalar beyond int64 with an int64 tensor, and the session goes on', async () => {
    tpu.mode(mode);
    const x = tpu.tensor(BigInt64Array.from([1n, -2n]));
    expect(() => x.mul(2 ** 70)).toThrow('mul: other 1.1805916207174113e+21 does not fit in int64 (range -2^63 to 2^63-1)');
    expect(() => x.add(2 ** 63)).toThrow('add: other 9223372036854776000 does not fit in int64');
    expect(() => x.sub(-(2 ** 64))).toThrow('sub: other -18446744073709552000 does not fit in int64');
    // the edges of the range, exact (-2 - 2^63 wraps to 2^63 - 2, as PyTorch's int64 does)
    expect(await int64Values(x.add(-(2 ** 63)))).toEqual([1n - 2n ** 63n, BigInt.asIntN(64, -2n - 2n ** 63n)]);
    expect(await int64Values(x.mul(2 ** 62))).toEqual([2n ** 62n, BigInt.asIntN(64, -2n * 2n ** 62n)]);
    expect(await int64Values(x)).toEqual([1n, -2n]);
  });
});
