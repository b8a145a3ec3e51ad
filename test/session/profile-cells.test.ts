// %profile through the session: the final profile display of a cell with a known
// number of ops, compiles, transfers and bytes (counted by hand below), live updates
// of one display id, and the headless default from TPU_KERNEL_PROFILE.
import { afterAll, describe, expect, it } from 'vitest';
import { mkdtempSync } from 'node:fs';
import { tmpdir } from 'node:os';
import path from 'node:path';
import type { MimeBundle, SessionFactory } from '../../kernel/language-session.js';
import type { ProfileData } from '../../runtime/profiler/index.js';
import { SessionDriver, type Recorded } from './recording-publisher.js';

const MIME = 'application/vnd.tpu-kernel.profile+json';
const built = (await import(path.resolve('dist/kernel/session/index.js'))) as { createSession: SessionFactory };
const driver = new SessionDriver(mkdtempSync(path.join(tmpdir(), 'tpu-profile-')), built.createSession);
afterAll(async () => {
  await driver.run('%profile off');
  await driver.run('%reset');
  await driver.shutdown();
});

const profiles = (outputs: Recorded[]) =>
  outputs.filter((o): o is Extract<Recorded, { kind: 'display' | 'update' }> => (o.kind === 'display' || o.kind === 'update') && MIME in o.data);
const figures = (bundle: MimeBundle) => bundle[MIME] as ProfileData;

async function ok(code: string) {
  const run = await driver.run(code);
  if (run.outcome.status !== 'ok') throw new Error(`${run.outcome.ename}: ${run.outcome.evalue}`);
  return run;
}

describe('%profile summary: the figures of a cell are exact', () => {
  it('counts ops, programs, compiles, cache hits, transfers and memory of a strict cell', async () => {
    await ok('%reset'); // an empty program cache and device memory
    await ok('%profile summary');
    const { publisher } = await ok([
      '%mode strict',
      "const a = tpu.tensor([[1, 2], [3, 4]], { dtype: 'float32' });", // upload 16 B
      "const b = tpu.ones([2, 2]);",                                   // upload 16 B
      'const c1 = a.add(b);',   // op 1: add compiled
      'const c = c1.mul(2);',   // op 2: mul (tensor, scalar) compiled
      'const d1 = c.add(b);',   // op 3: add, cache hit
      'const d = d1.mul(3);',   // op 4: mul, cache hit
      'const s = d.sum();',     // op 5: sum compiled
      's.item()',               // download 4 B
    ].join('\n'));
    const shown = profiles(publisher.outputs);
    expect(shown).toHaveLength(1); // summary: one display, no updates
    expect(shown[0]!.kind).toBe('display');
    const p = figures(shown[0]!.data);
    expect(p.state).toBe('final');
    expect(p.mode).toBe('strict');
    expect(p.ops).toBe(5);
    expect(p.programsRun).toBe(5);
    expect(p.compiles.count).toBe(3);
    expect(p.cache).toEqual({ hits: 2, misses: 3, hitRate: 2 / 5 });
    expect(p.transfers).toEqual({ toDevice: { count: 2, bytes: 32 }, toHost: { count: 1, bytes: 4 } });
    expect(p.regions).toBe(0);
    expect(p.queueDepth.now).toBe(0);
    // a, b, c1, c, d1, d: 2x2 float32 (16 B each); s: 4 B. All still referenced.
    expect(p.memory).toMatchObject({ liveBytes: 6 * 16 + 4, peakBytes: 6 * 16 + 4, liveTensors: 7 });
    const runs = Object.fromEntries(p.programs.map((g) => [g.label, g.runs]));
    expect(runs).toEqual({ "op 'add'": 2, "op 'mul'": 2, "op 'sum'": 1 });
    // Times are measured, not known: check they are consistent.
    expect(p.deviceBusyMs).toBeGreaterThan(0);
    expect(p.deviceBusyMs).toBeLessThanOrEqual(p.wallMs);
    expect(p.hostDispatchMs).toBeGreaterThan(0);
    expect(p.hostDispatchMs).toBeLessThan(p.wallMs);
    expect(p.compiles.ms).toBeGreaterThan(0);
    expect(p.deviceBusyMs).toBeCloseTo(p.programs.reduce((t, g) => t + g.deviceMs, 0), 9);
    const text = shown[0]!.data['text/plain'] as string;
    expect(text).toMatch(/^TPU profile · cell \d+ · strict mode · final\n/);
    expect(text).toMatch(/ops dispatched 5 /);
    expect(text).toMatch(/programs run   5\n/);
    expect(text).toMatch(/compiles       3 \(/);
    expect(text).toMatch(/cache hit rate 40% \(2 of 5\)/);
    expect(text).toMatch(/to device      32 B \(2\)/);
    expect(text).toMatch(/from device    4 B \(1\)/);
  });

  it('counts one program for a fused region, and its recompilation for a new shape', async () => {
    const cell = (n: number) => [
      '%mode fused',
      `const x${n} = tpu.tensor(Array.from({ length: ${n} }, (_, i) => i + 1), { dtype: 'float32' });`,
      `const y${n} = x${n}.mul(2).add(1);`, // 2 ops, recorded
      `const z${n} = y${n}.sum();`,          // 1 op, recorded
      `z${n}.item()`,                        // the region runs as one program
    ].join('\n');
    const first = await ok(cell(4));
    expect(first.outcome.status === 'ok' && first.outcome.result?.data['text/plain']).toBe('24'); // 2*(1+2+3+4)+4
    const p = figures(profiles(first.publisher.outputs)[0]!.data);
    expect(p).toMatchObject({ mode: 'fused', ops: 3, programsRun: 1, regions: 1, cache: { hits: 0, misses: 1 } });
    expect(p.compiles.count).toBe(1);
    expect(p.transfers).toEqual({ toDevice: { count: 1, bytes: 16 }, toHost: { count: 1, bytes: 4 } });
    // y and the mul are consumed once inside the region: only x (16 B) and z (4 B) join
    // the 100 B of the strict cell's 7 tensors on the device.
    expect(p.memory).toMatchObject({ liveBytes: 100 + 20, peakBytes: 120, liveTensors: 9 });
    expect(p.programs.map((g) => [g.label, g.runs])).toEqual([['fused program of 3 ops (mul, add, sum)', 1]]);
    expect(p.warnings).toEqual([]);

    const second = await ok(cell(8));
    const q = figures(profiles(second.publisher.outputs)[0]!.data);
    expect(q).toMatchObject({ ops: 3, programsRun: 1, cache: { hits: 0, misses: 1 } });
    expect(q.warnings.map((w) => [w.kind, w.site.where])).toEqual([['recompile', 'line 5']]);
    expect(q.warnings[0]!.message).toContain('input 0 dim 0: 4 -> 8');
    expect(q.warnings[0]!.site.text).toBe('z8.item()');
  });
});

describe('%profile live', () => {
  it('shows one display and updates it in place while the cell awaits, then the final profile', async () => {
    await ok('%profile live');
    const { publisher } = await ok([
      '%mode strict',
      'const big = tpu.ones([64, 128]);',
      'for (let i = 0; i < 6; i++) {',
      '  big.add(i);',
      '  await new Promise((r) => setTimeout(r, 200));',
      '}',
    ].join('\n'));
    const shown = profiles(publisher.outputs);
    expect(shown[0]!.kind).toBe('display');
    const id = shown[0]!.displayId!;
    expect(id).toMatch(/^[0-9a-f-]{36}$/);
    expect(shown.slice(1).every((o) => o.kind === 'update' && o.displayId === id)).toBe(true);
    const states = shown.map((o) => figures(o.data).state);
    // ~1.2 s at one update per 250 ms: at least 2 running states before the final one,
    // with room for a loaded machine's late timers.
    expect(states.filter((s) => s === 'running').length).toBeGreaterThanOrEqual(2);
    expect(states.at(-1)).toBe('final');
    expect(states.slice(0, -1).every((s) => s === 'running')).toBe(true);
    const ops = shown.map((o) => figures(o.data).ops);
    expect(ops.at(-1)).toBe(6);
    expect([...ops].sort((x, y) => x - y)).toEqual(ops); // figures only grow
  });

  it('updates from inside a synchronous loop that holds the thread', async () => {
    const { publisher } = await ok([
      'const start = performance.now();',
      'let k = 0;',
      'while (performance.now() - start < 1000) { big.add(k++).dispose(); }',
    ].join('\n'));
    const states = profiles(publisher.outputs).map((o) => figures(o.data).state);
    expect(states.filter((s) => s === 'running').length).toBeGreaterThanOrEqual(2);
    expect(states.at(-1)).toBe('final');
  });

  it('shows nothing for a quick cell that does not touch the device', async () => {
    const { publisher } = await ok('const plain = 1 + 1;');
    expect(profiles(publisher.outputs)).toEqual([]);
  });

  it('timeline adds the SVG timeline to the final display', async () => {
    await ok('%profile timeline');
    const { publisher } = await ok('await big.mul(2).data();');
    const last = profiles(publisher.outputs).at(-1)!;
    expect(last.data['image/svg+xml']).toMatch(/^<svg [^>]*xmlns="http:\/\/www\.w3\.org\/2000\/svg"/);
    expect(last.data['text/html']).toContain('<svg ');
    expect(last.data['image/svg+xml']).toMatch(/<rect [^>]*class="program"[^>]*><title>op &#39;mul&#39;: /); // titles are XML-escaped
    await ok('%profile off');
    expect(profiles((await ok('await big.mul(3).data();')).publisher.outputs)).toEqual([]);
  });
});

describe('%profile on the first lines of a cell', () => {
  it('applies to that cell; after code, from the next cell on', async () => {
    await ok('%profile off');
    const first = await ok(['%profile summary', '%mode strict', 'const early = tpu.ones([4]).add(1);', 'await early.data();'].join('\n'));
    const shown = profiles(first.publisher.outputs);
    expect(shown.map((o) => o.kind)).toEqual(['display']);
    expect(figures(shown[0]!.data)).toMatchObject({ state: 'final', mode: 'strict', ops: 1, transfers: { toHost: { count: 1, bytes: 16 } } });

    expect(profiles((await ok(['%profile off', 'await early.add(2).data();'].join('\n'))).publisher.outputs)).toEqual([]);
    expect(profiles((await ok(['await early.add(3).data();', '%profile summary'].join('\n'))).publisher.outputs)).toEqual([]);
    expect(profiles((await ok('await early.add(4).data();')).publisher.outputs).map((o) => figures(o.data).ops)).toEqual([1]);
    await ok('%profile off');
  });
});

describe('%profile host dispatch time', () => {
  it('never exceeds the host time of the cell outside device waits, when a slow first op is the only sample', async () => {
    await ok('%profile summary');
    // The first op after the recording starts is always sampled; fewer than 128 ops give no other sample.
    // Its shape is new (a cache miss, built on the host); the 99 ops after it reuse its program.
    const { publisher } = await ok([
      '%mode strict',
      `const fresh = tpu.ones([3, ${Date.now() % 1000 + 7}]);`,
      'let acc = fresh.add(1);',
      'for (let i = 0; i < 99; i++) acc = acc.add(1);',
      'await acc.data();',
    ].join('\n'));
    const p = figures(profiles(publisher.outputs)[0]!.data);
    expect(p.ops).toBe(100);
    expect(p.hostDispatchMs).toBeGreaterThan(0);
    expect(p.hostDispatchMs).toBeLessThanOrEqual(p.wallMs - p.waits.ms);
    await ok('%profile off');
  });
});
