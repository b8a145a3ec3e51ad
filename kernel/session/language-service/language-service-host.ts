// A TypeScript language service over three virtual files in the notebook's
// folder (so imports resolve from its node_modules): the cell globals, the
// history of earlier cells (a global script), and the cell being edited (made
// a module by an appended `export {}`, so it may redeclare earlier names and
// use top-level await). Compiler options come from a tsconfig.json in that
// folder when there is one, with the module settings cells need.
import { existsSync } from 'node:fs';
import path from 'node:path';
import type ts from 'typescript';
import { typescript } from '../typescript.js';
import { cellGlobalsDeclarations } from './cell-globals-declarations.js';
import { packageRoot } from '../package-root.js';

const CELL_SUFFIX = '\nexport {};\n';

export class CellLanguageService {
  readonly service: ts.LanguageService;
  readonly cellFile: string;
  private readonly files = new Map<string, { text: string; version: number }>();
  private readonly historyFile: string;
  private readonly diskSnapshots = new Map<string, ts.IScriptSnapshot | undefined>();

  constructor(cwd: string) {
    const ts = typescript();
    const root = packageRoot();
    this.cellFile = path.join(cwd, '__tpu_kernel_cell.ts');
    this.historyFile = path.join(cwd, '__tpu_kernel_history.ts');
    this.setFile(path.join(cwd, '__tpu_kernel_globals.d.ts'), cellGlobalsDeclarations(root));
    this.setFile(this.historyFile, '');
    this.setFile(this.cellFile, CELL_SUFFIX);
    const options = compilerOptions(cwd, root);
    const host: ts.LanguageServiceHost = {
      getCompilationSettings: () => options,
      getScriptFileNames: () => [...this.files.keys()],
      getScriptVersion: (file) => String(this.files.get(file)?.version ?? 0),
      getScriptSnapshot: (file) => {
        const virtual = this.files.get(file);
        return virtual ? ts.ScriptSnapshot.fromString(virtual.text) : this.diskSnapshot(file);
      },
      getCurrentDirectory: () => cwd,
      getDefaultLibFileName: (o) => ts.getDefaultLibFilePath(o),
      fileExists: (file) => this.files.has(file) || ts.sys.fileExists(file),
      readFile: (file) => this.files.get(file)?.text ?? ts.sys.readFile(file),
      readDirectory: ts.sys.readDirectory,
      directoryExists: ts.sys.directoryExists,
      getDirectories: ts.sys.getDirectories,
      realpath: ts.sys.realpath,
    };
    this.service = ts.createLanguageService(host, ts.createDocumentRegistry());
  }

  /**
   * Files on disk (lib and package declarations) are read once: the service asks
   * for every file's snapshot on each new program, i.e. after every executed cell.
   * A declaration file changed on disk is seen after a kernel restart.
   */
  private diskSnapshot(file: string): ts.IScriptSnapshot | undefined {
    const ts = typescript();
    if (!this.diskSnapshots.has(file)) {
      const text = ts.sys.readFile(file);
      this.diskSnapshots.set(file, text === undefined ? undefined : ts.ScriptSnapshot.fromString(text));
    }
    return this.diskSnapshots.get(file);
  }

  setHistory(text: string): void {
    this.setFile(this.historyFile, text);
  }

  /** Makes `cell` the edited cell; positions in it are positions in the cell file. */
  setCell(cell: string): void {
    this.setFile(this.cellFile, cell + CELL_SUFFIX);
  }

  private setFile(file: string, text: string): void {
    const current = this.files.get(file);
    if (current?.text === text) return;
    this.files.set(file, { text, version: (current?.version ?? 0) + 1 });
  }
}

function compilerOptions(cwd: string, root: string): ts.CompilerOptions {
  const ts = typescript();
  const defaults: ts.CompilerOptions = {
    target: ts.ScriptTarget.ES2022,
    lib: ['lib.es2023.d.ts'],
    strict: true,
    esModuleInterop: true,
    skipLibCheck: true,
    types: ['node'],
    typeRoots: [path.join(cwd, 'node_modules', '@types'), path.join(root, 'node_modules', '@types')],
  };
  const configPath = path.join(cwd, 'tsconfig.json');
  let user: ts.CompilerOptions = {};
  if (existsSync(configPath)) {
    const { config } = ts.readConfigFile(configPath, ts.sys.readFile);
    user = ts.parseJsonConfigFileContent(config ?? {}, ts.sys, cwd).options;
  }
  // Cells are ES modules with top-level await, resolved like the kernel's import (local .ts files too).
  return { ...defaults, ...user, module: ts.ModuleKind.ESNext, moduleResolution: ts.ModuleResolutionKind.Bundler, allowImportingTsExtensions: true, noEmit: true, allowJs: false };
}
