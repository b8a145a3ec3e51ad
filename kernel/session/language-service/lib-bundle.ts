// TypeScript's lib files (lib.es5.d.ts ... lib.es2023.*.d.ts: about 60) as ONE declaration
// file for the language service. Every executed cell makes a new program and type checker,
// and a new checker merges the global declarations of every script file into one table:
// interfaces spread over many lib files (Array, Promise, String, ...) are merged symbol by
// symbol, again for each cell. In one file the binder merges them once, when the file is
// bound, and the program has 60 fewer files to walk. Same declarations, same order as the
// program TypeScript would make, so types and overload order are unchanged.
import path from 'node:path';
import type ts from 'typescript';
import { typescript } from '../typescript.js';

export interface LibBundle {
  fileName: string;
  text: string;
  /** The lib files in the bundle, with the offset where each starts. */
  parts: { file: string; start: number }[];
}

/** A reference directive line: `/// <reference lib="es2020" />`, `/// <reference no-default-lib="true"/>`, ... */
const REFERENCE_LINE = /^\s*\/\/\/\s*<reference\s[^\n]*$/gm;
const LIB_REFERENCE_LINE = /^\s*\/\/\/\s*<reference\s+lib=[^\n]*$/gm;

/**
 * The lib files a program with `options` would have, as one file; undefined with `noLib`.
 * Compile with `{ ...options, noLib: true }` and the bundle as a root file.
 */
export function libBundle(options: ts.CompilerOptions, host: ts.ModuleResolutionHost, cwd: string): LibBundle | undefined {
  const ts = typescript();
  if (options.noLib) return undefined;
  const files = defaultLibFiles(options, host, cwd);
  const parts: LibBundle['parts'] = [];
  let text = '';
  for (const file of files) {
    parts.push({ file, start: text.length });
    // Kept: no-default-lib (the bundle counts as a default library). Dropped: lib references (the bundle has them all).
    text += (host.readFile(file) ?? '').replace(LIB_REFERENCE_LINE, '') + '\n';
  }
  return { fileName: path.join(path.dirname(ts.getDefaultLibFilePath(options)), '__tpu_kernel_lib.d.ts'), text, parts };
}

/** The lib file holding `position` of the bundle. */
export function libFileAt(bundle: LibBundle, position: number): string {
  let found = bundle.parts[0]!.file;
  for (const part of bundle.parts) if (part.start <= position) found = part.file;
  return found;
}

/**
 * TypeScript's own choice and order of lib files (the `lib` option or the target's default,
 * `/// <reference lib>` of lib files and of the `types` packages), from a program of files
 * cut down to their reference lines: nothing is parsed in full.
 */
function defaultLibFiles(options: ts.CompilerOptions, host: ts.ModuleResolutionHost, cwd: string): string[] {
  const ts = typescript();
  // A program without root files has no lib files either: an empty one.
  const root = path.join(cwd, '__tpu_kernel_lib_probe.ts');
  const compilerHost: ts.CompilerHost = {
    getSourceFile: (file, languageVersion) => {
      const text = file === root ? '' : host.readFile(file);
      return text === undefined ? undefined : ts.createSourceFile(file, (text.match(REFERENCE_LINE) ?? []).join('\n'), languageVersion);
    },
    getDefaultLibFileName: (o) => ts.getDefaultLibFilePath(o),
    writeFile: () => undefined,
    getCurrentDirectory: () => cwd,
    getCanonicalFileName: (file) => file,
    useCaseSensitiveFileNames: () => ts.sys.useCaseSensitiveFileNames,
    getNewLine: () => '\n',
    fileExists: (file) => file === root || host.fileExists(file),
    readFile: (file) => host.readFile(file),
    directoryExists: host.directoryExists && ((dir) => host.directoryExists!(dir)),
    getDirectories: host.getDirectories && ((dir) => host.getDirectories!(dir)),
    realpath: host.realpath && ((file) => host.realpath!(file)),
  };
  const program = ts.createProgram({ rootNames: [root], options: { ...options, noEmit: true }, host: compilerHost });
  return program.getSourceFiles().filter((file) => program.isSourceFileDefaultLibrary(file)).map((file) => file.fileName);
}
