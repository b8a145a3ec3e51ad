// A TypeScript language service over virtual files in the notebook's folder (so
// imports resolve from its node_modules): the cell globals, the history of
// earlier cells (a global script per cell), and the cell being edited (made
// a module by an appended `export {}`, so it may redeclare earlier names and
// use top-level await). Compiler options come from a tsconfig.json in that
// folder when there is one, with the module settings cells need.
import { existsSync } from 'node:fs';
import path from 'node:path';
import type ts from 'typescript';
import { typescript } from '../typescript.js';
import { cellGlobalsDeclarations } from './cell-globals-declarations.js';
import { libBundle, libFileAt, type LibBundle } from './lib-bundle.js';
import { packageRoot } from '../package-root.js';
import { TextSnapshot } from './text-snapshot.js';

export const CELL_SUFFIX = '\nexport {};\n';
/**
 * A history file takes the next cell while it is shorter than this. Each executed cell
 * re-parses and re-binds the last file (smaller is cheaper); each file costs every later
 * program a little (fewer is cheaper). Over a few hundred short cells 1,000 to 4,000 were
 * alike and 16,000 slower.
 */
const HISTORY_FILE_CHARS = 4_000;
/**
 * History files are named in the program's list this many at a time, the unused ones empty:
 * a file added to the list makes the next program resolve every file and type reference
 * again (about 30 ms), a file whose text changes does not.
 */
const HISTORY_FILES_LISTED = 64;

/** Cells start..end-1 of the history, in one file. */
interface HistoryChunk {
  file: string;
  start: number;
  end: number;
}

export class CellLanguageService {
  readonly service: ts.LanguageService;
  readonly cellFile: string;
  private readonly files = new Map<string, { text: string; version: number }>();
  private readonly globalsFile: string;
  private readonly lib: LibBundle | undefined;
  private readonly historyChunks: HistoryChunk[] = [];
  /** History files in the program's list: the chunks' files, then empty ones for the next chunks. */
  private readonly historyFiles: string[] = [];
  private readonly diskSnapshots = new Map<string, ts.IScriptSnapshot | undefined>();
  /**
   * Disk lookups of module and type resolution (file and folder exists, package.json reads):
   * every executed cell makes a new program, which resolves `types` and imports again.
   */
  private readonly diskLookups = new Map<string, unknown>();
  /** Module resolutions and package.json scopes, kept across programs (a new program would start empty). */
  private readonly resolutions: ts.ModuleResolutionCache;

  constructor(private readonly cwd: string) {
    const ts = typescript();
    const root = packageRoot();
    this.cellFile = path.join(cwd, '__tpu_kernel_cell.ts');
    this.globalsFile = path.join(cwd, '__tpu_kernel_globals.d.ts');
    this.setFile(this.globalsFile, cellGlobalsDeclarations(root));
    this.setFile(this.cellFile, CELL_SUFFIX);
    const lookup = <T>(kind: string, file: string, find: () => T): T => {
      const key = `${kind}\0${file}`;
      if (!this.diskLookups.has(key)) this.diskLookups.set(key, find());
      return this.diskLookups.get(key) as T;
    };
    const disk: ts.ModuleResolutionHost = {
      fileExists: (file) => lookup('exists', file, () => ts.sys.fileExists(file)),
      readFile: (file) => lookup('read', file, () => ts.sys.readFile(file)),
      directoryExists: (dir) => lookup('dir', dir, () => ts.sys.directoryExists(dir)),
      getDirectories: (dir) => lookup('dirs', dir, () => ts.sys.getDirectories(dir)),
      realpath: (file) => lookup('realpath', file, () => ts.sys.realpath!(file)),
    };
    const configured = compilerOptions(cwd, root);
    // Declaration files are read into snapshots, not kept as disk lookups: the bundle reads them uncached.
    this.lib = libBundle(configured, { ...disk, readFile: (file) => ts.sys.readFile(file) }, cwd);
    if (this.lib) this.setFile(this.lib.fileName, this.lib.text);
    const options = this.lib ? { ...configured, noLib: true } : configured;
    const canonical = ts.sys.useCaseSensitiveFileNames ? (file: string) => file : (file: string) => file.toLowerCase();
    this.resolutions = ts.createModuleResolutionCache(cwd, canonical, options);
    // getModuleResolutionCache is read by the service (it passes it to each program) though not declared on its host type.
    const host: ts.LanguageServiceHost & Pick<ts.CompilerHost, 'getModuleResolutionCache'> = {
      getCompilationSettings: () => options,
      getModuleResolutionCache: () => this.resolutions,
      resolveModuleNameLiterals: (literals, containingFile, redirectedReference, compilerOptions, containingSourceFile) =>
        literals.map((literal) => ts.resolveModuleName(
          literal.text, containingFile, compilerOptions, host, this.resolutions, redirectedReference,
          ts.getModeForUsageLocation(containingSourceFile, literal, compilerOptions),
        )),
      getScriptFileNames: () => [...(this.lib ? [this.lib.fileName] : []), this.globalsFile, ...this.historyFiles, this.cellFile],
      getScriptVersion: (file) => String(this.files.get(file)?.version ?? 0),
      getScriptSnapshot: (file) => {
        const virtual = this.files.get(file);
        return virtual ? new TextSnapshot(virtual.text) : this.diskSnapshot(file);
      },
      getCurrentDirectory: () => cwd,
      getDefaultLibFileName: (o) => ts.getDefaultLibFilePath(o),
      fileExists: (file) => this.files.has(file) || disk.fileExists(file),
      readFile: (file) => this.files.get(file)?.text ?? disk.readFile(file),
      readDirectory: ts.sys.readDirectory,
      directoryExists: disk.directoryExists,
      getDirectories: disk.getDirectories,
      realpath: disk.realpath,
    };
    this.service = ts.createLanguageService(host, ts.createDocumentRegistry());
  }

  /** Where a definition is, by the file it came from (the lib bundle's parts are TypeScript's lib files). */
  definitionFile(fileName: string, position: number): string {
    return this.lib && fileName === this.lib.fileName ? libFileAt(this.lib, position) : fileName;
  }

  /** Looks at the disk again for module resolution (a cell imports: a package may have been installed since). */
  forgetDiskLookups(): void {
    this.diskLookups.clear();
    this.resolutions.clear();
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

  /**
   * The declarations of earlier cells, one text per cell, in history files of consecutive
   * cells: a new cell changes only the last file (its text is re-parsed, not the whole history),
   * and a new file starts when that one is full (a new list of files makes the service resolve
   * every import and type reference again, so not one file per cell). `changed`: the cells whose
   * texts changed since the last call (only their files are joined again); all when omitted.
   */
  setHistory(texts: readonly string[], changed?: readonly number[]): void {
    const last = this.historyChunks.at(-1);
    if (!last || (last.end < texts.length && chunkLength(last, texts) > HISTORY_FILE_CHARS)) {
      if (this.historyChunks.length === this.historyFiles.length) this.listHistoryFiles();
      this.historyChunks.push({ file: this.historyFiles[this.historyChunks.length]!, start: last?.end ?? 0, end: texts.length });
    } else last.end = texts.length;
    for (const chunk of this.historyChunks) {
      if (!changed || changed.some((i) => i >= chunk.start && i < chunk.end)) this.setFile(chunk.file, chunkText(chunk, texts));
    }
  }

  private listHistoryFiles(): void {
    for (let i = 0; i < HISTORY_FILES_LISTED; i++) {
      const file = path.join(this.cwd, `__tpu_kernel_history_${this.historyFiles.length + 1}.ts`);
      this.historyFiles.push(file);
      this.setFile(file, '');
    }
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

/** A history file's text: its cells' declarations, one cell a line group (cells that keep none are left out). */
function chunkText(chunk: HistoryChunk, texts: readonly string[]): string {
  return texts.slice(chunk.start, chunk.end).filter(Boolean).join('\n');
}

/** chunkText's length, without making the text (asked for every cell, whether the last file is full). */
function chunkLength(chunk: HistoryChunk, texts: readonly string[]): number {
  let length = -1;
  for (let i = chunk.start; i < chunk.end; i++) if (texts[i]) length += texts[i]!.length + 1;
  return Math.max(length, 0);
}
