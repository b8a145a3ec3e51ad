// ts.transpileModule without its program: the same transformers and printer,
// run on a parsed cell. transpileModule makes a program and a type checker for
// every cell (its emit asks the checker a few questions: enum values, namespace
// exports, class references); those cost about 1 ms and most of the garbage of a
// small cell, against tens of microseconds for parsing, transforming and
// printing. Most cells ask the checker nothing, so they are emitted here with no
// checker at all; a cell whose emit would ask one (an enum, a namespace, a class:
// the resolver below is absent, so the transformer throws), a cell with a syntax
// error (transpileModule words the error) and a TypeScript whose emitter is not
// as described below go through transpileModule instead. The output is
// transpileModule's, text and source map (test/session/transpile-without-program.test.ts
// compares them over every cell of the notebooks and a syntax catalogue).
//
// TypeScript's emitter internals used (typescript.js 6.0, `emitJsFileOrBundle` and
// `printSourceFileOrBundle`: the facts these declarations are written from):
// getTransformers(options, custom) -> { scriptTransformers }; transformNodes(resolver,
// host, factory, options, nodes, transformers, allowDtsFiles) -> TransformationResult;
// createTextWriter(newLine); createSourceMapGenerator(host, file, sourceRoot, sourcesDir,
// options); a printer's writeFile(sourceFile, writer, sourceMapGenerator);
// getSetExternalModuleIndicator(options) for the parse; a SourceFile's parseDiagnostics.
import type ts from 'typescript';
import { typescript } from '../typescript.js';

export interface TranspileOutput {
  outputText: string;
  sourceMapText: string;
}

interface TextWriter {
  getText(): string;
  isAtStartOfLine(): boolean;
  rawWrite(text: string): void;
}
interface SourceMapGenerator {
  toString(): string;
}
interface EmitInternals {
  getTransformers(options: ts.CompilerOptions, custom: ts.CustomTransformers): { scriptTransformers: ts.TransformerFactory<ts.SourceFile>[] };
  transformNodes(resolver: undefined, host: object, factory: ts.NodeFactory, options: ts.CompilerOptions, nodes: ts.SourceFile[], transformers: ts.TransformerFactory<ts.SourceFile>[], allowDtsFiles: boolean): ts.TransformationResult<ts.SourceFile>;
  createTextWriter(newLine: string): TextWriter;
  createSourceMapGenerator(host: object, file: string, sourceRoot: string, sourcesDirectoryPath: string, options: ts.CompilerOptions): SourceMapGenerator;
  getSetExternalModuleIndicator(options: ts.CompilerOptions): (file: ts.SourceFile) => void;
}
type PrinterInternals = ts.Printer & { writeFile(file: ts.SourceFile, writer: TextWriter, map: SourceMapGenerator | undefined): void };

const INPUT = 'cell.ts';
const OUTPUT = 'cell.js';

/** The options transpileModule compiles with (it adds its own: isolatedModules, noLib...), by the options object it was given. */
const emitOptions = new WeakMap<ts.CompilerOptions, ts.CompilerOptions | undefined>();

/** transpileModule's output for a cell that parses and asks its emit no type checker question; else undefined. */
export function transpileWithoutProgram(source: string, options: ts.CompilerOptions, transformers: ts.CustomTransformers): TranspileOutput | undefined {
  const ts = typescript();
  const internals = ts as unknown as Partial<EmitInternals>;
  const compiled = hasEmitInternals(internals) ? compiledOptions(options) : undefined;
  // setParentNodes: the transformers' emit nodes find their file through parents (the checker's binder sets them in transpileModule)
  const file = compiled && parseCell(source, options, true);
  if (!file || !compiled || !hasEmitInternals(internals)) return undefined;
  // What the module transformer asks its emit host; any other question means a path this was not written for.
  const host = strictHost({ getEmitModuleFormatOfFile: () => compiled.module, getCompilerOptions: () => compiled });
  let result: ts.TransformationResult<ts.SourceFile> | undefined;
  try {
    result = internals.transformNodes(undefined, host, ts.factory, compiled, [file], internals.getTransformers(compiled, transformers).scriptTransformers, false);
    const printer = ts.createPrinter(
      {
        removeComments: compiled.removeComments, newLine: compiled.newLine, noEmitHelpers: compiled.noEmitHelpers, module: compiled.module,
        moduleResolution: compiled.moduleResolution, target: compiled.target, sourceMap: true, inlineSourceMap: compiled.inlineSourceMap, inlineSources: compiled.inlineSources,
      } as ts.PrinterOptions,
      { onEmitNode: result.emitNodeWithNotification, isEmitNotificationEnabled: result.isEmitNotificationEnabled, substituteNode: result.substituteNode },
    ) as PrinterInternals;
    const writer = internals.createTextWriter('\n');
    const map = internals.createSourceMapGenerator(strictHost({ getCurrentDirectory: () => '', getCanonicalFileName: (name: string) => name }), OUTPUT, '', '', compiled);
    printer.writeFile(result.transformed[0]!, writer, map);
    if (!writer.isAtStartOfLine()) writer.rawWrite('\n');
    return { outputText: writer.getText(), sourceMapText: map.toString() };
  } catch {
    // The emit asked the type checker (absent here) or the host something: transpileModule answers.
    return undefined;
  } finally {
    result?.dispose();
  }
}

/**
 * The cell parsed as transpileModule parses it (a module: `await` at its top level is an await);
 * undefined when it has a syntax error (transpileModule words it) or TypeScript lacks the internals.
 */
export function parseCell(source: string, options: ts.CompilerOptions, setParentNodes = false): ts.SourceFile | undefined {
  const ts = typescript();
  const internals = ts as unknown as Partial<EmitInternals>;
  const compiled = hasEmitInternals(internals) ? compiledOptions(options) : undefined;
  if (!compiled || !hasEmitInternals(internals)) return undefined;
  const file = ts.createSourceFile(INPUT, source, {
    languageVersion: compiled.target ?? ts.ScriptTarget.ES2022,
    setExternalModuleIndicator: internals.getSetExternalModuleIndicator(compiled),
  }, setParentNodes);
  return parsedCleanly(file);
}

/** `file`, when it has no syntax error (else the emit goes to transpileModule, which words it). */
export function parsedCleanly(file: ts.SourceFile): ts.SourceFile | undefined {
  return (file as unknown as { parseDiagnostics?: unknown[] }).parseDiagnostics?.length === 0 ? file : undefined;
}

function compiledOptions(options: ts.CompilerOptions): ts.CompilerOptions | undefined {
  if (!emitOptions.has(options)) emitOptions.set(options, optionsOfTranspileModule(options));
  return emitOptions.get(options);
}

function hasEmitInternals(internals: Partial<EmitInternals>): internals is EmitInternals {
  return typeof internals.getTransformers === 'function' && typeof internals.transformNodes === 'function' && typeof internals.createTextWriter === 'function'
    && typeof internals.createSourceMapGenerator === 'function' && typeof internals.getSetExternalModuleIndicator === 'function';
}

/** The compiler options transpileModule's own transformers see for `options` (read from one small transpile). */
function optionsOfTranspileModule(options: ts.CompilerOptions): ts.CompilerOptions | undefined {
  let seen: ts.CompilerOptions | undefined;
  typescript().transpileModule('', { compilerOptions: options, fileName: INPUT, transformers: { before: [(context) => ((seen = context.getCompilerOptions()), (file) => file)] } });
  return seen && { ...seen, sourceMap: true };
}

/** A host with these methods only: reading anything else throws, so the cell goes through transpileModule. */
function strictHost<T extends object>(methods: T): T {
  return new Proxy(methods, {
    get(target, key) {
      if (key in target) return target[key as keyof T];
      throw new Error(`the emit asked its host for ${String(key)}`);
    },
  });
}
