/**
 * The one contract between the protocol side of the kernel (wire, sockets,
 * dispatch, handlers) and the language side (kernel/session: what happens to
 * the code of a cell). Like xeus's `xinterpreter`: the protocol side owns the
 * execution count, execute_input, history, busy/idle, stop_on_error and the
 * error output; the session only evaluates and emits outputs through the
 * `Publisher` it is handed.
 */

/** A Jupyter mime bundle: mime type -> data (string or JSON). */
export type MimeBundle = Record<string, unknown>;

/**
 * Values that know how to show themselves implement this symbol (Deno's
 * convention); it returns a mime bundle. runtime's Tensor and profile objects
 * implement it, so the kernel renders them without importing their types.
 */
export const JUPYTER_DISPLAY = Symbol.for('Jupyter.display');

/** Everything a session can send to the frontend while a request runs. */
export interface Publisher {
  /** stdout / stderr text, delivered in call order. */
  stream(name: 'stdout' | 'stderr', text: string): void;
  /** display_data; with a displayId the output can be updated later. */
  display(data: MimeBundle, metadata?: Record<string, unknown>, displayId?: string): void;
  /** update_display_data for an earlier display with the same displayId. */
  updateDisplay(data: MimeBundle, metadata: Record<string, unknown> | undefined, displayId: string): void;
  /** clear_output; with wait=true the frontend clears when the next output arrives. */
  clearOutput(wait: boolean): void;
  /**
   * input_request on stdin. Rejects with a clear error when the request did
   * not allow stdin (allow_stdin=false), or when the cell is interrupted.
   */
  input(prompt: string, options?: { password?: boolean }): Promise<string>;
}

/** What the protocol side tells the session about one execute_request. */
export interface ExecuteContext {
  /** The execution count this cell will have (already incremented when store_history). */
  executionCount: number;
  silent: boolean;
  storeHistory: boolean;
  allowStdin: boolean;
  publisher: Publisher;
}

export interface ErrorInfo {
  ename: string;
  evalue: string;
  traceback: string[];
}

/** The result of one execute; the protocol side turns it into execute_reply + outputs. */
export type ExecuteOutcome =
  | {
      status: 'ok';
      /** The cell's value as execute_result, if it has one worth showing. */
      result?: { data: MimeBundle; metadata?: Record<string, unknown> };
      /** Optional payloads (e.g. 'set_next_input', 'page'), passed through. */
      payload?: Record<string, unknown>[];
    }
  | ({ status: 'error'; interrupted?: boolean } & ErrorInfo);

/** user_expressions values, in execute_reply format. */
export type ExpressionResult =
  | { status: 'ok'; data: MimeBundle; metadata: Record<string, unknown> }
  | ({ status: 'error' } & ErrorInfo);

export interface CompleteResult {
  matches: string[];
  cursorStart: number;
  cursorEnd: number;
  metadata?: Record<string, unknown>;
}

export interface InspectResult {
  found: boolean;
  data: MimeBundle;
  metadata?: Record<string, unknown>;
}

export type IsCompleteResult =
  | { status: 'complete' | 'invalid' | 'unknown' }
  | { status: 'incomplete'; indent: string };

export interface LanguageInfo {
  name: string;
  version: string;
  mimetype: string;
  file_extension: string;
  pygments_lexer?: string;
  codemirror_mode?: string | Record<string, unknown>;
}

export interface KernelInfo {
  implementation: string;
  implementationVersion: string;
  languageInfo: LanguageInfo;
  banner: string;
  helpLinks: { text: string; url: string }[];
}

/**
 * A comm channel as the session (and cells) see it. The protocol side owns
 * the registry and the comm_* messages; cells reach it through the session.
 */
export interface Comm {
  readonly commId: string;
  readonly targetName: string;
  send(data: unknown, metadata?: Record<string, unknown>, buffers?: ArrayBuffer[]): void;
  close(data?: unknown): void;
  onMsg(handler: (data: unknown, buffers: ArrayBuffer[]) => void): void;
  onClose(handler: (data: unknown) => void): void;
}

export interface CommRegistry {
  /** Frontends open comms to this target name; handler sees each new comm. */
  registerTarget(targetName: string, onOpen: (comm: Comm, data: unknown) => void): void;
  /** Open a comm from the kernel side to a frontend target. */
  open(targetName: string, data?: unknown, metadata?: Record<string, unknown>): Comm;
}

/**
 * Lets the kernel stop a synchronous loop of cell code with SIGINT without racing Node's vm
 * (entering and leaving a breakOnSigint run, SIGINT briefly ends the process). A session
 * runs each synchronous stretch of cell code as `during(body)` from inside its
 * breakOnSigint vm run, calls `before()` just before entering that run and `after()` once it
 * has returned or thrown.
 */
export interface SigintGate {
  before(): void;
  during<T>(body: () => T): T;
  after(): void;
}

/**
 * Names of the scripts a session runs cell code in: `<display name>#<serial>`, e.g.
 * `cell-3.ts#7`. The kernel tells cell code on the main thread's stack by them.
 */
export const CELL_SCRIPT_NAME = /^[^/\\]+\.ts#\d+$/;

/**
 * How another thread wakes a blocking wait on the main thread: it sets word `flag` of
 * `buffer` (Int32 words) to 1 and wakes the waiters on word `notify`. The waiting code
 * checks `flag` when it wakes and gives up its wait.
 */
export interface InterruptWake {
  buffer: SharedArrayBuffer;
  flag: number;
  notify: number;
}

/** Wakes the waits an InterruptWake describes (from any thread). */
export function wakeWaits({ buffer, flag, notify }: InterruptWake): void {
  const words = new Int32Array(buffer);
  Atomics.store(words, flag, 1);
  Atomics.notify(words, notify);
}

/** What a session is given when it is created. */
export interface SessionOptions {
  /** Folder the notebook lives in (cells resolve relative imports and tsconfig.json there). */
  cwd: string;
  comms: CommRegistry;
  /**
   * Optional: a session whose code can block the main thread in a wait that a signal
   * cannot break (the tensor runtime's Atomics.wait) hands how to wake it here, once;
   * every interrupt then also wakes those waits, from the kernel's control thread.
   */
  shareInterruptWake?: (wake: InterruptWake) => void;
  /** Optional: without it, interrupts reach a synchronous loop only by a SIGINT from outside. */
  sigintGate?: SigintGate;
  /**
   * Optional, true by default: the language service is built (and a new program made once a
   * chain of checked cells ended) in the background, in the first quiet spell after a cell.
   * false: only when a request needs it (a completion, an inspection, a checked cell).
   */
  backgroundWarmUp?: boolean;
  /**
   * Optional: given, once the language service is built, quiet spells compile practice cells
   * (nothing runs) so V8 optimizes the cells' compile path sooner (session/jit-warm-up.ts), and
   * hand each to this, for the host's own share of a cell (the kernel: its protocol's decode and
   * encode, wire/protocol-practice.ts). The kernel gives it; the notebook runner, whose cells
   * come in a row, does not.
   */
  practice?: (cell: string) => void;
}

export interface LanguageSession {
  readonly kernelInfo: KernelInfo;
  execute(code: string, context: ExecuteContext): Promise<ExecuteOutcome>;
  /** Evaluate user_expressions after a successful execute. */
  evaluateExpressions(expressions: Record<string, string>): Promise<Record<string, ExpressionResult>>;
  /** cursorPos and returned positions count Unicode code points (protocol 5.2+). */
  complete(code: string, cursorPos: number): Promise<CompleteResult>;
  inspect(code: string, cursorPos: number, detailLevel: 0 | 1): Promise<InspectResult>;
  isComplete(code: string): Promise<IsCompleteResult>;
  /**
   * Called on the main thread when an interrupt arrives (interrupt_request or
   * SIGINT) while a cell awaits: the running execute must settle promptly with
   * an error outcome marked `interrupted`, and every definition stays intact.
   * (A synchronous loop is stopped by vm's breakOnSigint, through the SigintGate.)
   */
  interrupt(): void;
  /**
   * Optional: a frontend's comm message (comm_open, comm_msg, comm_close) is delivered to the
   * comm handlers inside `deliver`; what they output meanwhile goes to `publisher`, whose
   * parent is that message (as in ipykernel), not to the last cell. Without it, comm handlers
   * output through the last cell's publisher.
   */
  handleComm?(publisher: Publisher, deliver: () => void): void;
  /** Release resources; restart=true means a fresh session follows in this process. */
  shutdown(restart: boolean): Promise<void>;
}

/** How kernel/session is constructed; the protocol side depends on nothing else of it. */
export type SessionFactory = (options: SessionOptions) => LanguageSession;
