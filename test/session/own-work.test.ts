// The language service's work is the kernel's own (io/own-work.ts): the IO worker's shutdown grace
// waits for it instead of ending the process in the middle of it. A first build takes about a
// second, several at load: a shutdown sent during a complete request's build ended in SIGKILL.
import { mkdtempSync } from 'node:fs';
import { tmpdir } from 'node:os';
import path from 'node:path';
import { afterEach, expect, it, vi } from 'vitest';
import { ownWorkBuffer, ownWorkRunning } from '../../kernel/io/own-work.js';
import { CellChain } from '../../kernel/session/language-service/cell-chain.js';
import { CellLanguageService } from '../../kernel/session/language-service/language-service-host.js';
import { LazyLanguageService } from '../../kernel/session/language-service/lazy-language-service.js';

const noMagics = new Map();
afterEach(() => vi.restoreAllMocks());

/** Each call of `proto[method]` notes whether the own-work flag was up then. */
function flagAtCalls<T extends object>(proto: T, method: keyof T & string): boolean[] {
  const seen: boolean[] = [];
  const original = proto[method] as (...args: unknown[]) => unknown;
  vi.spyOn(proto, method as never).mockImplementation(function (this: unknown, ...args: unknown[]) {
    seen.push(ownWorkRunning(ownWorkBuffer));
    return original.apply(this, args);
  } as never);
  return seen;
}

it('flags complete, inspect, and the check and rewrite of a cell as the kernel\'s own work, and lowers the flag after', async () => {
  const service = new LazyLanguageService(mkdtempSync(path.join(tmpdir(), 'own-work-')), () => false);
  try {
    const loads = flagAtCalls(CellLanguageService.prototype, 'setCell');
    const checks = flagAtCalls(CellChain.prototype, 'check');
    expect((await service.complete('Mat', 3, noMagics)).matches).toContain('Math');
    expect((await service.inspect('Math', 4, 0, noMagics)).found).toBe(true);
    expect(service.rewriteOperators('const n: number = 1;', noMagics)).toEqual({ code: 'const n: number = 1;', changed: false });
    expect(service.diagnostics('const s: string = 1;').map((p) => p.code)).toEqual([2322]);
    expect(loads).toEqual([true, true]);
    expect(checks).toEqual([true, true]);
    expect(ownWorkRunning(ownWorkBuffer)).toBe(false);
  } finally {
    service.dispose();
  }
});
