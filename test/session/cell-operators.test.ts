// Which rewrite a cell's operators get: from types where the cell is type-checked, dispatched
// at run time elsewhere, and none where no tensor can exist yet. The dispatched path must not
// build the language service (about a second) on the cell's path.
import { mkdtempSync } from 'node:fs';
import { tmpdir } from 'node:os';
import path from 'node:path';
import { afterAll, describe, expect, it } from 'vitest';
import { magics } from '../../kernel/session/magics/index.js';
import { LazyLanguageService } from '../../kernel/session/language-service/lazy-language-service.js';
import { CellOperators } from '../../kernel/session/operators/cell-operators.js';

const service = new LazyLanguageService(mkdtempSync(path.join(tmpdir(), 'cell-operators-')), () => false);
const operators = new CellOperators(service, magics);
afterAll(() => service.dispose());

const code = async (...args: Parameters<CellOperators['rewrite']>) => {
  const result = await operators.rewrite(...args);
  return result && ('error' in result ? result.error.message : result.code);
};

describe('the rewrite a cell gets', () => {
  it('before the service is built: none while no tensor can exist, else dispatched, and the service stays unbuilt', async () => {
    expect(await code('const a = 2;\na * 3', 'warn', false)).toBeUndefined();
    expect(await code('const a = tpu.ones([2]);\na * 3', 'warn', true)).toBe('const a = tpu.ones([2]);\n__tpuOps.mul(a, 3)');
    // a magic's name is masked, the code it runs (its arguments, the lines after it) is not
    expect(await code('%time\nconst b = a * 3;', 'off', true)).toBe('%time\nconst b = __tpuOps.mul(a, 3);');
    expect(await code('%time a[0]', 'off', true)).toBe('%time __tpuOps.at(a, 0)');
    expect(service.ready).toBe(false);
  });

  it('once built: typed where the cell is checked (warn, error), dispatched under %typecheck off', async () => {
    service.recordCell('const a = tpu.ones([2]);');
    expect(await code('a * 3', 'error', true)).toBe('a.mul(3)'); // %typecheck error builds the service
    expect(service.ready).toBe(true);
    expect(await code('a * 3', 'warn', true)).toBe('a.mul(3)');
    expect(await code('const k = 2;\nk * 3', 'warn', true)).toBe('const k = 2;\nk * 3');
    expect(await code('a * 3', 'off', true)).toBe('__tpuOps.mul(a, 3)');
  });
});
