// TypeScript cell -> JavaScript the persistent context can run, with its
// positions back to the cell. Most cells only need their types erased: that is
// done on their text (splice-emit.ts); the others go through TypeScript's own
// emit, with the top-level rewrite (top-level-rewrite.ts) making declarations
// persistent, and its source map.
import type ts from 'typescript';
import { typescript } from '../typescript.js';
import { SourceMapPositions, type PiecePositions } from './cell-source-maps.js';
import { emitBySplicing } from './splice-emit.js';
import { topLevelRewriter, type TopLevelNames } from './top-level-rewrite.js';
import { parseCell, parsedCleanly, transpileWithoutProgram, type TranspileOutput } from './transpile-without-program.js';
import { recentParse, rememberParse } from './recent-parse.js';
import { withOperatorHints } from './syntax-hints.js';
import type { CellSyntaxError, CompileResult, CompiledCell } from './compiled-cell.js';

let options: ts.CompilerOptions | undefined;

/** One object for every cell (made once TypeScript is loaded): the emit without a program keeps what it learns from it. */
export const cellCompilerOptions = (): ts.CompilerOptions => (options ??= {
  target: typescript().ScriptTarget.ES2022,
  module: typescript().ModuleKind.ESNext,
  sourceMap: true,
  // Keep every value import: a name imported now may only be used by a later cell.
  verbatimModuleSyntax: true,
  useDefineForClassFields: true,
  // A cell is a module even without import/export, so `await (x)` at its top level is an
  // await, not a call of a function named `await` (as in a script).
  moduleDetection: typescript().ModuleDetectionKind.Force,
});


/** Re-run cells (and benchmarks) skip the transpiler: the output depends on the source text only. */
const recentCompiles = new Map<string, CompileResult>();
const RECENT_COMPILES = 256;

export function compileCell(source: string): CompileResult {
  const result = recentCompiles.get(source) ?? transpileCell(source);
  rememberCompile(source, result);
  return result;
}

/** Keeps a compile for the next compileCell of the same source (also one made on the transpile thread). */
export function rememberCompile(source: string, result: CompileResult): void {
  recentCompiles.delete(source);
  recentCompiles.set(source, result);
  if (recentCompiles.size > RECENT_COMPILES) recentCompiles.delete(recentCompiles.keys().next().value!);
}

export function transpileCell(source: string): CompileResult {
  // The type check's tree of the same text is parsed as the emit parses (a module of the same target).
  const parse = (text: string) => {
    const checked = recentParse(text, cellCompilerOptions().target);
    if (checked) return parsedCleanly(checked);
    const file = parseCell(text, cellCompilerOptions());
    if (file) rememberParse(file);
    return file;
  };
  try {
    return emitBySplicing(source, parse) ?? emitCell(source);
  } catch (error) {
    // TypeScript's parser recurses per nesting level: code nested thousands deep overflows its stack.
    if (!(error instanceof RangeError)) throw error;
    return { syntaxErrors: [{ message: `the cell is nested too deeply to compile (${error.message})`, line: 1, column: 1 }] };
  }
}

/** TypeScript's emit of the cell, the top-level rewrite among its transformers. */
export function emitCell(source: string): CompileResult {
  const ts = typescript();
  let names = newNames();
  const output: ts.TranspileOutput | TranspileOutput = transpileWithoutProgram(source, cellCompilerOptions(), cellTransformers(names))
    ?? ts.transpileModule(source, { compilerOptions: cellCompilerOptions(), fileName: 'cell.ts', reportDiagnostics: true, transformers: cellTransformers((names = newNames())) });
  const errors = ('diagnostics' in output ? output.diagnostics ?? [] : []).filter((d) => d.category === ts.DiagnosticCategory.Error);
  if (errors.length) return { syntaxErrors: withOperatorHints(source, errors.map((d) => syntaxErrorOf(d, source))) };
  return {
    javascript: output.outputText.replace(/\/\/# sourceMappingURL=.*\s*$/, ''),
    positions: new SourceMapPositions(output.sourceMapText ?? ''),
    declaredNames: [...names.declared],
    steppable: names.steppable ?? false,
  };
}

export const newNames = (): TopLevelNames => ({ declared: new Set(), resetOnVar: new Set() });

/** Enum and namespace names are collected before TypeScript lowers them; the top-level rewrite runs on the JavaScript. */
export function cellTransformers(names: TopLevelNames): ts.CustomTransformers {
  const ts = typescript();
  const collectEnumNames: ts.TransformerFactory<ts.SourceFile> = () => (file) => {
    for (const statement of file.statements) {
      if (!ts.isEnumDeclaration(statement) && !ts.isModuleDeclaration(statement)) continue;
      const declares = statement.modifiers?.some((m) => m.kind === ts.SyntaxKind.DeclareKeyword);
      if (ts.isIdentifier(statement.name) && !declares) {
        names.resetOnVar.add(statement.name.text);
      }
    }
    return file;
  };
  return { before: [collectEnumNames], after: [topLevelRewriter(names)] };
}

function syntaxErrorOf(diagnostic: ts.Diagnostic, source: string): CellSyntaxError {
  const ts = typescript();
  const message = ts.flattenDiagnosticMessageText(diagnostic.messageText, '\n');
  const before = source.slice(0, diagnostic.start ?? 0).split('\n');
  return { message, line: before.length, column: (before.at(-1)?.length ?? 0) + 1 };
}
