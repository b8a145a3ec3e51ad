// The IO worker's interrupt against a RunningRequest driven by hand (fake effects record
// what it does): it tells the main thread, wakes device waits, raises SIGINT only at a run
// of cell code it has claimed, and terminates stuck cell code only when the main thread
// has not read the interrupt for a second.
import { afterEach, beforeEach, describe, expect, it, vi } from 'vitest';
import { Worker } from 'node:worker_threads';
import { interruptSignaller } from '../../kernel/io/interrupt-signal.js';
import { RunningRequest } from '../../kernel/io/running-request.js';

function setup() {
  const main = new RunningRequest();
  const worker = new RunningRequest(main.buffer); // the worker's view of the same memory
  const done = { told: [] as number[], woken: [] as number[], raised: [] as number[], terminated: [] as (() => boolean)[] };
  const interrupt = interruptSignaller(worker, {
    tell: (id) => done.told.push(id),
    wakeDeviceWaits: () => done.woken.push(Date.now()),
    raiseSigint: () => done.raised.push(Date.now()),
    terminateStuckCellCode: (unread) => done.terminated.push(unread),
  });
  return { main, done, interrupt };
}

describe('interruptSignaller', () => {
  beforeEach(() => vi.useFakeTimers());
  afterEach(() => vi.useRealTimers());

  it('does nothing when no request runs', () => {
    const { done, interrupt } = setup();
    interrupt();
    vi.advanceTimersByTime(6000);
    expect(done).toEqual({ told: [], woken: [], raised: [], terminated: [] });
  });

  it('tells the main thread and wakes device waits every 100 ms, without SIGINT, while the cell awaits; stops when it ends', () => {
    const { main, done, interrupt } = setup();
    main.begin();
    const id = main.running();
    const start = Date.now();
    interrupt();
    vi.advanceTimersByTime(250);
    main.interruptSeen(id);
    main.end();
    vi.advanceTimersByTime(2000);
    expect(done.told).toEqual([id]);
    expect(done.woken.map((t) => t - start)).toEqual([0, 100, 200]);
    expect(done.raised).toEqual([]);
    expect(done.terminated).toEqual([]);
  });

  it('raises SIGINT once, as soon as cell code runs inside a breakOnSigint run, and claims that run', () => {
    const { main, done, interrupt } = setup();
    main.begin();
    const start = Date.now();
    interrupt();
    vi.advanceTimersByTime(50);
    expect(done.raised).toEqual([]);
    let claimedInside = false;
    main.during(() => {
      vi.advanceTimersByTime(4); // the worker polls while the cell code runs
      claimedInside = done.raised.length === 1;
      main.after(); // as a terminated run: the watchdog ended it (the claim is not waited for here)
    });
    vi.advanceTimersByTime(1000);
    expect(claimedInside).toBe(true);
    expect(done.raised.map((t) => t - start)).toEqual([52]);
    expect(new RunningRequest(main.buffer).claimRun()).toBe(false); // outside a run: nothing to claim
  });

  it('terminates stuck cell code once when the main thread leaves the interrupt unread for 1 s', () => {
    const { main, done, interrupt } = setup();
    main.begin();
    main.during(() => undefined); // the cell's code started: its async part goes on in the background
    interrupt();
    vi.advanceTimersByTime(998);
    expect(done.terminated).toEqual([]);
    vi.advanceTimersByTime(1000);
    expect(done.terminated).toHaveLength(1);
    const unread = done.terminated[0]!;
    expect(unread()).toBe(true); // the last resort keeps trying while the interrupt stays unread
    main.interruptSeen(main.running());
    expect(unread()).toBe(false);
  });

  it('does not terminate while the cell has not started running (the kernel compiles it)', () => {
    const { main, done, interrupt } = setup();
    main.begin();
    interrupt();
    vi.advanceTimersByTime(3000);
    expect(done.terminated).toEqual([]);
  });

  it('does not terminate when the main thread read the interrupt (the cell is finishing)', () => {
    const { main, done, interrupt } = setup();
    main.begin();
    main.during(() => undefined);
    interrupt();
    main.interruptSeen(main.running());
    vi.advanceTimersByTime(3000);
    expect(done.terminated).toEqual([]);
  });

  it('gives up after 5 s', () => {
    const { main, done, interrupt } = setup();
    main.begin();
    interrupt();
    vi.advanceTimersByTime(10_000);
    expect(done.woken).toHaveLength(51); // at 0, 100, ..., 5000 ms
  });
});

describe('RunningRequest as a SIGINT gate', () => {
  it('a run of cell code claimed by another thread does not leave until the claim is settled', async () => {
    const main = new RunningRequest();
    // The other thread claims the run as soon as cell code runs, holds the claim 300 ms, then gives it back.
    const claimer = new Worker(
      `const { workerData } = require('node:worker_threads');
       const slots = new Int32Array(workerData);
       while (Atomics.compareExchange(slots, 1, 1, 2) !== 1) Atomics.wait(slots, 3, 0, 1);
       Atomics.wait(slots, 3, 0, 300);
       Atomics.compareExchange(slots, 1, 2, 1);`,
      { eval: true, workerData: main.buffer },
    );
    const slots = new Int32Array(main.buffer);
    let bodyEndedAt = 0;
    main.during(() => {
      while (Atomics.load(slots, 1) !== 2) Atomics.wait(slots, 3, 0, 1); // until the other thread has claimed
      bodyEndedAt = performance.now();
    });
    const leftAt = performance.now();
    await new Promise((resolve) => claimer.once('exit', resolve));
    expect(leftAt - bodyEndedAt).toBeGreaterThanOrEqual(200); // held inside the run by the claim
    expect(new RunningRequest(main.buffer).claimRun()).toBe(false); // and outside once it left
  });
});
