// Tensor operators work from the first cells on, whatever the pace of the cells: the cells run
// before the language service is built (500 ms of quiet after a cell) dispatch their operators
// at run time, with no build on their path (under `jupyter nbconvert --execute` the cells come
// back to back). With `%typecheck error` the cell is rewritten from types before its check
// (unrewritten: "Operator '+' cannot be applied to types Tensor and Tensor").
// The sessions hold the background warm-up back (backgroundWarmUp: false): a loaded machine can
// leave 500 ms between two cells, and a build in that quiet spell is not one on a cell's path, so
// a service found built here was built by a cell.
import { describe, expect, it } from 'vitest';
import { writeFileSync } from 'node:fs';
import path from 'node:path';
import { pathToFileURL } from 'node:url';
import type { SessionDriver } from './recording-publisher.js';
import { builtSessions } from './built-sessions.js';

const fresh = builtSessions('tpu-first-operators-', { backgroundWarmUp: false });
const serviceBuilt = (driver: SessionDriver) => (driver.session as unknown as { languageService: { ready: boolean } }).languageService.ready;

describe('tensor operators in the first cells of a session', () => {
  it('rewrites them in the cells right after the start (no quiet time for the warm-up)', async () => {
    const driver = fresh();
    expect(await driver.value('1 + 1')).toBe('2');
    expect(serviceBuilt(driver)).toBe(false); // a first cell without tensors stays off the service
    await driver.value('const a = tpu.tensor([1, 2, 3])');
    expect(await driver.value('a + 1')).toContain('tensor([2., 3., 4.]');
    expect(await driver.value('const b = a * 2; b - a')).toContain('tensor([1., 2., 3.]');
    expect(await driver.value('(a ** 2).sum()')).toContain('tensor(14.');
    expect(serviceBuilt(driver)).toBe(false); // dispatched: no build on the cells' path
  });

  // a helper module over the runtime (the built one, as the session's): no cell names `tpu`
  it.each(['', '%typecheck off\n'])('rewrites them on tensors a module made, in cells that never name tpu (%s)', async (magic) => {
    const driver = fresh();
    const runtime = pathToFileURL(path.resolve('dist/runtime/index.js')).href;
    writeFileSync(path.join(driver.cwd, 'make.ts'), `import { tpu } from ${JSON.stringify(runtime)};\nexport const make = () => tpu.tensor([[1, 2], [3, 4]]);\n`);
    await driver.value(`${magic}import { make } from './make.ts';`);
    await driver.value('const m = make();');
    expect(await driver.value('m[1]')).toContain('tensor([3., 4.]');
    expect(await driver.value('m * 2')).toMatch(/tensor\(\[\[2\., 4\.\],\s+\[6\., 8\.\]\]/);
    expect(await driver.value('(1 - m).sum().item()')).toBe('-6');
    expect(serviceBuilt(driver)).toBe(false);
  });

  it('rewrites them before the check under %typecheck error', async () => {
    const driver = fresh();
    await driver.value('%typecheck error');
    expect(await driver.value('const t = tpu.ones([2]); t + t')).toContain('tensor([2., 2.]');
  });
});
