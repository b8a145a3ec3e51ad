// The IO worker's interrupt signalling against a RunningRequest driven by hand:
// when it raises SIGINT, when it repeats, when it stops, and which signals the
// main thread's listener takes (a fake `raise` records the signals).
import { afterEach, beforeEach, describe, expect, it, vi } from 'vitest';
import { interruptSignaller } from '../../kernel/io/interrupt-signal.js';
import { RunningRequest } from '../../kernel/io/running-request.js';

beforeEach(() => vi.useFakeTimers());
afterEach(() => vi.useRealTimers());

function setup() {
  const main = new RunningRequest();
  const worker = new RunningRequest(main.buffer); // the worker's view of the same memory
  const raised: number[] = [];
  const interrupt = interruptSignaller(worker, () => raised.push(Date.now()));
  return { main, raised, interrupt };
}

describe('interruptSignaller', () => {
  it('raises once, at once, when no request runs', () => {
    const { raised, interrupt } = setup();
    interrupt();
    vi.advanceTimersByTime(1000);
    expect(raised).toHaveLength(1);
  });

  it('repeats every 100 ms while the request runs and nothing took the signal, then stops when it ends', () => {
    const { main, raised, interrupt } = setup();
    main.begin();
    const start = Date.now();
    interrupt();
    vi.advanceTimersByTime(250);
    expect(raised.map((t) => t - start)).toEqual([0, 100, 200]);
    main.end();
    vi.advanceTimersByTime(500);
    expect(raised).toHaveLength(3);
  });

  it('stops repeating once the main thread listener took a signal', () => {
    const { main, raised, interrupt } = setup();
    main.begin();
    interrupt();
    expect(main.claimSignal()).toBe(true); // aimed at the running request
    vi.advanceTimersByTime(500);
    expect(raised).toHaveLength(1);
  });

  it('waits until a breakOnSigint run has lasted 30 ms before raising', () => {
    const { main, raised, interrupt } = setup();
    main.begin();
    main.enterRun();
    const start = Date.now();
    interrupt();
    vi.advanceTimersByTime(29);
    expect(raised).toEqual([]);
    vi.advanceTimersByTime(10);
    expect(raised.map((t) => t - start)).toEqual([30]);
    main.leaveRun();
  });

  it('gives up after 5 s of repeats', () => {
    const { main, raised, interrupt } = setup();
    main.begin();
    interrupt();
    vi.advanceTimersByTime(10_000);
    expect(raised).toHaveLength(51); // at 0, 100, ..., 5000 ms
  });
});

describe('RunningRequest.claimSignal', () => {
  it('takes signals from outside, and the worker signals aimed at the running request only', () => {
    const main = new RunningRequest();
    main.begin();
    expect(main.claimSignal()).toBe(true); // no aim: from outside
    main.aim(main.running());
    expect(main.claimSignal()).toBe(true);
    const earlier = main.running();
    main.end();
    main.begin();
    main.aim(earlier);
    expect(main.claimSignal()).toBe(false); // a repeat for an ended request
    expect(main.claimSignal()).toBe(true); // the aim is used up: the next one is from outside
  });
});
