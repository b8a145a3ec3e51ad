// V8's interrupt budget is the tensor runtime's while a cell's code runs and V8's default around
// it (kernel/session/cells/cell-tiering.ts): observed through the calls that set it, in order
// with a call the cell's own code makes.
import { execFileSync } from 'node:child_process';
import { fileURLToPath } from 'node:url';
import v8 from 'node:v8';
import { afterAll, afterEach, beforeAll, describe, expect, it, vi } from 'vitest';
import { KERNEL_INTERRUPT_BUDGET } from '../../kernel/session/cells/cell-tiering.js';
import { INTERRUPT_BUDGET, runtimeInterruptBudget } from '../../runtime/v8-tiering.js';
import { SessionDriver } from './recording-publisher.js';

const driver = new SessionDriver();
beforeAll(() => driver.value('1')); // the runtime loads: it sets its budget, the session the kernel's
afterAll(() => driver.shutdown());
afterEach(() => vi.restoreAllMocks());

/** The budgets set and the cell's own mark, in the order they happened. */
function recordBudgetsAndCell(): string[] {
  const log: string[] = [];
  const setFlags = v8.setFlagsFromString;
  vi.spyOn(v8, 'setFlagsFromString').mockImplementation((flags) => (log.push(flags), setFlags(flags)));
  const tag = v8.cachedDataVersionTag;
  vi.spyOn(v8, 'cachedDataVersionTag').mockImplementation(() => (log.push('cell'), tag()));
  return log;
}

const MARK = `(await import('node:v8')).default.cachedDataVersionTag();`;

describe('interrupt budget around a cell', () => {
  it("is the runtime's while the cell's code runs, V8's default before and after", async () => {
    expect(runtimeInterruptBudget).toBe(INTERRUPT_BUDGET); // no budget chosen on this test's command line
    const log = recordBudgetsAndCell();
    expect(await driver.value(`${MARK}\nawait new Promise((r) => setTimeout(r, 5));\n${MARK}\n6 * 7`)).toBe('42');
    expect(log).toEqual([`--interrupt-budget=${INTERRUPT_BUDGET}`, 'cell', 'cell', `--interrupt-budget=${KERNEL_INTERRUPT_BUDGET}`]);
  });

  it("is V8's default again after a cell that throws", async () => {
    const log = recordBudgetsAndCell();
    const { outcome } = await driver.run(`${MARK}\nthrow new RangeError('no')`);
    expect(outcome).toMatchObject({ status: 'error', ename: 'RangeError' });
    expect(log).toEqual([`--interrupt-budget=${INTERRUPT_BUDGET}`, 'cell', `--interrupt-budget=${KERNEL_INTERRUPT_BUDGET}`]);
  });
});

describe('a session that has not used the runtime', () => {
  const fresh = new SessionDriver();
  afterAll(() => fresh.shutdown());

  it("keeps the kernel's budget around its cells (no setting), until a cell uses `tpu`", async () => {
    await fresh.value('1'); // the runtime has loaded
    const log = recordBudgetsAndCell();
    expect(await fresh.value('6 * 7')).toBe('42');
    expect(log).toEqual([]);
    expect(await fresh.value('(typeof tpu).length * 7')).toBe('42'); // 'object'
    expect(log).toEqual([`--interrupt-budget=${INTERRUPT_BUDGET}`, `--interrupt-budget=${KERNEL_INTERRUPT_BUDGET}`]);
  });
});

describe('a budget the user chose', () => {
  const dist = (file: string) => JSON.stringify(fileURLToPath(new URL(`../../dist/kernel/session/${file}`, import.meta.url)));
  /** The budgets the session sets when the runtime loads and around a cell, in a fresh process. */
  const budgetsSet = (nodeFlags: string[], env: Record<string, string>) => execFileSync(process.execPath, [...nodeFlags, '--input-type=module', '-e', `
    import v8 from 'node:v8';
    const set = [];
    const setFlags = v8.setFlagsFromString;
    v8.setFlagsFromString = (flags) => (set.push(flags), setFlags(flags));
    const { loadTensorRuntime } = await import(${dist('tensor-runtime.js')});
    const { withRuntimeTiering } = await import(${dist('cells/cell-tiering.js')});
    await loadTensorRuntime();
    await withRuntimeTiering(async () => undefined);
    console.log(JSON.stringify(set.filter((flags) => flags.startsWith('--interrupt-budget'))));
    process.exit(0);`], { env: { ...process.env, ...env }, encoding: 'utf8' });

  it('is left alone: node --interrupt-budget=N, or TPU_KERNEL_INTERRUPT_BUDGET=0 (V8 default throughout)', () => {
    expect(JSON.parse(budgetsSet(['--interrupt-budget=1000'], {}))).toEqual([]);
    expect(JSON.parse(budgetsSet([], { TPU_KERNEL_INTERRUPT_BUDGET: '0' }))).toEqual([]);
    // the runtime's own setting when it loads goes through its named import, not seen here
    expect(JSON.parse(budgetsSet([], { TPU_KERNEL_INTERRUPT_BUDGET: '20000' }))).toEqual([
      `--interrupt-budget=${KERNEL_INTERRUPT_BUDGET}`, '--interrupt-budget=20000', `--interrupt-budget=${KERNEL_INTERRUPT_BUDGET}`,
    ]);
  });
});
