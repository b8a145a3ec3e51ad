// A buffer the young tensors' sweep finds dead is freed right after the last command of the
// batch that names it (device/protocol.ts, freeAfterLastUse), so the device reuses it within
// the batch. The device frees in queue order: a free placed before a command that reads,
// writes, uploads, downloads, checks or restores that buffer would hand it out too soon.
// These tests decode the batch and check each free's place against the commands around it.
import { describe, expect, it } from 'vitest';
import { tpu } from 'tpu-kernel/runtime';
import { CommandEncoder, decodeBatch, type Command } from '../../dist/runtime/device/protocol.js';

const b = (id: number) => ({ id });

function decoded(e: CommandEncoder): string[] {
  const msg = e.take();
  if (msg.t !== 'batch') throw new Error('a batch');
  return decodeBatch(msg.stream, msg.objects).map((c: Command) => {
    if (c.t === 'exec') return `exec ${c.ins.join(',')}->${c.outs.join(',')}${c.scalars.length ? ` [${c.scalars.join(',')}]` : ''}`;
    if (c.t === 'free') return `free ${c.buffer}`;
    if (c.t === 'restore') return `restore ${c.buffer}<-${c.from}`;
    if ('buffer' in c) return `${c.t} ${c.buffer}`;
    return c.t;
  });
}

describe('CommandEncoder.freeAfterLastUse', () => {
  it("places each free after the last exec reading or writing it: a chain's temporaries", () => {
    const e = new CommandEncoder();
    e.exec(1, 1, [b(1)], [b(10)], [1.5], 0);
    e.exec(2, 2, [b(10)], [b(11)], [0.5], 0);
    e.exec(3, 3, [b(11), b(1)], [b(12)], [], 0);
    e.exec(4, 4, [b(12)], [b(13)], [], 0);
    e.object({ t: 'fence', reply: 7 });
    e.freeAfterLastUse([13, 11, 10, 12]);
    expect(e.count).toBe(9);
    // frees at one place keep the order given
    expect(decoded(e)).toEqual([
      'exec 1->10 [1.5]', 'exec 10->11 [0.5]', 'free 10', 'exec 11,1->12', 'free 11', 'exec 12->13', 'free 13', 'free 12', 'fence',
    ]);
  });

  it('keeps a free after uploads, downloads, checks and restores of its buffer, and after frees already queued', () => {
    const e = new CommandEncoder();
    e.object({ t: 'upload', buffer: 20, dtype: 'float32', data: new Float32Array(1) });
    e.exec(1, 1, [b(20)], [b(21)], [], 0);
    e.object({ t: 'check', buffer: 21, reply: 1 });
    e.free(5);
    e.restore(22, 21);
    e.object({ t: 'download', buffer: 20, reply: 2 });
    e.object({ t: 'stats', reply: 3 });
    e.freeAfterLastUse([21, 20, 22]);
    expect(decoded(e)).toEqual([
      'upload 20', 'exec 20->21', 'check 21', 'free 5', 'restore 22<-21', 'free 21', 'free 22', 'download 20', 'free 20', 'stats',
    ]);
  });

  it('frees a buffer this batch never names at its start (its last use went out in an earlier batch)', () => {
    const e = new CommandEncoder();
    e.exec(1, 1, [b(1)], [b(2)], [], 0);
    e.freeAfterLastUse([9]);
    expect(decoded(e)).toEqual(['free 9', 'exec 1->2']);
  });

  it('reads only the current batch of the stream the encoder keeps from batch to batch', () => {
    const e = new CommandEncoder();
    for (let k = 0; k < 300; k++) e.exec(1, k, [b(1)], [b(2)], [k], 0); // grows the stream past its first capacity
    decoded(e);
    e.exec(2, 1, [b(3)], [b(4)], [], 0);
    e.exec(2, 2, [b(4)], [b(5)], [], 0);
    e.freeAfterLastUse([4, 2]);
    expect(decoded(e)).toEqual(['free 2', 'exec 3->4', 'exec 4->5', 'free 4']);
  });

  it('places the frees of batch after batch, each in its own stream (the output array is reused)', () => {
    const e = new CommandEncoder();
    for (let round = 0; round < 4; round++) {
      const n = round % 2 ? 40 : 3; // longer and shorter batches in turn
      for (let k = 0; k < n; k++) e.exec(1, k, [b(100 + k)], [b(101 + k)], [], 0);
      e.freeAfterLastUse([100 + n, 100]);
      const want = [`exec 100->101`, 'free 100'];
      for (let k = 1; k < n; k++) want.push(`exec ${100 + k}->${101 + k}`);
      want.push(`free ${100 + n}`);
      expect(decoded(e), `round ${round}`).toEqual(want);
    }
  });

  it('does nothing with no buffers', () => {
    const e = new CommandEncoder();
    e.exec(1, 1, [b(1)], [b(2)], [], 0);
    e.freeAfterLastUse([]);
    expect(e.count).toBe(1);
    expect(decoded(e)).toEqual(['exec 1->2']);
  });
});

describe('CommandEncoder.take', () => {
  /** The message as the device thread gets it: cloned, its transfers moved (postMessage's algorithm). */
  function received(e: CommandEncoder) {
    const msg = e.take();
    if (msg.t !== 'batch') throw new Error('a batch');
    const transfer = msg.stream instanceof Float64Array ? [msg.stream.buffer as ArrayBuffer] : [];
    const got = structuredClone(msg, { transfer });
    return { sent: msg.stream, commands: decodeBatch(got.stream, got.objects) };
  }

  it('sends a short stream as an array of numbers and a long one as a Float64Array; both decode to the commands, scalars exact', () => {
    const scalars = [-0, NaN, 1.5, 2 ** 60, -1e-300, Infinity];
    const e = new CommandEncoder();
    e.exec(3, 7, [b(1), b(2)], [b(9)], scalars, 4);
    e.free(5);
    e.restore(9, 2);
    const short = received(e);
    expect(Array.isArray(short.sent)).toBe(true);
    for (let k = 0; k < 30; k++) e.exec(3, 8 + k, [b(1), b(2)], [b(9)], scalars, 0);
    const long = received(e);
    expect(long.sent).toBeInstanceOf(Float64Array);
    expect(long.commands).toHaveLength(30);
    for (const [c, launch, reply] of [[short.commands[0]!, 7, 4], [long.commands[29]!, 37, 0]] as const) {
      if (c.t !== 'exec') throw new Error('an exec');
      expect([c.program, c.launch, c.ins, c.outs, c.reply ?? 0]).toEqual([3, launch, [1, 2], [9], reply]);
      expect(c.scalars).toHaveLength(scalars.length);
      c.scalars.forEach((v, i) => expect(Object.is(v, scalars[i]), `scalar ${i}: ${v}`).toBe(true));
    }
    expect(short.commands.slice(1)).toEqual([{ t: 'free', buffer: 5 }, { t: 'restore', buffer: 9, from: 2 }]);
  });
});

describe('disposed temporaries come back within the batch', () => {
  it("strict: a chain in tpu.scope, no await between steps, cycles through a few buffers, not a step's worth", async () => {
    const n = 1 << 16; // 256 KiB: a pooled size
    const host = Float32Array.from({ length: n }, (_, i) => Math.sin(i));
    // float64; compared squared, as sqrt magnifies float32's rounding near the zeros of its argument
    const squared = Float64Array.from(host, (v) => Math.abs(Math.tanh(v * 1.5 + 0.5) * v - 0.25));
    await tpu.withMode('strict', async () => {
      const x = tpu.tensor(host);
      await tpu.sync();
      const fresh0 = (await tpu.deviceStats()).pool!.fresh;
      let y: ReturnType<typeof x.mul> | undefined;
      for (let k = 0; k < 50; k++) {
        y?.dispose();
        y = tpu.scope(() => x.mul(1.5).add(0.5).tanh().mul(x).sub(0.25).abs().sqrt());
      }
      await tpu.sync();
      // Each free right after its last reader: 4 buffers in turn (freed at each chain's end: 7).
      expect((await tpu.deviceStats()).pool!.fresh - fresh0).toBeLessThanOrEqual(4);
      const got = (await y!.data()) as Float32Array;
      for (let i = 0; i < n; i++) expect(Math.abs(got[i]! * got[i]! - squared[i]!), `y[${i}]^2`).toBeLessThanOrEqual(1e-6);
    });
  });
});
