// Shift+Tab shows a doc comment and an example for the public API: the members of `tpu`
// (walked at run time) and Tensor's methods, checked against the built declarations a cell
// sees (dist/runtime).
import { afterAll, describe, expect, it } from 'vitest';
import { publicApi } from './public-api-docs.js';
import { SessionDriver } from './recording-publisher.js';

const driver = new SessionDriver();
afterAll(() => driver.shutdown());

describe('inspect: doc comments and examples', () => {
  it.each([
    ['tpu.randn(', 'Standard normal', 'tpu.randn([2, 3])'],
    ['tpu.compile(', 'torch.compile', 'tpu.compile('],
    ['const x = tpu.ones([2]); x.sum(', 'Sum of elements', 'x.sum('],
    ['tpu.nn.Linear', 'torch.nn.Linear', 'new tpu.nn.Linear('],
    ['tpu.optim.AdamW', 'torch.optim.AdamW', 'new tpu.optim.AdamW('],
  ])('%s shows its doc and an example', async (code, doc, example) => {
    await driver.run('1');
    const text = await driver.inspectText(code);
    expect(text).toContain(doc);
    expect(text).toMatch(new RegExp(`@example [^]*${example.replace(/[.()[\]]/g, '\\$&')}`));
  });
});

const api = publicApi();

describe('doc coverage of the tpu namespace and Tensor', () => {
  it('every member of tpu has a doc comment in the emitted declarations', () => {
    const undocumented = api.filter((m) => m.name.startsWith('tpu.') && (!m.declared || m.doc === '')).map((m) => m.name);
    expect(undocumented).toEqual([]);
  });

  it('every public function of tpu and every public Tensor method is declared with an @example', () => {
    // The examples themselves run in doc-examples.test.ts.
    const withoutExample = api.filter((m) => m.isFunction && (!m.declared || m.examples.length === 0)).map((m) => m.name);
    expect(withoutExample).toEqual([]);
  });
});
