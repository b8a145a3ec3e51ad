// The `progress` cell global: a tqdm-style bar shown as HTML and updated in place by
// display id (text/plain: the tqdm line), or as \r lines on stderr.
import { afterAll, describe, expect, it } from 'vitest';
import { progressLine } from '../../kernel/session/progress/progress-text.js';
import { SessionDriver, type Recorded } from './recording-publisher.js';

const driver = new SessionDriver();
afterAll(() => driver.shutdown());

const bundles = (outputs: Recorded[]) => outputs.flatMap((o) => (o.kind === 'display' || o.kind === 'update' ? [o.data] : []));
const finalText = (outputs: Recorded[]) => bundles(outputs).at(-1)!['text/plain'] as string;

async function ok(code: string) {
  const { outcome, publisher } = await driver.run(code);
  if (outcome.status !== 'ok') throw new Error(`${outcome.ename}: ${outcome.evalue}\n${outcome.traceback.join('\n')}`);
  return publisher;
}

describe('progress', () => {
  it('formats the line as tqdm does', () => {
    // 42 of 100 in 3 s: 14 it/s, 58 left at 3/42 s each = 4.14 s; 42% of 20 cells = 8 full and 3/8.
    expect(progressLine({ label: 'epoch', count: 42, total: 100, elapsedMs: 3000, postfix: { loss: 0.312345 } }))
      .toBe('epoch  42%|████████▍           | 42/100 [00:03<00:04, 14.00 it/s, loss=0.3123]');
    expect(progressLine({ label: '', count: 3, total: undefined, elapsedMs: 6000, postfix: {} })).toBe('3 [00:06, 2.00 s/it]');
    expect(progressLine({ label: '', count: 0, total: 5, elapsedMs: 0, postfix: {} })).toBe('  0%|                    | 0/5 [00:00<?, ? it/s]');
  });

  it('wraps an array: one display, updated in place, ending at 3/3 in HTML and text', async () => {
    const publisher = await ok('const seen: number[] = [];\nfor (const v of progress([10, 20, 30], { label: "load" })) seen.push(v);\nseen');
    const outputs = publisher.outputs;
    expect(outputs[0]).toMatchObject({ kind: 'display', data: { 'text/plain': expect.stringMatching(/^load {3}0%\|/) } });
    const id = (outputs[0] as { displayId: string }).displayId;
    expect(outputs.slice(1).every((o) => o.kind === 'update' && o.displayId === id)).toBe(true);
    expect(finalText(outputs)).toMatch(/^load 100%\|████████████████████\| 3\/3 \[00:00<00:00, [\d.]+ it\/s\]$/);
    const html = bundles(outputs).at(-1)!['text/html'] as string;
    expect(html).toContain('<progress value="3" max="3"');
    expect(html).toContain('white-space:nowrap');
  });

  it('redraws at most every 100 ms in a long loop, and a break ends the bar at the steps done', async () => {
    const publisher = await ok('let n = 0;\nfor (const i of progress(200000)) { n += i; }\nn');
    expect(bundles(publisher.outputs).length).toBeLessThan(30);
    expect(finalText(publisher.outputs)).toMatch(/ 200000\/200000 /);
    const broken = await ok('for (const i of progress(10)) { if (i === 5) break; }');
    expect(finalText(broken.outputs)).toMatch(/^ 50%\|.* 5\/10 \[/);
  });

  it('manual bar with postfix, an async iterable, an unknown total, and the stream output', async () => {
    const manual = await ok('const bar = progress({ total: 4, label: "files" });\nbar.update();\nbar.update(3);\nbar.postfix({ loss: 0.5 });\nbar.close();');
    expect(finalText(manual.outputs)).toMatch(/^files 100%\|.*\| 4\/4 \[.*, loss=0.5\]$/);
    const asyncBar = await ok('async function* gen() { yield 1; yield 2; }\nlet s = 0;\nfor await (const v of progress(gen())) s += v;\ns');
    expect(finalText(asyncBar.outputs)).toMatch(/^2 \[00:00, [\d.]+ it\/s\]$/);
    const stream = await ok('for (const i of progress(3, { output: "stream" })) {}');
    expect(bundles(stream.outputs)).toEqual([]);
    const text = stream.text('stderr');
    expect(text.startsWith('\r  0%|')).toBe(true);
    expect(text).toMatch(/\r100%\|████████████████████\| 3\/3 \[[^\]]+\]\n$/);
  });

  it('names what is wrong', async () => {
    expect((await driver.run('progress([1], { totl: 3 })')).outcome).toMatchObject({ status: 'error', evalue: "progress: unknown option 'totl' (options: total, label, output)" });
    expect((await driver.run('progress(2.5)')).outcome).toMatchObject({ status: 'error', evalue: 'progress(n): n must be a non-negative integer, got 2.5' });
    expect((await driver.run('for (const x of progress({ total: 3 })) {}')).outcome).toMatchObject({ status: 'error', evalue: 'progress: a manual bar (progress({ total })) is not iterable: call bar.update(n)' });
  });
});
