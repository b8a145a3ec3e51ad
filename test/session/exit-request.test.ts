// `exit` / `quit` alone in a cell ask the frontend to end the session ('ask_exit' payload,
// as IPython); `name?` and `exit` are complete for is_complete (jupyter console runs them).
import { afterAll, describe, expect, it } from 'vitest';
import { SessionDriver } from './recording-publisher.js';

const driver = new SessionDriver();
afterAll(() => driver.shutdown());

describe('exit and help requests', () => {
  it('answers exit, quit and exit() with ask_exit, and runs nothing', async () => {
    for (const code of ['exit', 'quit', ' exit() ', 'quit;']) {
      const { outcome, publisher } = await driver.run(code);
      expect(outcome).toEqual({ status: 'ok', payload: [{ source: 'ask_exit', keepkernel: false }] });
      expect(publisher.outputs).toEqual([]);
    }
  });

  it('leaves a cell\'s own exit binding alone', async () => {
    await driver.value('const exit = 3;');
    expect(await driver.value('exit')).toBe('3');
  });

  it('is_complete: name? and quit are complete, a bare open call is not', async () => {
    expect(await driver.session.isComplete('tpu.randn?')).toEqual({ status: 'complete' });
    expect(await driver.session.isComplete('%timeit?')).toEqual({ status: 'complete' });
    expect(await driver.session.isComplete('quit')).toEqual({ status: 'complete' });
    expect(await driver.session.isComplete('tpu.randn(')).toMatchObject({ status: 'incomplete' });
  });
});
