// %profile trace and tpu.profiler.exportTrace: a cell's timeline as Chrome trace event
// JSON (Perfetto, chrome://tracing), event for event the spans of the profile shown.
import { afterAll, describe, expect, it } from 'vitest';
import { existsSync, mkdtempSync, readFileSync } from 'node:fs';
import { tmpdir } from 'node:os';
import path from 'node:path';
import type { MimeBundle, SessionFactory } from '../../kernel/language-session.js';
import type { ChromeTrace, ProfileData, TraceEvent } from '../../runtime/profiler/index.js';
import { SessionDriver, type Recorded } from './recording-publisher.js';

const MIME = 'application/vnd.tpu-kernel.profile+json';
const built = (await import(path.resolve('dist/kernel/session/index.js'))) as { createSession: SessionFactory };
const driver = new SessionDriver(mkdtempSync(path.join(tmpdir(), 'tpu-trace-')), built.createSession);
afterAll(async () => {
  await driver.run('%profile off');
  await driver.run('%reset');
  await driver.shutdown();
});

const finalProfile = (outputs: Recorded[]): MimeBundle =>
  outputs.filter((o): o is Extract<Recorded, { kind: 'display' | 'update' }> => (o.kind === 'display' || o.kind === 'update') && MIME in o.data).at(-1)!.data;

async function ok(code: string) {
  const run = await driver.run(code);
  if (run.outcome.status !== 'ok') throw new Error(`${run.outcome.ename}: ${run.outcome.evalue}\n${run.outcome.traceback.join('\n')}`);
  return run;
}

/** A profile's figures, as a cell shows them in JSON. */
async function dataOf(expression: string): Promise<ProfileData> {
  const { publisher } = await ok(`display.json(${expression}.data)`);
  return (publisher.outputs[0] as { data: MimeBundle }).data['application/json'] as ProfileData;
}

/** The trace holds the profile's spans, in order, in microseconds, on a host and a device thread. */
function expectTraceOf(trace: ChromeTrace, data: ProfileData) {
  expect(trace.displayTimeUnit).toBe('ms');
  const meta = trace.traceEvents.filter((e) => e.ph === 'M');
  expect(meta).toEqual([
    { name: 'process_name', ph: 'M', pid: 1, tid: 0, args: { name: `tpu-kernel: ${data.title}` } },
    { name: 'thread_name', ph: 'M', pid: 1, tid: 1, args: { name: 'host' } },
    { name: 'thread_name', ph: 'M', pid: 1, tid: 2, args: { name: `device (${data.chip.name})` } },
  ]);
  const spans = trace.traceEvents.filter((e) => e.ph === 'X');
  const expected = [...data.timeline.host, ...data.timeline.device].map((s): TraceEvent => ({
    name: s.label, cat: s.kind, ph: 'X', pid: 1, tid: s.lane === 'host' ? 1 : 2,
    ts: Math.round(s.start * 1e6) / 1e3, dur: Math.round((s.end - s.start) * 1e6) / 1e3,
  }));
  expect(spans).toEqual(expected);
  for (const e of spans) {
    expect(e.ts!).toBeGreaterThanOrEqual(0);
    expect(e.dur!).toBeGreaterThanOrEqual(0);
    expect(e.ts! + e.dur!).toBeLessThanOrEqual(data.wallMs * 1000 + 1);
  }
}

describe('Chrome traces', () => {
  it('%profile trace writes tpu-traces/cell-N.trace.json beside the notebook and links it from the profile', async () => {
    await ok('%profile trace');
    const { publisher } = await ok([
      '%mode strict',
      'const w = tpu.ones([32, 32]);',
      'const y = w.matmul(w).add(1);',
      'y.sum().item()',
    ].join('\n'));
    const file = path.join(driver.cwd, 'tpu-traces', `cell-${driver.count}.trace.json`);
    expect(existsSync(file)).toBe(true);
    const trace = JSON.parse(readFileSync(file, 'utf8')) as ChromeTrace;
    const bundle = finalProfile(publisher.outputs);
    const data = bundle[MIME] as ProfileData;
    expect(data.timeline.device.length).toBeGreaterThan(0);
    expect(trace.traceEvents.filter((e) => e.tid === 2 && e.ph === 'X').map((e) => e.cat)).toEqual(data.timeline.device.map(() => 'program'));
    expectTraceOf(trace, data);
    expect(trace.otherData).toMatchObject({ title: data.title, mode: 'strict', ops: data.ops, programsRun: data.programsRun });
    expect(bundle['text/html']).toContain(`<a href="tpu-traces/cell-${driver.count}.trace.json" download>`);
    expect(bundle['text/plain']).toContain(`trace: ${file}`);
    await ok('%profile off');
  });

  it('tpu.profiler.exportTrace(path) writes a recorded profile, by default the last one', async () => {
    const target = path.join(driver.cwd, 'step.trace.json');
    await ok([
      'const rec = tpu.profiler.record({ title: "step", timeline: true });',
      'const z = tpu.ones([8]).mul(3).sum().item();',
      'const prof = rec.stop();',
      `await tpu.profiler.exportTrace(${JSON.stringify(target)}, prof);`,
    ].join('\n'));
    const trace = JSON.parse(readFileSync(target, 'utf8')) as ChromeTrace;
    const data = await dataOf('prof');
    expect(data.title).toBe('step');
    expectTraceOf(trace, data);
    await ok([
      'const r2 = tpu.profiler.record({ title: "second" });',
      'tpu.ones([4]).add(1).sum().item();',
      'r2.stop();',
      `await tpu.profiler.exportTrace(${JSON.stringify(target)});`,
    ].join('\n'));
    const second = JSON.parse(readFileSync(target, 'utf8')) as ChromeTrace;
    expect(second.traceEvents[0]!.args).toEqual({ name: 'tpu-kernel: second' });
    expectTraceOf(second, await dataOf('r2.stop()'));
  });
});
