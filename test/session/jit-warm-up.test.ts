// Practice cells in quiet spells (kernel/session/jit-warm-up.ts): when they run, that they leave
// nothing in the session, and that they are cells a session takes as it takes a notebook's.
import v8 from 'node:v8';
import { afterAll, afterEach, describe, expect, it, vi } from 'vitest';
import { JitWarmUp, practiceCell } from '../../kernel/session/jit-warm-up.js';
import { KERNEL_INTERRUPT_BUDGET, PRACTICE_INTERRUPT_BUDGET, runtimeLoaded, withPracticeTiering } from '../../kernel/session/cells/cell-tiering.js';
import { INTERRUPT_BUDGET } from '../../runtime/v8-tiering.js';
import { LazyLanguageService } from '../../kernel/session/language-service/lazy-language-service.js';
import { magics } from '../../kernel/session/magics/index.js';
import { builtSessions } from './built-sessions.js';

afterEach(() => {
  vi.useRealTimers();
  vi.restoreAllMocks();
});

describe('when practice runs', () => {
  /** A warm-up on a fake clock whose practice cells take 1 ms each; `state` says busy and ready. */
  function warmUp(state: { busy: boolean; ready: boolean }) {
    vi.useFakeTimers({ toFake: ['setTimeout', 'clearTimeout', 'Date'] });
    let practising = 0;
    vi.spyOn(performance, 'now').mockImplementation(() => Date.now() + practising);
    const practised: string[] = [];
    const warm = new JitWarmUp(() => state.busy, () => state.ready, (cell) => (practised.push(cell), practising++));
    return { warm, practised };
  }

  it('waits for the language service and two quiet seconds, then practises in slices of 5 ms until 400 cells', () => {
    const state = { busy: false, ready: false };
    const { practised } = warmUp(state);
    vi.advanceTimersByTime(5_000);
    expect(practised).toEqual([]); // no service yet
    state.ready = true;
    vi.advanceTimersByTime(999);
    expect(practised).toEqual([]); // it looks again every two seconds
    vi.advanceTimersByTime(1);
    expect(practised).toHaveLength(5); // one slice
    vi.advanceTimersByTime(1_000);
    expect(practised).toHaveLength(400);
    expect(new Set(practised).size).toBe(400); // each cell new: no cache answers
    vi.advanceTimersByTime(60_000);
    expect(practised).toHaveLength(400);
  });

  it('stops while a cell runs and after a cell ends, until two seconds after it', () => {
    const state = { busy: false, ready: true };
    const { warm, practised } = warmUp(state);
    vi.advanceTimersByTime(2_000);
    expect(practised).toHaveLength(5);
    state.busy = true;
    vi.advanceTimersByTime(1_000);
    expect(practised).toHaveLength(5);
    state.busy = false;
    warm.cellEnded();
    vi.advanceTimersByTime(1_999);
    expect(practised).toHaveLength(5);
    vi.advanceTimersByTime(1);
    expect(practised).toHaveLength(10);
    warm.stop();
    vi.advanceTimersByTime(10_000);
    expect(practised).toHaveLength(10);
  });
});

describe('a practice cell that fails', () => {
  it('ends the practice, and no error leaves it', () => {
    vi.useFakeTimers({ toFake: ['setTimeout', 'clearTimeout', 'Date'] });
    vi.spyOn(performance, 'now').mockImplementation(() => Date.now());
    let calls = 0;
    new JitWarmUp(() => false, () => true, () => {
      calls++;
      throw new Error('a bug in a compile path');
    });
    expect(() => vi.advanceTimersByTime(10_000)).not.toThrow();
    expect(calls).toBe(1);
  });
});

describe('the budget while practising', () => {
  /** The budgets set and the practice's mark, in order. */
  function recordBudgets(): string[] {
    const log: string[] = [];
    const setFlags = v8.setFlagsFromString;
    vi.spyOn(v8, 'setFlagsFromString').mockImplementation((flags) => (log.push(flags), setFlags(flags)));
    return log;
  }

  it("is the practice's, and the kernel's after it, also when practice throws", () => {
    runtimeLoaded(INTERRUPT_BUDGET); // as the runtime does when it loads
    const log = recordBudgets();
    withPracticeTiering(() => log.push('practice'));
    expect(() => withPracticeTiering(() => {
      throw new Error('boom');
    })).toThrow('boom');
    const practice = `--interrupt-budget=${PRACTICE_INTERRUPT_BUDGET}`, kernel = `--interrupt-budget=${KERNEL_INTERRUPT_BUDGET}`;
    expect(log).toEqual([practice, 'practice', kernel, practice, kernel]);
  });

  it('is left alone where the user chose a budget (the runtime then sets none)', () => {
    runtimeLoaded(null);
    const log = recordBudgets();
    withPracticeTiering(() => log.push('practice'));
    expect(log).toEqual(['practice']);
  });
});

describe('a practised language service', () => {
  const service = new LazyLanguageService(process.cwd(), () => false, false);
  afterAll(() => service.dispose());

  it('records no practice cell: a later cell does not see its names, and is checked and rewritten as before', () => {
    expect(service.diagnostics('const before: number = 1;')).toEqual([]);
    service.recordCell('const before: number = 1;');
    for (let i = 0; i < 14; i++) service.practise(practiceCell(i));
    const problems = service.diagnostics('w0 + before');
    expect(problems.map((p) => [p.code, p.message])).toEqual([[2304, "Cannot find name 'w0'."]]);
    expect(service.diagnostics('before + 1')).toEqual([]);
    expect(service.rewriteOperators('const z = tpu.ones([2]);\nz * before', magics)).toEqual({ code: 'const z = tpu.ones([2]);\nz.mul(before)', changed: true });
  });
});

describe('the practice cells', () => {
  const driver = builtSessions('tpu-practice-')();

  it('are cells a session type-checks and runs without a problem', async () => {
    await driver.run('%typecheck error');
    for (let i = 0; i < 7; i++) {
      const { outcome, publisher } = await driver.run(practiceCell(i));
      expect(outcome, practiceCell(i)).toMatchObject({ status: 'ok' });
      expect(publisher.text('stderr')).toBe('');
    }
    // the values are the cells' own: 7 * 2 + 1, f(9) = 9 ** 2 - 9 / 3, the even k below 10 summed, C(12).twice()
    expect(await driver.value(practiceCell(7))).toBe('15');
    expect(Number(await driver.value(practiceCell(9)))).toBeCloseTo(81 - 3, 10);
    expect(await driver.value(practiceCell(10))).toBe('20');
    expect(await driver.value(practiceCell(12))).toBe('24');
  });
});
