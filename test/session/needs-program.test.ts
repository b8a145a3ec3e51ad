// Which cells wait for the language service's program before they run (the session sends
// only those to the transpile thread; the others compile on the main thread at once).
import { mkdtempSync } from 'node:fs';
import { tmpdir } from 'node:os';
import path from 'node:path';
import { afterAll, describe, expect, it } from 'vitest';
import { magics } from '../../kernel/session/magics/index.js';
import { LazyLanguageService } from '../../kernel/session/language-service/lazy-language-service.js';

const service = new LazyLanguageService(mkdtempSync(path.join(tmpdir(), 'needs-program-')), () => false);
afterAll(() => service.dispose());

describe('needsProgram', () => {
  it('before the service is built: only for operators that may meet a tensor', () => {
    expect(service.needsProgram('const a = 2;\na * 3', magics, true, false)).toBe(false);
    expect(service.needsProgram('const a = tpu.ones([2]);\na * 3', magics, true, true)).toBe(true);
    expect(service.needsProgram('const a = tpu.ones([2]);\na', magics, true, true)).toBe(false);
  });

  it('once built: every checked cell; an unchecked cell only when it has operator syntax', () => {
    service.diagnostics(''); // builds the service
    expect(service.needsProgram('const a = 2;\na', magics, true, true)).toBe(true);
    expect(service.needsProgram('const a = 2;\na', magics, false, true)).toBe(false);
    expect(service.needsProgram('console.log(String(2))', magics, false, true)).toBe(false);
    for (const cell of ['a * 3', 'a[0]', '-a', 'a += 1', 'a == b']) expect(service.needsProgram(cell, magics, false), cell).toBe(true);
    // a magic's name is masked, the code it runs (its arguments, the lines after it) is not
    expect(service.needsProgram('%time\nconst b = 1;', magics, false, true)).toBe(false);
    expect(service.needsProgram('%time\nconst b = 1 + 1;', magics, false, true)).toBe(true);
    expect(service.needsProgram('%time const b = 1 + 1;', magics, false, true)).toBe(true);
  });
});
