// PyTorch's `a @ b` is no JavaScript operator, and TypeScript's parse error there ("Unexpected
// keyword or identifier.", "',' expected.") does not say so: the cell's first syntax error names
// the method when its line holds an `@` between two operands (outside a string).
import type { CellSyntaxError } from './compiled-cell.js';

const MATMUL = /[\w$)\]]\s*@\s*[\w$([]/g;

export function withOperatorHints(source: string, errors: CellSyntaxError[]): CellSyntaxError[] {
  const [first, ...rest] = errors;
  if (!first || !hasMatmul(source.split('\n')[first.line - 1] ?? '')) return errors;
  return [{ ...first, message: `${first.message} JavaScript has no @ operator: a.matmul(b) multiplies matrices.` }, ...rest];
}

/** An `@` between operands, with no quote open before it on the line (`'a@b.c'` is a string). */
function hasMatmul(line: string): boolean {
  for (const match of line.matchAll(MATMUL)) {
    const before = line.slice(0, match.index);
    if (['"', "'", '`'].every((quote) => before.split(quote).length % 2 === 1)) return true;
  }
  return false;
}
