// Each profiler warning provoked in a cell, reported at the cell line that caused it.
import { afterAll, beforeEach, describe, expect, it } from 'vitest';
import { mkdtempSync } from 'node:fs';
import { tmpdir } from 'node:os';
import path from 'node:path';
import type { SessionFactory } from '../../kernel/language-session.js';
import type { ProfileData, ProfileWarning } from '../../runtime/profiler/index.js';
import { SessionDriver } from './recording-publisher.js';

const MIME = 'application/vnd.tpu-kernel.profile+json';
const built = (await import(path.resolve('dist/kernel/session/index.js'))) as { createSession: SessionFactory };
const driver = new SessionDriver(mkdtempSync(path.join(tmpdir(), 'tpu-warnings-')), built.createSession);
afterAll(async () => {
  await driver.run('%reset');
  await driver.shutdown();
});
// Each test starts from an empty program cache, profiling every cell.
beforeEach(async () => {
  await driver.value('%reset\n%profile summary\n%mode strict');
});

async function warnings(code: string): Promise<{ warnings: ProfileWarning[]; text: string }> {
  const { outcome, publisher } = await driver.run(code);
  if (outcome.status !== 'ok') throw new Error(`${outcome.ename}: ${outcome.evalue}`);
  const shown = publisher.outputs.filter((o) => o.kind === 'display' && MIME in o.data);
  expect(shown).toHaveLength(1);
  const data = (shown[0] as { data: Record<string, unknown> }).data;
  return { warnings: [...(data[MIME] as ProfileData).warnings], text: data['text/plain'] as string };
}

const summary = (ws: ProfileWarning[]) => ws.map((w) => ({ kind: w.kind, where: w.site.where, text: w.site.text, count: w.count }));

describe('profile warnings', () => {
  it('a program recompiled because a shape changed: which dimension, old and new', async () => {
    const { warnings: ws, text } = await warnings([
      'const p = tpu.ones([8, 128]);',
      'const q = tpu.ones([16, 128]);',
      'p.relu();',
      'q.relu();',
    ].join('\n'));
    expect(summary(ws)).toEqual([{ kind: 'recompile', where: 'line 4', text: 'q.relu();', count: 1 }]);
    expect(ws[0]!.message).toBe("op 'relu' recompiled because a shape changed: input 0 dim 0: 8 -> 16 (static shapes: each new shape is a new program)");
    expect(text).toContain('  ! line 4: q.relu();\n      op \'relu\' recompiled because a shape changed: input 0 dim 0: 8 -> 16');
  });

  it('a host sync inside a loop, counted at its line; a single sync is not one', async () => {
    const { warnings: ws } = await warnings([
      'const t = tpu.ones([8, 128]);',
      'await t.neg().data();',
      'for (let i = 0; i < 3; i++) {',
      '  await t.add(i).data();',
      '}',
    ].join('\n'));
    expect(summary(ws)).toEqual([{ kind: 'sync-in-loop', where: 'line 4', text: '  await t.add(i).data();', count: 3 }]);
    expect(ws[0]!.message).toMatch(/^host sync inside a loop: data waited for the device 3 times here \([\d.]+ ms\)/);
  });

  it('a fused region cut early, and why', async () => {
    const { warnings: ws } = await warnings([
      '%mode fused',
      'const u = tpu.ones([8, 128]).mul(2);',
      'const first = u.sum().item();',
      'const after = u.add(first);',
      'await after.data();',
    ].join('\n'));
    expect(summary(ws)).toEqual([{ kind: 'region-cut', where: 'line 3', text: 'const first = u.sum().item();', count: 1 }]);
    expect(ws[0]!.message).toBe('fused region cut early by a host read (dataSync()) after 2 ops; the ops after it run as another program');
  });

  it('a region cut where the cell reads its result last is not early', async () => {
    const { warnings: ws } = await warnings('%mode fused\nconst v = tpu.ones([8, 128]).mul(2).sum();\nv.item()');
    expect(ws).toEqual([]);
  });

  it('a matmul operand with a dim that is not a multiple of 8 / 128 (padding waste)', async () => {
    const { warnings: ws } = await warnings([
      'const m = tpu.ones([100, 128]);',
      'const n = tpu.ones([128, 256]);',
      'const aligned = tpu.ones([8, 128]).matmul(n);',
      'const padded = m.matmul(n);',
    ].join('\n'));
    // The aligned matmul of line 3 has no padding; line 4's has, and is a new shape too.
    expect(summary(ws)).toEqual([
      { kind: 'recompile', where: 'line 4', text: 'const padded = m.matmul(n);', count: 1 },
      { kind: 'matmul-padding', where: 'line 4', text: 'const padded = m.matmul(n);', count: 1 },
    ]);
    // [100, 128] -> [104, 128]: 1 - 12800 / 13312 = 3.8% padding
    // XLA:TPU is not in the loop here (vitest.config.ts): the warning says its figure is an estimate.
    expect(ws[1]!.message).toBe('matmul input [100, 128]: dim 0 = 100 is not a multiple of 8; the TPU pads it to [104, 128] ' +
      '(4% padding; an estimate with 8 x 128 tiles: XLA:TPU\'s layout of it is not known)');
  });

  it('an operator dispatched at run time (%typecheck off) is reported at the cell line, not the kernel\'s dispatch', async () => {
    const { warnings: ws } = await warnings([
      '%typecheck off',
      'const p = tpu.ones([8, 128]);',
      'const q = tpu.ones([16, 128]);',
      'p + 1;',
      'q + 1;',
    ].join('\n'));
    // (The shown text is the rewritten line, `__tpuOps.add(q, 1);`: the rewrite keeps lines, not columns.)
    expect(ws.map((w) => [w.kind, w.site.where, w.site.line, w.count])).toEqual([['recompile', 'line 5', 5, 1]]);
  });

  it('a dispatched operator inside a function from an earlier cell names that cell', async () => {
    await driver.value('%typecheck off\nfunction grow(t) {\n  return t * 2;\n}');
    const defined = driver.count;
    const { warnings: ws } = await warnings('%typecheck off\ngrow(tpu.ones([8, 128]));\ngrow(tpu.ones([24, 128]));');
    expect(ws.map((w) => [w.kind, w.site.where.replace(/:\d+$/, ''), w.site.line, w.count])).toEqual([['recompile', `cell-${defined}.ts:3`, 3, 1]]);
  });

  it('a warning raised inside a function from an earlier cell names that cell', async () => {
    await driver.value('function readAll(t: any) {\n  return t.dataSync();\n}');
    const defined = driver.count;
    const { warnings: ws } = await warnings('const r = tpu.ones([8, 128]);\nfor (let i = 0; i < 2; i++) readAll(r.add(i));');
    expect(summary(ws)).toEqual([{ kind: 'sync-in-loop', where: `cell-${defined}.ts:2:12`, text: '  return t.dataSync();', count: 2 }]);
  });
});
