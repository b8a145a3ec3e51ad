// A promise the cell rejects and nobody awaits is reported on that cell's stderr
// before the cell ends: frontends (JupyterLab, nbclient) drop outputs that come
// after the cell's reply and idle status, so a later report is never seen.
import { afterAll, describe, expect, it } from 'vitest';
import { SessionDriver } from './recording-publisher.js';

const driver = new SessionDriver();
afterAll(() => driver.shutdown());

describe('unhandled rejections of a cell', () => {
  it('reaches the stderr of a cell that never awaits, before its outcome', async () => {
    const { outcome, publisher } = await driver.run('Promise.reject(new Error("nobody awaits")); 3');
    expect(outcome.status).toBe('ok');
    expect(outcome.status === 'ok' && outcome.result?.data['text/plain']).toBe('3');
    expect(publisher.text('stderr')).toMatch(/^Error: nobody awaits\n    at cell-1\.ts:1:16/);
  });

  it('reaches the stderr of a cell whose rejection comes after its last await', async () => {
    const { publisher } = await driver.run('await null;\nPromise.reject(new Error("after await")); 4');
    expect(publisher.text('stderr')).toMatch(/^Error: after await\n    at cell-2\.ts:2:16/);
  });
});
