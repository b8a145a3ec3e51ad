// The protocol side of the kernel and the language side meet only in kernel/language-session.ts:
// outside kernel/session nothing imports the tensor runtime, and kernel/session itself
// reaches it through one door (session/tensor-runtime.ts), never its internals.
import { readdirSync, readFileSync } from 'node:fs';
import path from 'node:path';
import { describe, expect, it } from 'vitest';

function sources(dir: string): string[] {
  return readdirSync(dir, { withFileTypes: true }).flatMap((entry) => {
    const file = path.join(dir, entry.name);
    return entry.isDirectory() ? sources(file) : file.endsWith('.ts') ? [file] : [];
  });
}

/** Every module specifier a file imports (static, dynamic and type-only), resolved to a repo path. */
function imports(file: string): string[] {
  const text = readFileSync(file, 'utf8');
  const specifiers = [...text.matchAll(/(?:from\s+|import\(\s*)'(\.[^']+)'/g)].map((m) => m[1]);
  return specifiers.map((s) => path.posix.normalize(path.posix.join(path.posix.dirname(file.split(path.sep).join('/')), s)));
}

const files = sources('kernel');

describe('kernel imports', () => {
  it('the protocol side imports no runtime module and of kernel/session only its factory', () => {
    const crossings = files
      .filter((f) => !f.startsWith(path.join('kernel', 'session')))
      .flatMap((f) => imports(f).filter((i) => i.startsWith('runtime/') || (i.startsWith('kernel/session/') && i !== 'kernel/session/index.js')).map((i) => `${f} -> ${i}`));
    expect(crossings).toEqual([]);
  });

  it('kernel/session reaches the runtime only through tensor-runtime.ts', () => {
    const door = path.join('kernel', 'session', 'tensor-runtime.ts');
    const crossings = files
      .filter((f) => f.startsWith(path.join('kernel', 'session')) && f !== door)
      .flatMap((f) => imports(f).filter((i) => i.startsWith('runtime/')).map((i) => `${f} -> ${i}`));
    expect(crossings).toEqual([]);
    expect(new Set(imports(door).filter((i) => i.startsWith('runtime/')))).toEqual(new Set(['runtime/index.js']));
  });
});
