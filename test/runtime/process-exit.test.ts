// Every way a script ends gives the exit code or signal it asked for, never an abort (134):
// Node terminates the device thread when the process ends, and a thread terminated inside
// ONNX Runtime aborts the whole process, so the runtime stops it first. Each variant runs
// TPU_EXIT_RUNS times (default 2, two processes at once); `npm run soak:exit` runs 50.
import { describe, expect, it } from 'vitest';
import { spawn, spawnSync } from 'node:child_process';

const RUNS = Number(process.env.TPU_EXIT_RUNS ?? 2);
const PARALLEL = 2;

interface Ended {
  status: number | null;
  signal: NodeJS.Signals | null;
  stdout: string;
  stderr: string;
}

function runScript(code: string): Promise<Ended> {
  return new Promise((resolve, reject) => {
    const child = spawn(process.execPath, ['--input-type=module', '-e', code]);
    let stdout = '';
    let stderr = '';
    child.stdout.on('data', (d) => (stdout += d));
    child.stderr.on('data', (d) => (stderr += d));
    child.on('error', reject);
    child.on('close', (status, signal) => resolve({ status, signal, stdout, stderr }));
  });
}

/** Runs `code` `times` times, PARALLEL processes at once. */
async function runMany(code: string, times: number): Promise<Ended[]> {
  const ended: Ended[] = [];
  for (let i = 0; i < times; i += PARALLEL) {
    const batch = Array.from({ length: Math.min(PARALLEL, times - i) }, () => runScript(code));
    ended.push(...(await Promise.all(batch)));
  }
  return ended;
}

/** Tallies outcomes as 'status 1' / 'signal SIGTERM', so a failure shows them all at once. */
function outcomes(ended: readonly Ended[]): Record<string, number> {
  const tally: Record<string, number> = {};
  for (const e of ended) {
    const key = e.signal ? `signal ${e.signal}` : `status ${e.status}`;
    tally[key] = (tally[key] ?? 0) + 1;
  }
  return tally;
}

const MODES = ['debug', 'strict', 'fused'] as const;

/** How the script ends, and the outcome to see; a timer keeps the loop alive so that the signal ends it. */
const ENDINGS = {
  'process.exit(0)': { code: 'process.exit(0);', expect: 'status 0' },
  'process.exit(1)': { code: 'process.exit(1);', expect: 'status 1' },
  'uncaught exception': { code: "throw new Error('script failed');", expect: 'status 1' },
  'process.exit(1) during a tpu.reset() not awaited': { code: 'tpu.reset(); process.exit(1);', expect: 'status 1' },
  'end of the event loop': { code: '', expect: 'status 0' },
  'SIGTERM (default action)': { code: "setTimeout(() => {}, 10_000); process.kill(process.pid, 'SIGTERM');", expect: 'signal SIGTERM' },
  'SIGINT handled by process.exit(130)': {
    code: "setTimeout(() => {}, 10_000); process.on('SIGINT', () => process.exit(130)); process.kill(process.pid, 'SIGINT');",
    expect: 'status 130',
  },
} as const;

/** Trains a small model (one synced step); with `pending`, queues 8 more steps whose results nobody awaits. */
function script(mode: string, pending: boolean, ending: string): string {
  return `import { tpu } from 'tpu-kernel/runtime';
    tpu.mode('${mode}');
    tpu.manualSeed(3);
    const model = new tpu.nn.Sequential(new tpu.nn.Linear(6, 16), new tpu.nn.Tanh(), new tpu.nn.Linear(16, 3));
    const X = tpu.tensor(Array.from({ length: 192 }, (_, i) => Math.sin(i))).reshape([32, 6]);
    const Y = tpu.tensor(Array.from({ length: 32 }, (_, i) => i % 3), { dtype: 'int32' });
    const opt = new tpu.optim.SGD(model.parameters(), { lr: 0.1 });
    const step = () => { opt.zeroGrad(); const l = tpu.nn.crossEntropy(model.forward(X), Y); l.backward(); opt.step(); return l; };
    console.log('loss', (await step().item()).toFixed(5));
    if (${pending}) for (let s = 0; s < 8; s++) step().data().catch(() => {});
    console.log('ending');
    ${ending}`;
}

describe.each(MODES)('a script in %s mode ends with the outcome it asked for', (mode) => {
  it.each(Object.keys(ENDINGS) as (keyof typeof ENDINGS)[])('%s, with and without device work pending', async (name) => {
    const ending = ENDINGS[name];
    for (const pending of [false, true]) {
      const ended = await runMany(script(mode, pending, ending.code), RUNS);
      expect(outcomes(ended), `pending: ${pending}`).toEqual({ [ending.expect]: RUNS });
      for (const e of ended) {
        // Every run trained the same step (seeded) before it ended: the loss at the initial weights.
        expect(e.stdout).toMatch(/^loss \d\.\d{5}\nending\n$/);
        expect(e.stdout).toBe(ended[0]!.stdout);
        if (name === 'uncaught exception') expect(e.stderr).toContain('Error: script failed');
        else expect(e.stderr).toBe('');
      }
    }
  }, RUNS * 30_000);
});

it('the script of a new user (fused training, process.exit(1) with work pending) exits with 1', async () => {
  const code = `import { tpu } from 'tpu-kernel/runtime';
    const arr = n => Array.from({ length: n }, (_, i) => Math.sin(i));
    tpu.mode('fused');
    const mk = () => { tpu.manualSeed(3); return new tpu.nn.Sequential(new tpu.nn.Linear(6, 16), new tpu.nn.Tanh(), new tpu.nn.Linear(16, 3)); };
    const X = tpu.tensor(arr(192)).reshape([32, 6]), Y = tpu.tensor(Array.from({ length: 32 }, (_, i) => i % 3), { dtype: 'int32' });
    async function losses(wrap) {
      const m = mk(); const w = wrap(m); const opt = new tpu.optim.SGD(m.parameters(), { lr: 0.1 });
      for (let s = 0; s < 4; s++) { opt.zeroGrad(); const l = tpu.nn.crossEntropy(w.forward(X), Y); l.backward(); opt.step(); await l.item(); }
    }
    await losses(m => m);
    try { await losses(() => { throw new Error('no wrapper'); }); } catch {}
    process.exit(1);`;
  const ended = await runMany(code, RUNS * 5);
  expect(outcomes(ended)).toEqual({ 'status 1': RUNS * 5 });
  for (const e of ended) expect(e.stderr).toBe('');
}, RUNS * 60_000);

it('exits with status 0 after queued strict work, without any sync', () => {
  const code = `import { tpu } from 'tpu-kernel/runtime';
    const x = tpu.ones([8]);
    let y = x;
    for (let i = 0; i < 12000; i++) { const n = y.add(x); if (y !== x) y.dispose(); y = n; }
    console.log('dispatched');`;
  for (let run = 0; run < 4; run++) {
    const r = spawnSync(process.execPath, ['--input-type=module', '-e', code], { encoding: 'utf8' });
    expect(r.stderr).toBe('');
    expect(r.stdout.trim()).toBe('dispatched');
    expect(r.status).toBe(0);
  }
});
