// interrupt(): an awaiting cell settles promptly as interrupted, its timers
// and the runtime's pending work are cancelled, a synchronous loop is stopped
// by SIGINT (vm breakOnSigint), and every definition stays.
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import type { ExecuteOutcome } from '../../kernel/language-session.js';
import type { Tpu } from '../../runtime/index.js';
import { TypeScriptSession } from '../../kernel/session/typescript-session.js';
import { RecordingPublisher, SessionDriver } from './recording-publisher.js';

const driver = new SessionDriver();
const ignoreSigint = () => {};
beforeAll(async () => {
  process.on('SIGINT', ignoreSigint);
  await driver.value('"runtime loaded"'); // the first cell also waits for the runtime import
});
afterAll(async () => {
  process.off('SIGINT', ignoreSigint);
  await driver.shutdown();
});

const interrupted = { status: 'error', interrupted: true, ename: 'InterruptedError', evalue: 'the cell was interrupted' };

/** Interrupts once the cell has printed 'started' (so it is surely awaiting), after `ms` more. */
async function interruptWhenStarted(running: { outcome: Promise<ExecuteOutcome>; publisher: RecordingPublisher }, ms = 20, session = driver.session) {
  while (!running.publisher.text('stdout').includes('started')) await new Promise((r) => setTimeout(r, 5));
  await new Promise((r) => setTimeout(r, ms));
  const start = performance.now();
  session.interrupt();
  const outcome = await running.outcome;
  return { outcome, settleMs: performance.now() - start };
}

describe('interrupt', () => {
  it('settles a cell awaiting a never-settling promise and keeps its earlier definitions', async () => {
    const running = driver.start('const beforeWait = "kept";\nconsole.log("started");\nawait new Promise(() => {});\nconst afterWait = 1;');
    const { outcome, settleMs } = await interruptWhenStarted(running);
    expect(outcome).toMatchObject(interrupted);
    expect(settleMs).toBeLessThan(2000); // settles at all: the awaited promise never does
    expect(await driver.value('beforeWait + " " + typeof afterWait')).toBe("'kept undefined'");
  });

  it('cancels the timers of the interrupted cell only', async () => {
    await driver.value('let ticks = 0;\nconst ticker = setInterval(() => ticks++, 5);');
    const running = driver.start('let fired = false;\nsetTimeout(() => { fired = true; }, 1000);\nconsole.log("started");\nawait new Promise((r) => setTimeout(r, 10_000));');
    await interruptWhenStarted(running);
    const ticksAtInterrupt = Number(await driver.value('ticks'));
    await new Promise((r) => setTimeout(r, 1100));
    expect(await driver.value('fired')).toBe('false');
    expect(Number(await driver.value('clearInterval(ticker); ticks'))).toBeGreaterThan(ticksAtInterrupt);
  });

  it('settles a cell waiting for input', async () => {
    const running = driver.start('console.log("started");\nawait input("never answered")');
    const { outcome } = await interruptWhenStarted(running);
    expect(outcome).toMatchObject(interrupted);
  });

  it('stops a synchronous infinite loop on SIGINT and keeps state', async () => {
    await driver.value('let spins = 0;');
    // In the kernel the IO worker sends the SIGINT; here the cell signals itself just before it spins.
    const { outcome } = await driver.run('process.kill(process.pid, "SIGINT");\nwhile (true) { spins++; }');
    expect(outcome).toMatchObject(interrupted);
    expect(Number(await driver.value('spins'))).toBeGreaterThan(0);
  });

  it('stops a synchronous loop that starts after a top-level await', async () => {
    await driver.value('let laterSpins = 0;');
    const { outcome } = await driver.run('await new Promise((r) => setTimeout(r, 10));\nprocess.kill(process.pid, "SIGINT");\nwhile (true) { laterSpins++; }');
    expect(outcome).toMatchObject(interrupted);
    expect(Number(await driver.value('laterSpins'))).toBeGreaterThan(0);
  });

  it('takes no further step of an interrupted cell when what it awaited settles later', async () => {
    await driver.value('let release: () => void = () => {};\nconst gate = new Promise<void>((r) => { release = r; });\nlet continued = false;');
    const running = driver.start('console.log("started");\nawait gate;\ncontinued = true;');
    await interruptWhenStarted(running);
    expect(await driver.value('release(); await null; await null; continued')).toBe('false');
  });

  it('does not let an interrupt while idle reach the next cell', async () => {
    driver.session.interrupt();
    expect(await driver.value('await new Promise((r) => setTimeout(() => r(3), 10))')).toBe('3');
  });

  it('cancels the timers of every cell on shutdown', async () => {
    const other = new SessionDriver(driver.cwd);
    await other.value('let beats = 0;\nsetInterval(() => beats++, 5);');
    await other.value('await new Promise((r) => setTimeout(r, 30))');
    await other.shutdown();
    const beatsAtShutdown = Number(await other.value('beats'));
    await new Promise((r) => setTimeout(r, 50));
    expect(beatsAtShutdown).toBeGreaterThan(0);
    expect(await other.value('beats')).toBe(String(beatsAtShutdown));
  });

  it('calls the runtime cancel hook, and resets the TPU session on restart', async () => {
    let cancels = 0;
    let resets = 0;
    let release: (() => void) | undefined;
    const runtime = {
      reset: async () => { resets++; },
      cancelPending: () => { cancels++; release?.(); },
      sync: () => new Promise<void>((resolve) => { release = resolve; }),
    };
    const session = new TypeScriptSession({ cwd: driver.cwd, comms: { registerTarget() {}, open() { throw new Error('none'); } } }, async () => runtime as unknown as Tpu);
    try {
      const publisher = new RecordingPublisher();
      const outcome0 = session.execute('console.log("started");\nawait tpu.sync()', { executionCount: 1, silent: false, storeHistory: true, allowStdin: false, publisher });
      const { outcome } = await interruptWhenStarted({ outcome: outcome0, publisher }, 20, session);
      expect(outcome).toMatchObject(interrupted);
      expect(cancels).toBe(1);
    } finally {
      await session.shutdown(true);
    }
    expect(resets).toBe(1); // a restart starts a fresh TPU session
  });
});
