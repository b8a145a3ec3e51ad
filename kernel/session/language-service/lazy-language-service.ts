// Completion, inspection and type diagnostics of cells. The TypeScript
// language service costs about a second to build and warm (lib files, first
// check), so it is never on the path of the first execute: it is built on
// the first request that needs it, or in the background shortly after the
// first cell ran.
import type ts from 'typescript';
import { typescript } from '../typescript.js';
import type { CompleteResult, InspectResult } from '../../language-session.js';
import { CellChain, MAY_IMPORT, type CheckedCell } from './cell-chain.js';
import { CellHistory } from './cell-history.js';
import { codePointsToUtf16, utf16ToCodePoints } from './code-points.js';
import { CellLanguageService } from './language-service-host.js';
import { optionDetails, withoutImportPaths } from './option-details.js';
import { rewriteOperators, type RewriteResult } from '../operators/typed-operator-rewrite.js';
import { magicLines, maskMagics } from '../magics/magic-lines.js';
import type { Magic } from '../magics/magic.js';
import { duringOwnWork } from '../../io/own-work.js';
import { recentParse } from '../cells/recent-parse.js';

/** Quiet time (no cell running, none finished) before warming up in the background. */
const WARM_UP_QUIET_MS = 500;

export interface TypeProblem {
  message: string;
  code: number;
  line: number;
  column: number;
}

export class LazyLanguageService {
  private built: CellLanguageService | undefined;
  private readonly history = new CellHistory();
  private readonly chain: CellChain;
  private warmUp: ReturnType<typeof setTimeout> | undefined;
  private lastCellAt = 0;
  /** The cell about to be recorded was type-checked (`%typecheck off` cells are not). */
  private checkedSinceRecord = false;
  /** An executed cell not yet in the history (`recordCell`). */
  private pending: { source: string; tree: ts.SourceFile | undefined; checked: boolean } | undefined;

  /**
   * `busy()` tells whether a cell is running: the warm-up waits for idle so it never stalls a cell
   * (or its timing). `warmsUp`: false builds only for a request that needs the service.
   */
  constructor(private readonly cwd: string, private readonly busy: () => boolean, private readonly warmsUp = true) {
    this.chain = new CellChain(cwd);
  }

  get ready(): boolean {
    return this.built !== undefined;
  }

  /**
   * An executed cell (magics masked) becomes part of the history the next cells see. Its parse is
   * taken now; the recording waits for `recordPending` (after the cell's reply), or for the next
   * use of the history, whichever comes first.
   */
  recordCell(source: string): void {
    this.recordPending();
    this.pending = { source, tree: recentParse(source), checked: this.checkedSinceRecord };
    this.checkedSinceRecord = false;
    this.lastCellAt = performance.now();
  }

  /** Records the cell `recordCell` left waiting, if any. */
  recordPending(): void {
    if (!this.pending) return;
    const { source, tree, checked } = this.pending;
    this.pending = undefined;
    const fresh = this.history.add(source, tree);
    const changed = this.history.takeChanged();
    this.built?.setHistory(this.history.texts, changed);
    this.chain.record(source, fresh, checked);
    // In a quiet spell: the service's first build, or a new program for the chain once it ended
    // (a cell declared a name again) or aged, so the next cell does not wait for one.
    if (this.warmsUp && !this.warmUp && !(this.built && this.chain.based && !this.chain.aged)) this.scheduleWarmUp(WARM_UP_QUIET_MS);
  }

  /**
   * The warm-up blocks the thread (about a second for the first build, milliseconds for a new
   * program): only after a quiet spell, so it delays no request of a busy client.
   */
  private scheduleWarmUp(delay: number): void {
    this.warmUp = setTimeout(() => {
      const quietFor = performance.now() - this.lastCellAt;
      if (this.busy() || quietFor < WARM_UP_QUIET_MS) this.scheduleWarmUp(WARM_UP_QUIET_MS - (this.busy() ? 0 : quietFor));
      else {
        this.warmUp = undefined;
        if (this.chain.aged) this.chain.drop();
        this.diagnostics('');
      }
    }, delay);
    this.warmUp.unref();
  }

  /** The cell with its tensor operators rewritten from their types (operators/typed-operator-rewrite.ts). */
  rewriteOperators(cell: string, magics: ReadonlyMap<string, Magic>): RewriteResult | undefined {
    return duringOwnWork(() => {
      const checked = this.checked(maskMagics(cell, magics));
      return checked && rewriteOperators(checked, cell, typescript());
    });
  }

  /**
   * A practice cell (jit-warm-up.ts) rewritten and checked as an executed cell is, on the chain
   * only: nothing is recorded and no program is made.
   */
  practise(cell: string): void {
    duringOwnWork(() => {
      const checked = this.built && this.chain.checkAside(cell);
      if (checked) (rewriteOperators(checked, cell, typescript()), checked.diagnostics());
    });
  }

  diagnostics(cell: string): TypeProblem[] {
    const ts = typescript();
    const diagnostics = duringOwnWork(() => this.checked(cell)?.diagnostics() ?? []);
    return diagnostics.filter((d) => d.start !== undefined && d.start < cell.length).map((d) => {
      const before = cell.slice(0, d.start).split('\n');
      return { message: ts.flattenDiagnosticMessageText(d.messageText, '\n'), code: d.code, line: before.length, column: before.at(-1)!.length + 1 };
    });
  }

  async complete(code: string, cursorPos: number, magics: ReadonlyMap<string, Magic>): Promise<CompleteResult> {
    const offset = codePointsToUtf16(code, cursorPos);
    const linePrefix = code.slice(code.lastIndexOf('\n', offset - 1) + 1, offset);
    const magic = /^\s*%([\w-]*)$/.exec(linePrefix);
    if (magic) {
      const matches = [...magics.keys()].filter((n) => n.startsWith(magic[1])).sort().map((n) => `%${n}`);
      return { matches, cursorStart: cursorPos - magic[1].length - 1, cursorEnd: cursorPos };
    }
    const entries = duringOwnWork(() => {
      const ls = this.load(maskMagics(code, magics));
      const found = ls.service.getCompletionsAtPosition(ls.cellFile, offset, {})?.entries ?? [];
      this.chainOn(ls);
      return found;
    });
    const wordStart = offset - (/[\w$]*$/.exec(code.slice(0, offset))?.[0].length ?? 0);
    const prefix = code.slice(wordStart, offset);
    const lower = prefix.toLowerCase();
    const rank = (e: ts.CompletionEntry) => (e.name.startsWith(prefix) ? 0 : 1);
    const chosen = entries
      .filter((e) => e.name.toLowerCase().startsWith(lower))
      .sort((a, b) => rank(a) - rank(b) || a.sortText.localeCompare(b.sortText) || a.name.localeCompare(b.name));
    const start = utf16ToCodePoints(code, wordStart);
    return {
      matches: chosen.map((e) => e.name),
      cursorStart: start,
      cursorEnd: cursorPos,
      metadata: { _jupyter_types_experimental: chosen.map((e) => ({ start, end: cursorPos, text: e.name, type: e.kind })) },
    };
  }

  async inspect(code: string, cursorPos: number, detailLevel: 0 | 1, magics: ReadonlyMap<string, Magic>): Promise<InspectResult> {
    const offset = codePointsToUtf16(code, cursorPos);
    const lineStart = code.lastIndexOf('\n', offset - 1) + 1;
    const magicLine = magicLines(code)[code.slice(0, lineStart).split('\n').length - 1];
    const magic = magicLine && offset - lineStart <= magicLine.argsColumn - 1 ? magics.get(magicLine.name) : undefined;
    if (magic) return { found: true, data: { 'text/plain': magic.help, 'text/markdown': '```\n' + magic.help + '\n```' } };
    return duringOwnWork(() => this.quickInfo(maskMagics(code, magics), offset, detailLevel));
  }

  /** Inspect's text from the service: the signature, its documentation and tags, the options, where it is defined. */
  private quickInfo(code: string, offset: number, detailLevel: 0 | 1): InspectResult {
    const ts = typescript();
    const ls = this.load(code);
    const info = ls.service.getQuickInfoAtPosition(ls.cellFile, offset) ?? (offset > 0 ? ls.service.getQuickInfoAtPosition(ls.cellFile, offset - 1) : undefined);
    this.chainOn(ls);
    if (!info || info.kind === ts.ScriptElementKind.unknown) return { found: false, data: {} }; // unknown: an unresolved name
    const signature = withoutImportPaths(ts.displayPartsToString(info.displayParts));
    const documentation = ts.displayPartsToString(info.documentation);
    const tags = (info.tags ?? []).map((t) => `@${t.name} ${ts.displayPartsToString(t.text)}`.trim());
    const program = ls.service.getProgram();
    const options = program ? optionDetails(program, ls.cellFile, offset, ts) : [];
    const details = [...options, ...(detailLevel === 1 ? definitionOf(ls, offset) : [])];
    const text = [signature, documentation, tags.join('\n'), ...details].filter(Boolean).join('\n\n');
    const markdown = ['```ts\n' + signature + '\n```', documentation, tags.map((t) => `*${t}*`).join('  \n'), ...details].filter(Boolean).join('\n\n');
    return { found: true, data: { 'text/plain': text, 'text/markdown': markdown } };
  }

  dispose(): void {
    this.pending = undefined;
    clearTimeout(this.warmUp);
    this.chain.drop();
    this.built?.service.dispose();
    this.built = undefined;
  }

  /** The cell on the last program's checker when it can be (cell-chain.ts), else on a new program. */
  private checked(cell: string): CheckedCell | undefined {
    this.recordPending();
    this.checkedSinceRecord = true;
    const chained = this.built && this.chain.check(cell);
    if (chained) return chained;
    const ls = this.load(cell);
    const program = this.chainOn(ls);
    const file = program?.getSourceFile(ls.cellFile);
    if (!program || !file) return undefined;
    return {
      file,
      checker: program.getTypeChecker(),
      diagnostics: () => [...ls.service.getSyntacticDiagnostics(ls.cellFile), ...ls.service.getSemanticDiagnostics(ls.cellFile)],
    };
  }

  /** The service's program holds every executed cell: the next cells are checked on its checker. */
  private chainOn(ls: CellLanguageService): ts.Program | undefined {
    const program = ls.service.getProgram();
    if (program) this.chain.rebase(program);
    return program;
  }

  private load(cell: string): CellLanguageService {
    this.recordPending();
    clearTimeout(this.warmUp);
    this.warmUp = undefined;
    // The service's next program re-parses changed files in place, under the chain's checker.
    this.chain.drop();
    if (!this.built) {
      this.built = new CellLanguageService(this.cwd);
      this.built.setHistory(this.history.texts);
    }
    // module resolution looks at the disk again: a package may have been installed since
    if (MAY_IMPORT.test(cell)) this.built.forgetDiskLookups();
    this.built.setCell(cell);
    return this.built;
  }
}

/** Where a name is defined (detail level 1), outside the virtual cell files. */
function definitionOf(ls: CellLanguageService, offset: number): string[] {
  const definitions = ls.service.getDefinitionAtPosition(ls.cellFile, offset) ?? [];
  return definitions.map((d) => ls.definitionFile(d.fileName, d.textSpan.start)).filter((file) => !file.includes('__tpu_kernel_')).slice(0, 3).map((file) => `Defined in ${file}`);
}
