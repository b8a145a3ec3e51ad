// Line magics: %lsmagic, %time, %timeit, %typecheck, unknown magics.
import { afterAll, describe, expect, it } from 'vitest';
import { SessionDriver } from './recording-publisher.js';

const driver = new SessionDriver();
afterAll(() => driver.shutdown());

describe('magics', () => {
  it('%lsmagic lists every magic with its summary', async () => {
    const { publisher } = await driver.run('%lsmagic');
    const lines = publisher.text('stdout').split('\n');
    expect(lines[0]).toBe('Available line magics:');
    expect(lines.slice(1, -1).map((l) => l.trim().split(/\s+/)[0])).toEqual(
      ['%device', '%lsmagic', '%memory', '%mode', '%profile', '%program', '%reset', '%time', '%timeit', '%typecheck']);
  });

  it('%time runs code on its line, prints the wall time and gives the value', async () => {
    const { outcome, publisher } = await driver.run('%time await new Promise((r) => setTimeout(() => r(5), 30))');
    expect(outcome).toEqual({ status: 'ok', result: { data: { 'text/plain': '5' } } });
    const ms = Number(/^Wall time: ([\d.]+) ms\n$/.exec(publisher.text('stdout'))?.[1]);
    expect(ms).toBeGreaterThanOrEqual(29);
  });

  it('%time alone times the rest of the cell; its declarations persist and errors keep cell lines', async () => {
    const { outcome, publisher } = await driver.run('const before = 1;\n%time\nconst timed = before + 1;\ntimed * 10');
    expect(outcome).toEqual({ status: 'ok', result: { data: { 'text/plain': '20' } } });
    expect(publisher.text('stdout')).toMatch(/^Wall time: /);
    expect(await driver.value('timed')).toBe('2');
    const failed = await driver.run('%time\n\n  null!.x');
    expect(failed.outcome.status === 'error' && failed.outcome.traceback[1]).toBe(`    at cell-${driver.count}.ts:3:9`);
  });

  it('%timeit compiles once and runs the requested loops and runs', async () => {
    await driver.value('let calls = 0;');
    const { outcome, publisher } = await driver.run('%timeit -n 3 -r 2 calls++');
    expect(outcome).toEqual({ status: 'ok' });
    expect(await driver.value('calls')).toBe('6');
    expect(publisher.text('stdout')).toMatch(/^[\d.]+ (µs|ms) ± [\d.]+ (µs|ms) per loop \(mean ± std\. dev\. of 2 runs, 3 loops each\)\n$/);
  });

  it('%timeit picks the loop count so a run takes at least 50 ms', async () => {
    await driver.value('let slow = 0;');
    const { publisher } = await driver.run('%timeit -r 1\nslow++;\nawait new Promise((r) => setTimeout(r, 20));');
    const loops = Number(/of 1 run, (\d+) loops? each/.exec(publisher.text('stdout'))?.[1]);
    // Each loop sleeps 20 ms: calibration tries 1, 2, 5 loops and stops at the first run >= 50 ms
    // (5 loops at the latest; fewer only when the machine is slow), then times one run of that many.
    expect([1, 2, 5]).toContain(loops);
    const calibration = [1, 2, 5].filter((n) => n <= loops).reduce((a, b) => a + b, 0);
    expect(await driver.value('slow')).toBe(String(calibration + loops));
  });

  it('rejects bad magic usage with a clear error', async () => {
    const unknown = await driver.run('%nosuchmagic 1');
    expect(unknown.outcome).toMatchObject({ status: 'error', ename: 'UsageError' });
    if (unknown.outcome.status === 'error') expect(unknown.outcome.evalue).toMatch(/^unknown magic %nosuchmagic \(line 1\); %lsmagic lists them: %lsmagic, %time/);
    const badMode = await driver.run('%typecheck loud');
    expect(badMode.outcome).toMatchObject({ status: 'error', evalue: "%typecheck: mode must be one of off, warn, error, got 'loud'" });
    const badLoops = await driver.run('%timeit -n zero 1');
    expect(badLoops.outcome).toMatchObject({ status: 'error', evalue: "%timeit: -n must be a positive integer, got 'zero'" });
  });

  it('%typecheck reports the mode and switches it', async () => {
    expect((await driver.run('%typecheck')).publisher.text('stdout')).toBe('typecheck: warn\n');
    await driver.run('%typecheck off');
    expect((await driver.run('%typecheck')).publisher.text('stdout')).toBe('typecheck: off\n');
  });

  it('runs magic lines in order with the code around them', async () => {
    const { publisher } = await driver.run('console.log("a");\n%typecheck\nconsole.log("b");');
    expect(publisher.text('stdout')).toBe('a\ntypecheck: off\nb\n');
  });
});
