// is_complete for TypeScript: parse the code; if every syntax error sits at
// its very end ("'}' expected", "Expression expected", unterminated template or
// comment), more lines can finish it: 'incomplete', with the indent for the
// next line. Any error before the end can never be fixed by appending: 'invalid'.
// A parse only: no program, no checker (see syntaxErrors).
import type ts from 'typescript';
import { typescript } from '../typescript.js';
import type { IsCompleteResult } from '../../language-session.js';
import { exitRequest } from '../exit-request.js';
import { helpRequest } from './help-request.js';

const UNTERMINATED_STRING = 1002; // a '...' or "..." string cannot continue on the next line
const INDENT_UNIT = '  ';

export function isComplete(code: string): IsCompleteResult {
  const ts = typescript();
  const end = code.trimEnd().length;
  if (end === 0) return { status: 'complete' };
  // `name?` and `exit` are whole requests (a terminal would otherwise wait for more lines).
  if (helpRequest(code) || exitRequest(code, () => false)) return { status: 'complete' };
  const errors = syntaxErrors(code).filter((d) => d.category === ts.DiagnosticCategory.Error);
  if (!errors.length) return { status: 'complete' };
  const atEnd = errors.every((d) => (d.start ?? 0) >= end && d.code !== UNTERMINATED_STRING);
  if (!atEnd) return { status: 'invalid' };
  const lastLine = code.slice(0, end).split('\n').at(-1) ?? '';
  const indent = /^[ \t]*/.exec(lastLine)![0];
  const opens = /(?:[{([]|=>)$/.test(lastLine.trimEnd());
  return { status: 'incomplete', indent: opens ? indent + INDENT_UNIT : indent };
}

/**
 * The parser's errors: what transpileModule reports for a .ts file (its syntactic diagnostics
 * are the SourceFile's parseDiagnostics), without the program and checker it makes per call.
 * parseDiagnostics is internal: a TypeScript without it gets transpileModule's answer.
 */
function syntaxErrors(code: string): readonly ts.Diagnostic[] {
  const ts = typescript();
  const file = ts.createSourceFile('cell.ts', code, ts.ScriptTarget.ES2022, false, ts.ScriptKind.TS);
  const parsed = (file as unknown as { parseDiagnostics?: readonly ts.Diagnostic[] }).parseDiagnostics;
  return parsed ?? ts.transpileModule(code, { reportDiagnostics: true, compilerOptions: { target: ts.ScriptTarget.ES2022 } }).diagnostics ?? [];
}
