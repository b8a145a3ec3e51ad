// Cells type-checked on the last program's checker instead of a new program each. A new
// program and checker for every executed cell cost about 4 ms (reusing the old program's
// structure over some 250 files, then the checker's start), Deno's whole round trip; parsing,
// binding and checking the cell alone on the last checker costs a tenth of that.
//
// The cell is parsed and bound alone as a module (the service appends `export {}` to make it one;
// this parse is told instead, so the emit and the history take the same tree: recent-parse.ts),
// and the top-level names of the cells executed since that program are added to its scope:
// TypeScript finds them there before the globals (the program's history files), as a later cell's
// names shadow an earlier one's at run time. A new program answers where that could differ
// (`chainable`, `record`): a cell that imports, augments modules or has `@ts-` directives, or a
// cell whose names an earlier declaration mentions or a global holds (the types of those
// declarations would change).
// A cell run without a check (`%typecheck off`) is bound only when a later cell is checked.
//
// TypeScript internals used (typescript.js 6.0; checked for at run time, else every cell takes a
// program): `bindSourceFile`, `getSetExternalModuleIndicator`, `getEmitScriptTarget`, a source
// file's `locals`, `path`, `resolvedPath`, `originalFileName`, `imports`, `moduleAugmentations`,
// `ambientModuleNames`, `parseDiagnostics`, `bindDiagnostics`, `commentDirectives`, `checkJsDirective`
// and the checker's `getDiagnostics(file)` and `resolveName`.
import path from 'node:path';
import type ts from 'typescript';
import { typescript } from '../typescript.js';
import { rememberParse } from '../cells/recent-parse.js';

/** A cell's syntax tree and the checker that types it. */
export interface CheckedCell {
  readonly file: ts.SourceFile;
  readonly checker: ts.TypeChecker;
  /** Syntax, then binding and type problems, as the language service lists them. */
  diagnostics(): readonly ts.Diagnostic[];
}

interface ChainInternals {
  bindSourceFile(file: ts.SourceFile, options: ts.CompilerOptions): void;
  getSetExternalModuleIndicator(options: ts.CompilerOptions): (file: ts.SourceFile) => void;
  getEmitScriptTarget(options: ts.CompilerOptions): ts.ScriptTarget;
}

interface BoundFile extends ts.SourceFile {
  locals: Map<string, ts.Symbol>;
  path: string;
  resolvedPath: string;
  originalFileName: string;
  imports: readonly ts.StringLiteralLike[];
  moduleAugmentations: readonly (ts.StringLiteral | ts.Identifier)[];
  ambientModuleNames: readonly string[];
  parseDiagnostics: ts.DiagnosticWithLocation[];
  bindDiagnostics: ts.DiagnosticWithLocation[];
  commentDirectives?: readonly unknown[];
  checkJsDirective?: unknown;
}

interface CheckerInternals extends ts.TypeChecker {
  getDiagnostics(file: ts.SourceFile): ts.Diagnostic[];
  resolveName(name: string, location: ts.Node | undefined, meaning: ts.SymbolFlags, excludeGlobals: boolean): ts.Symbol | undefined;
}

interface ChainedCell extends CheckedCell {
  readonly file: BoundFile;
  readonly checker: CheckerInternals;
  /** The top-level names the cell itself declares (escaped as in `locals`). */
  readonly ownNames: readonly string[];
}

/** A cell that may import (or name `import(...)`): module resolution needs a program, which a chained cell has not. */
export const MAY_IMPORT = /\b(import|require)\b/;
/**
 * After so many chained cells a new program is made in the next quiet spell (`aged`): the checker
 * keeps what it learnt of each chained cell, which a program's history files hold more compactly.
 */
const CHAIN_AGE = 200;
/**
 * ... and on the path of the next cell after this many, when no quiet spell came: each chained
 * cell's tree stays alive with the checker (memory grows with the chain, not with its square:
 * earlier names are read from one shared map, `ChainScope`).
 */
const CHAIN_LIMIT = 2_000;

/** A name a chained cell declared, and where on the chain (the count of cells linked before it). */
interface LinkedName {
  symbol: ts.Symbol;
  place: number;
}

/** The names of the cells linked on the chain: by name, and each cell's in its binder's order. */
interface LinkedNames {
  byName: Map<string, LinkedName>;
  byCell: (readonly string[])[];
}

const noLinkedNames = (): LinkedNames => ({ byName: new Map(), byCell: [] });

/**
 * A chained cell's scope: its own top-level names, then those of the cells linked before it, read
 * from the chain's one map up to the cell's place (not copied into each cell: copying made every
 * cell's bind cost the length of the chain). TypeScript looks names up with `get`; it lists a
 * scope (spelling suggestions, "Did you mean 'x'?") rarely, so listing walks the earlier cells,
 * the latest first, as the copies were ordered.
 */
class ChainScope extends Map<string, ts.Symbol> {
  constructor(own: ReadonlyMap<string, ts.Symbol>, private readonly linked: LinkedNames, private readonly place: number) {
    super(own);
  }

  override get(name: string): ts.Symbol | undefined {
    return super.get(name) ?? this.earlier(name);
  }

  override has(name: string): boolean {
    return super.has(name) || this.earlier(name) !== undefined;
  }

  override get size(): number {
    return [...this.entries()].length;
  }

  override *entries(): MapIterator<[string, ts.Symbol]> {
    yield* super.entries();
    for (let cell = Math.min(this.place, this.linked.byCell.length) - 1; cell >= 0; cell--) {
      for (const name of this.linked.byCell[cell]!) {
        if (!super.has(name)) yield [name, this.linked.byName.get(name)!.symbol];
      }
    }
  }

  override [Symbol.iterator](): MapIterator<[string, ts.Symbol]> {
    return this.entries();
  }

  override *keys(): MapIterator<string> {
    for (const [name] of this.entries()) yield name;
  }

  override *values(): MapIterator<ts.Symbol> {
    for (const [, symbol] of this.entries()) yield symbol;
  }

  override forEach(callback: (symbol: ts.Symbol, name: string, map: Map<string, ts.Symbol>) => void, thisArg?: unknown): void {
    for (const [name, symbol] of this.entries()) callback.call(thisArg, symbol, name, this);
  }

  private earlier(name: string): ts.Symbol | undefined {
    const linked = this.linked.byName.get(name);
    return linked && linked.place < this.place ? linked.symbol : undefined;
  }
}

export class CellChain {
  private base: { checker: CheckerInternals; options: ts.CompilerOptions; internals: ChainInternals; parseOptions: ts.CreateSourceFileOptions } | undefined;
  /** Top-level names of the cells executed since the base, the latest declaration of each. */
  private names = noLinkedNames();
  private links = 0;
  private files = 0;
  private last: { text: string; cell: ChainedCell } | undefined;
  /**
   * Executed cells not checked (`%typecheck off`), bound when a cell is next checked: a session
   * that checks no cell never pays for binding them.
   */
  private pending: string[] = [];

  constructor(private readonly cwd: string) {}

  /** Whether cells can be checked on the chain (a base program is set). */
  get based(): boolean {
    return this.base !== undefined;
  }

  /** Whether the chain is long enough for a new program in the next quiet spell. */
  get aged(): boolean {
    return this.links + this.pending.length >= CHAIN_AGE;
  }

  /** A program holding every executed cell in its history: later cells are checked on its checker. */
  rebase(program: ts.Program): void {
    this.drop();
    const internals = typescript() as unknown as Partial<ChainInternals>;
    const checker = program.getTypeChecker() as CheckerInternals;
    if (!hasChainInternals(internals) || typeof checker.getDiagnostics !== 'function' || typeof checker.resolveName !== 'function') return;
    const options = program.getCompilerOptions();
    const parseOptions = {
      languageVersion: internals.getEmitScriptTarget(options),
      setExternalModuleIndicator: internals.getSetExternalModuleIndicator({ ...options, moduleDetection: typescript().ModuleDetectionKind.Force }),
    };
    this.base = { checker, options, internals, parseOptions };
  }

  /** Forgets the base: the service is making a new program, which re-parses the base's changed files in place. */
  drop(): void {
    this.base = undefined;
    this.names = noLinkedNames();
    this.links = 0;
    this.last = undefined;
    this.pending = [];
  }

  /** The cell checked on the chain; undefined where a new program must answer. */
  check(cell: string): CheckedCell | undefined {
    const last = this.checkedLast(cell);
    if (last) return last;
    this.linkPending();
    const checked = this.bind(cell);
    if (checked) this.last = { text: cell, cell: checked };
    return checked;
  }

  /** The cell checked on the chain without becoming its last cell (practice: jit-warm-up.ts); undefined where the chain cannot take it. */
  checkAside(cell: string): CheckedCell | undefined {
    return this.bind(cell);
  }

  /**
   * An executed cell: its names join the chain, or the chain ends where later types could differ.
   * `wasChecked`: the cell was type-checked before it ran; it is bound now (a cell the chain cannot
   * take ends it at once, and the next program is made in a quiet spell). An unchecked one waits.
   */
  record(cell: string, declaresFreshNames: boolean, wasChecked: boolean): void {
    const onChain = this.checkedLast(cell);
    this.last = undefined;
    if (!this.base) return;
    if (!declaresFreshNames || MAY_IMPORT.test(cell) || this.links + this.pending.length >= CHAIN_LIMIT) return this.drop();
    if (!wasChecked) return void this.pending.push(cell);
    this.linkPending();
    const bound = this.base && (onChain ?? this.bind(cell));
    if (!bound) return this.drop();
    this.link(bound);
  }

  /** The cell's names join the chain, unless one is a global's (the program's history script holds globals). */
  private link(bound: ChainedCell): void {
    this.links++;
    const ts = typescript();
    const shadowsGlobal = bound.ownNames.some((name) => bound.checker.resolveName(ts.unescapeLeadingUnderscores(name as ts.__String), undefined, ts.SymbolFlags.All, false));
    if (shadowsGlobal) return this.drop();
    const place = this.names.byCell.length; // seen by the cells bound after this one
    this.names.byCell.push(bound.ownNames);
    for (const name of bound.ownNames) this.names.byName.set(name, { symbol: bound.file.locals.get(name)!, place });
  }

  private linkPending(): void {
    for (const cell of this.pending.splice(0)) {
      const bound = this.bind(cell);
      if (!bound) return this.drop();
      this.link(bound);
      if (!this.base) return;
    }
  }

  private checkedLast(cell: string): ChainedCell | undefined {
    return this.last?.text === cell ? this.last.cell : undefined;
  }

  private bind(cell: string): ChainedCell | undefined {
    const base = this.base;
    if (!base || MAY_IMPORT.test(cell)) return undefined;
    const { internals } = base;
    const ts = typescript();
    const fileName = path.join(this.cwd, `__tpu_kernel_chained_${++this.files}.ts`);
    const file = ts.createSourceFile(fileName, cell, base.parseOptions, true) as BoundFile;
    file.path = file.resolvedPath = file.originalFileName = fileName;
    // What a program collects for its files; a chained cell has none (it neither imports nor
    // augments). The checker reads `imports` when a message names a type by its module
    // (an overload's DTensor), and fails on a file without it.
    file.imports = [];
    file.moduleAugmentations = [];
    file.ambientModuleNames = [];
    rememberParse(file);
    if (!chainable(file)) return undefined;
    internals.bindSourceFile(file, base.options);
    const ownNames = [...file.locals.keys()];
    file.locals = new ChainScope(file.locals, this.names, this.names.byCell.length);
    const checker = base.checker;
    return { file, checker, ownNames, diagnostics: () => [...file.parseDiagnostics, ...file.bindDiagnostics, ...checker.getDiagnostics(file)] };
  }
}

function hasChainInternals(internals: Partial<ChainInternals>): internals is ChainInternals {
  return typeof internals.bindSourceFile === 'function' && typeof internals.getSetExternalModuleIndicator === 'function'
    && typeof internals.getEmitScriptTarget === 'function';
}

/**
 * What a program treats apart from the checker: directives filter its diagnostics, references
 * add files, and `declare global`/`declare module 'm'` merge into other scopes when it starts.
 */
function chainable(file: BoundFile): boolean {
  const ts = typescript();
  const augments = file.statements.some((s) => ts.isModuleDeclaration(s) && (ts.isStringLiteral(s.name) || (s.flags & ts.NodeFlags.GlobalAugmentation) !== 0));
  return !augments && !file.commentDirectives?.length && file.checkJsDirective === undefined
    && !file.referencedFiles.length && !file.typeReferenceDirectives.length && !file.libReferenceDirectives.length;
}
