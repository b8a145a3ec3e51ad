// A TypeScript program of one probe file that imports the built runtime's declarations
// (dist/runtime/index.d.ts, what `tpu-kernel/runtime` users and a cell's language service read).
import path from 'node:path';
import ts from 'typescript';

/** The probe's import path of the built runtime. */
export const BUILT_RUNTIME = path.resolve('dist/runtime/index.js');

/** `source` as a file beside the built runtime, checked in strict mode. */
export function probeProgram(source: string): { program: ts.Program; checker: ts.TypeChecker; file: ts.SourceFile } {
  const probe = path.resolve('dist/runtime/declarations-probe.ts');
  const options = { strict: true, module: ts.ModuleKind.NodeNext, moduleResolution: ts.ModuleResolutionKind.NodeNext, target: ts.ScriptTarget.ES2022, noEmit: true };
  const host = ts.createCompilerHost(options);
  const readFile = host.readFile.bind(host);
  host.readFile = (f) => (path.resolve(f) === probe ? source : readFile(f));
  const fileExists = host.fileExists.bind(host);
  host.fileExists = (f) => path.resolve(f) === probe || fileExists(f);
  const program = ts.createProgram([probe], options, host);
  return { program, checker: program.getTypeChecker(), file: program.getSourceFile(probe)! };
}
