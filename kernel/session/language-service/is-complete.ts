// is_complete for TypeScript: parse the code; if every syntax error sits at
// its very end ("'}' expected", "Expression expected", unterminated template or
// comment), more lines can finish it: 'incomplete', with the indent for the
// next line. Any error before the end can never be fixed by appending: 'invalid'.
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
  const { diagnostics = [] } = ts.transpileModule(code, { reportDiagnostics: true, compilerOptions: { target: ts.ScriptTarget.ES2022 } });
  const errors = diagnostics.filter((d) => d.category === ts.DiagnosticCategory.Error);
  if (!errors.length) return { status: 'complete' };
  const atEnd = errors.every((d) => (d.start ?? 0) >= end && d.code !== UNTERMINATED_STRING);
  if (!atEnd) return { status: 'invalid' };
  const lastLine = code.slice(0, end).split('\n').at(-1) ?? '';
  const indent = /^[ \t]*/.exec(lastLine)![0];
  const opens = /(?:[{([]|=>)$/.test(lastLine.trimEnd());
  return { status: 'incomplete', indent: opens ? indent + INDENT_UNIT : indent };
}
