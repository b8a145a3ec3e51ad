// The syntax tree last made of a cell's text. A cell is parsed in turn by the type check's chain
// (cell-chain.ts), the operator dispatch (dispatch-rewrite.ts), the emit and the cell history
// (cell-history.ts): where the text is the same, the later ones take the tree the earlier made.
// One tree is kept, the last cell's.
import type ts from 'typescript';

let last: ts.SourceFile | undefined;

/** Remembers `file` as the tree of its text. */
export function rememberParse(file: ts.SourceFile): void {
  last = file;
}

/** The tree last made of `text` (with `languageVersion`, when the caller parses with one), if any. */
export function recentParse(text: string, languageVersion?: ts.ScriptTarget): ts.SourceFile | undefined {
  if (last?.text !== text) return undefined;
  return languageVersion === undefined || last.languageVersion === languageVersion ? last : undefined;
}
