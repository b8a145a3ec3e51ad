// What a line magic is. Magics are lines `%name args` at the start of a line of
// a cell; they run in order with the code around them. See ./index.ts for how
// to register one.
import type { SiteMapper } from '../outputs/cell-profile.js';
import type { DisplayFunction } from '../outputs/display.js';
import type { Send } from '../outputs/ordered-outputs.js';
import type { ProfileMode } from '../outputs/profile-mode.js';
import type { TensorRuntime } from '../tensor-runtime.js';

export type TypecheckMode = 'off' | 'warn' | 'error';

/** Session settings magics may read and change. */
export interface SessionSettings {
  typecheck: TypecheckMode;
  /** Profile display of every cell (%profile). */
  profile: ProfileMode;
}

/** A piece of TypeScript compiled in the session, ready to run (again and again). */
export type CompiledCode = () => Promise<unknown>;

export interface MagicContext {
  /**
   * The text after `%name` on its line; for a magic with `takesCellBody` whose
   * line holds only options (`-x value`) or nothing, that text + '\n' + the rest of the cell.
   */
  readonly args: string;
  /**
   * Compiles `args.slice(offset)` as cell code: errors point at its place in
   * the cell, and its declarations persist like a cell's.
   */
  compileArgs(offset?: number): CompiledCode;
  /** stdout / stderr of the running cell. */
  write(name: 'stdout' | 'stderr', text: string): void;
  /** The tensor runtime's `tpu` object, when the runtime is available. */
  readonly runtime: TensorRuntime | undefined;
  /** Waits for all queued device work (tpu.sync()) when cells have used the runtime. */
  syncDevice(): Promise<void>;
  /** Aborted when the cell is interrupted: loops in magics must stop. */
  readonly signal: AbortSignal;
  readonly settings: SessionSettings;
  /** Every registered magic, by name. */
  readonly magics: ReadonlyMap<string, Magic>;
}

export interface Magic {
  /** Name without the `%`. */
  name: string;
  /** One line, shown by %lsmagic. */
  summary: string;
  /** Full usage text, shown when inspecting `%name` (Shift+Tab). */
  help: string;
  /** The args are TypeScript code: the language service completes and checks them in place. */
  argsAreCode?: boolean;
  /** With argsAreCode: where the code starts in the args, after the magic's own options (0 when omitted). */
  codeOffset?(args: string): number;
  /** With no args on its line, the magic takes the rest of the cell as its args (like IPython's %%time). */
  takesCellBody?: boolean;
  /**
   * A line of it before any code of a cell runs before the cell hooks (beforeCell), so the
   * setting it changes already covers that cell (`%profile live` on a cell's first line).
   */
  appliesToItsCell?: boolean;
  /** Runs the magic; a returned value other than undefined becomes the cell's result if the magic ends the cell. */
  run(context: MagicContext): unknown;
  /** Work around every cell (e.g. live profiling that a `%profile live` switched on). */
  hooks?: CellHooks;
}

/**
 * Called around every cell, whether or not the magic appears in it. A hook
 * that throws is reported on the cell's stderr; the cell's outcome stands.
 */
export interface CellHooks {
  /** After the cell compiled and passed its type check, before its code runs. */
  beforeCell?(context: CellHookContext): unknown;
  /**
   * After the cell ended ('ok', 'error' or 'interrupted') and its device work is done, before
   * the reply; also after a cell that failed to compile or type-check (no beforeCell then).
   */
  afterCell?(context: CellHookContext, status: 'ok' | 'error' | 'interrupted'): unknown;
}

export interface CellHookContext {
  readonly executionCount: number;
  /** The cell's name in stack frames and errors ("cell-3.ts"). */
  readonly displayName: string;
  /** A silent request (nothing may be shown). */
  readonly silent: boolean;
  /** The runtime's `tpu` object, once a cell has used it (else undefined: there is no device session to look at). */
  readonly runtime: TensorRuntime | undefined;
  /** The runtime even before a cell used it; from now on every cell ends with a device sync. */
  useRuntime(): TensorRuntime | undefined;
  /**
   * Sends an output in order with the cell's other outputs: at once when none waits ahead
   * of it (also while a synchronous loop of the cell holds the thread), else after them.
   */
  readonly emit: (send: Send) => void;
  /** Maps a stack frame to the cell line the user typed (cell source maps). */
  readonly mapSite: SiteMapper;
  /** The cells' display(): display(value) / display.html(...) return a handle whose update() replaces the output. */
  readonly display: DisplayFunction;
  write(name: 'stdout' | 'stderr', text: string): void;
  readonly settings: SessionSettings;
  /** The notebook's folder (the session's working directory). */
  readonly cwd: string;
}
