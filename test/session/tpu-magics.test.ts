// The TPU magics: %mode, %profile, %memory, %device, %program, %reset, checked
// against the runtime's own figures (tpu.memory(), tpu.device()) and hand counts.
import { afterAll, describe, expect, it } from 'vitest';
import { mkdtempSync } from 'node:fs';
import { tmpdir } from 'node:os';
import path from 'node:path';
import type { SessionFactory } from '../../kernel/language-session.js';
import { defaultProfileMode } from '../../kernel/session/outputs/profile-mode.js';
import { SessionDriver } from './recording-publisher.js';

const built = (await import(path.resolve('dist/kernel/session/index.js'))) as { createSession: SessionFactory };
const driver = new SessionDriver(mkdtempSync(path.join(tmpdir(), 'tpu-magics-')), built.createSession);
afterAll(async () => {
  await driver.run('%reset');
  await driver.shutdown();
});

async function stdout(code: string): Promise<string> {
  const { outcome, publisher } = await driver.run(code);
  if (outcome.status !== 'ok') throw new Error(`${outcome.ename}: ${outcome.evalue}`);
  return publisher.text('stdout');
}

async function usageError(code: string): Promise<string> {
  const { outcome } = await driver.run(code);
  expect(outcome).toMatchObject({ status: 'error', ename: 'UsageError' });
  return outcome.status === 'error' ? outcome.evalue : '';
}

const json = async (expr: string) => JSON.parse(eval(await driver.value(`JSON.stringify(${expr})`) as string));

describe('TPU magics', () => {
  it('%mode switches the eager mode and prints it', async () => {
    expect(await stdout('%mode fused')).toBe('mode: fused\n');
    expect(await driver.value('tpu.mode()')).toBe("'fused'");
    expect(await stdout('%mode debug\nconst modeNow = tpu.mode();')).toBe('mode: debug\n');
    expect(await driver.value('modeNow')).toBe("'debug'");
    expect(await stdout('%mode')).toBe('mode: debug\n');
    expect(await usageError('%mode turbo')).toBe("%mode: mode must be one of debug, strict, fused, got 'turbo'");
    expect(await stdout('%mode strict')).toBe('mode: strict\n');
  });

  it('%memory prints tpu.memory() figures', async () => {
    await driver.value('%reset');
    await driver.value('const m1 = tpu.ones([256, 256]);\nconst m2 = tpu.zeros([10], { dtype: "int32" });');
    const m = await json('tpu.memory()');
    // 256*256 float32 + 10 int32
    expect(m).toMatchObject({ liveBytes: 262144 + 40, peakBytes: 262144 + 40, liveTensors: 2, capacityBytes: 16e9 });
    expect(await stdout('%memory')).toBe([
      'live:     256.0 KiB in 2 tensors (262184 bytes, 0.00% of capacity)',
      'peak:     256.0 KiB (262184 bytes)',
      'capacity: 14.9 GiB (v5e) (16000000000 bytes)',
      '',
    ].join('\n'));
    expect(await usageError('%memory now')).toBe("%memory: takes no arguments, got 'now'");
  });

  it('%device prints backend, chip, HBM capacity, threads, mode and precision as tpu.device() has them', async () => {
    const d = await json('tpu.device()');
    expect(await stdout('%device')).toBe([
      'backend:          onnxruntime-cpu',
      `chip:             TPU ${d.chip}`,
      `HBM capacity:     ${d.capacity} (${d.capacityBytes} bytes)`,
      `threads:          ${d.threads}`,
      'mode:             strict',
      'matmul precision: highest',
      '',
    ].join('\n'));
    await driver.value("tpu.setDevice({ chip: 'v4' })");
    expect(await stdout('%device')).toContain('chip:             TPU v4\nHBM capacity:     32.0 GiB (v4) (34359738368 bytes)\n');
    await driver.value("tpu.setDevice({ chip: 'v5e' })");
  });

  it('%program shows the ops of the last compiled program and its ONNX graph', async () => {
    const { outcome } = await driver.run([
      '%mode fused',
      "const pa = tpu.ones([2, 3]);",
      "const pb = pa.mul(pa).add(1.5).sum(1);",
      'await pb.data();',
      '%program',
    ].join('\n'));
    expect(outcome.status).toBe('ok');
    const text = outcome.status === 'ok' ? (outcome.result!.data['text/plain'] as string) : '';
    const lines = text.split('\n');
    expect(lines[0]).toMatch(/^program \d+: fused program of 3 ops \(mul, add, sum\) \(hash [0-9a-f]{8}\)$/);
    expect(lines.slice(1, 7)).toEqual([
      '  inputs:  %0: float32[2, 3]',
      '  scalars: %1: float32[]',
      '  %2 = mul(%0, %0) : float32[2, 3]',
      '  %3 = add(%2, %1) : float32[2, 3]',
      '  %4 = sum(%3) {"dims":[1],"keepdim":false} : float32[2]',
      '  outputs: %4',
    ]);
    expect(text).toContain('\n\nONNX graph run by the backend (onnxruntime-cpu):\ninputs: in0: float32[2,3], s0: float32[]\n');
    expect(text).toMatch(/= Mul\(in0, in0\)\n.*= Add\(v\d+, s0\)\n/);
    expect(text).toMatch(/= ReduceSum\(v\d+, c\d+, keepdims=0\)/);
    expect(await driver.value('(await pb.data()).join(",")')).toBe("'7.5,7.5'"); // 3 * (1*1 + 1.5)
    await driver.value('%mode strict');
  });

  it('%reset frees every device buffer and says what it freed', async () => {
    await driver.value('%reset');
    await driver.value('const r1 = tpu.ones([4, 4]);\nconst r2 = r1.add(r1);\nconst r3 = r2.mul(r1);\nawait r3.data();');
    // three 4x4 float32 tensors (64 B each), two programs (add, mul)
    expect(await stdout('%reset')).toBe('New TPU session. Freed 192 B in 3 tensors and 2 compiled programs.\n');
    expect(await json('tpu.memory()')).toMatchObject({ liveBytes: 0, peakBytes: 0, liveTensors: 0 });
    expect(await driver.value('(await tpu.ones([2]).add(1).data()).join(",")')).toBe("'2,2'"); // the new session works
  });

  it('%profile prints and switches the setting; a bad value is a usage error', async () => {
    expect(await stdout('%profile')).toBe('profile: off\n');
    expect(await stdout('%profile live')).toBe('profile: live\n');
    expect(await stdout('%profile off')).toBe('profile: off\n');
    expect(await usageError('%profile loud')).toBe("%profile: mode (off|summary|live|timeline|trace): must be one of off, summary, live, timeline, trace, got 'loud'");
  });

  it('TPU_KERNEL_PROFILE gives the default; a bad value is reported and profiling stays off', () => {
    expect(defaultProfileMode({ TPU_KERNEL_PROFILE: 'live' })).toBe('live');
    expect(defaultProfileMode({})).toBe('off');
    const warned: string[] = [];
    expect(defaultProfileMode({ TPU_KERNEL_PROFILE: 'verbose' }, (m) => warned.push(m))).toBe('off');
    expect(warned).toEqual(["tpu-kernel: TPU_KERNEL_PROFILE: must be one of off, summary, live, timeline, trace, got 'verbose'; profiling is off\n"]);
  });

  it('every magic has help through inspect', async () => {
    for (const [name, usage] of [['mode', '%mode [debug|strict|fused]'], ['profile', '%profile [off|summary|live|timeline|trace]'],
      ['memory', '%memory'], ['device', '%device'], ['program', '%program'], ['reset', '%reset']]) {
      const info = await driver.session.inspect(`%${name}`, 2, 0);
      expect(info.found).toBe(true);
      expect(String(info.data['text/plain'])).toContain(usage);
    }
  });
});
