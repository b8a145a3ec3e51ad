// The service's snapshots tell the parser what changed: the incremental re-parse they allow must
// give the tree a full parse of the new text gives.
import ts from 'typescript';
import { describe, expect, it } from 'vitest';
import { TextSnapshot } from '../../kernel/session/language-service/text-snapshot.js';

/** Each node's kind and span, in order: two trees with the same list are the same parse. */
function shape(file: ts.SourceFile): string[] {
  const out: string[] = [];
  const visit = (node: ts.Node): void => {
    out.push(`${ts.SyntaxKind[node.kind]}@${node.pos}-${node.end}`);
    ts.forEachChild(node, visit);
  };
  visit(file);
  return out;
}

describe('service snapshots', () => {
  const history = 'const a: number = 1;\nfunction f(x: number) { return x * a; }';
  const cases: [string, string, ts.TextChangeRange][] = [
    ['an appended cell', `${history}\nconst b = f(2);`, { span: { start: history.length, length: 0 }, newLength: 16 }],
    ['an edit in the middle', history.replace('x * a', 'x + a + 1'), { span: { start: 54, length: 3 }, newLength: 7 }],
    ['a shorter text', 'const a = 2;', { span: { start: 7, length: 53 }, newLength: 5 }],
  ];
  for (const [name, next, expected] of cases) {
    it(`give the changed span for ${name}, and the incremental parse equals a full parse`, () => {
      const before = new TextSnapshot(history), after = new TextSnapshot(next);
      const range = after.getChangeRange(before)!;
      expect(range).toEqual(expected);
      expect(history.slice(0, range.span.start) + next.slice(range.span.start, range.span.start + range.newLength) + history.slice(range.span.start + range.span.length)).toBe(next);
      const old = ts.createSourceFile('h.ts', history, ts.ScriptTarget.ES2022, true);
      const updated = ts.updateSourceFile(old, next, range);
      expect(shape(updated)).toEqual(shape(ts.createSourceFile('h.ts', next, ts.ScriptTarget.ES2022, true)));
    });
  }

  it('give no range against a snapshot of another kind (the service parses all again)', () => {
    expect(new TextSnapshot('x').getChangeRange(ts.ScriptSnapshot.fromString('y'))).toBeUndefined();
  });
});
