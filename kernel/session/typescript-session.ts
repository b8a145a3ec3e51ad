// The language side of the kernel: TypeScript cells run in one persistent
// context, with display/input/console routed to the running request's
// Publisher, magics, type checking, completion and inspection.
import path from 'node:path';
import { setImmediate as setImmediatePromise } from 'node:timers/promises';
import { pathToFileURL } from 'node:url';
import type vm from 'node:vm';
import type {
  CompleteResult, ExecuteContext, ExecuteOutcome, ExpressionResult, InspectResult, IsCompleteResult,
  KernelInfo, LanguageSession, Publisher, SessionOptions,
} from '../language-session.js';
import { createCellContext } from './cells/cell-context.js';
import { CellCompileError, interruptedErrorInfo, isCancelledDeviceWait, isInterrupt, runtimeErrorInfo, sourceErrorInfo, UsageError } from './cells/cell-errors.js';
import { CellRunner, type CodePlace } from './cells/cell-runner.js';
import { CellSourceMaps } from './cells/cell-source-maps.js';
import { CellTimers } from './cells/cell-timers.js';
import { createDisplay, DisplayHandle, mimeBundleOf } from './outputs/display.js';
import { createPlot } from './plots/plot.js';
import { createProgress } from './progress/progress.js';
import { createWidgets } from './widgets/widgets.js';
import { CellInterrupter } from './cells/interrupt.js';
import { helpRequest } from './language-service/help-request.js';
import { exitRequest } from './exit-request.js';
import { cellSiteMapper } from './outputs/cell-profile.js';
import { defaultProfileMode } from './outputs/profile-mode.js';
import { isComplete } from './language-service/is-complete.js';
import { LazyLanguageService } from './language-service/lazy-language-service.js';
import { CellOperators } from './operators/cell-operators.js';
import { OrderedOutputs } from './outputs/ordered-outputs.js';
import { maskMagics, splitCell } from './magics/magic-lines.js';
import { magics as builtinMagics, type CellHookContext, type Magic, type MagicContext, type SessionSettings, type TypecheckMode } from './magics/index.js';
import { cellTypecheckMode } from './magics/typecheck.js';
import { createModuleImporter } from './cells/module-import.js';
import { loadTensorRuntime, type TensorRuntime } from './tensor-runtime.js';
import { typescriptVersion } from './typescript.js';
import { packageRoot } from './package-root.js';
import { withRuntimeTiering } from './cells/cell-tiering.js';
import { withPythonHabitHints } from './cells/python-habit-hints.js';
import { JitWarmUp } from './jit-warm-up.js';
import { transpileCell } from './cells/compile-cell.js';
import { dispatchOperators } from './operators/dispatch-rewrite.js';
import { typescript } from './typescript.js';

/** A piece of a cell ready to run; `beforeHooks`: a leading magic line whose setting covers its own cell. */
interface CellStep {
  run: () => Promise<unknown>;
  beforeHooks: boolean;
}

export class TypeScriptSession implements LanguageSession {
  readonly kernelInfo: KernelInfo = {
    implementation: 'tpu-kernel',
    implementationVersion: '0.1.0',
    languageInfo: {
      name: 'typescript',
      version: typescriptVersion,
      mimetype: 'text/typescript',
      file_extension: '.ts',
      pygments_lexer: 'typescript',
      codemirror_mode: { name: 'javascript', typescript: true },
    },
    banner: `tpu-kernel: TypeScript cells on a TPU session (TypeScript ${typescriptVersion})`,
    helpLinks: [
      // The kernel's own docs ship in the package: no web address to go stale.
      { text: 'tpu-kernel: a tour and PyTorch -> tpu-kernel', url: docLink('README.md#a-tour-for-pytorch-users') },
      { text: 'tpu-kernel: cells, magics, profiling', url: docLink('docs/kernel.md') },
      { text: 'tpu-kernel: runtime, training, TPU compiler', url: docLink('docs/runtime.md') },
      { text: 'TypeScript handbook', url: 'https://www.typescriptlang.org/docs/handbook/intro.html' },
      { text: 'Vega-Lite (plot outputs)', url: 'https://vega.github.io/vega-lite/docs/' },
      { text: 'Jupyter widgets (widgets)', url: 'https://ipywidgets.readthedocs.io/en/stable/' },
      { text: 'Perfetto (open %profile trace files)', url: 'https://ui.perfetto.dev/' },
    ],
  };

  private readonly cwd: string;
  private readonly settings: SessionSettings = { typecheck: 'warn', profile: defaultProfileMode() };
  private readonly maps = new CellSourceMaps();
  private readonly timers = new CellTimers((error) => this.reportBackgroundError(error));
  private readonly interrupter = new CellInterrupter();
  private readonly context: vm.Context;
  private readonly runner: CellRunner;
  private readonly languageService: LazyLanguageService;
  private readonly operators: CellOperators;
  /** Practice cells in quiet spells, so cells compile in optimized code sooner (SessionOptions.practice). */
  private readonly jitWarmUp: JitWarmUp | undefined;
  private readonly runtimeReady: Promise<TensorRuntime | undefined>;
  private runtime: TensorRuntime | undefined;
  /** Cells used `tpu`: from then on every cell ends with a device sync (before, there is no device session to sync). */
  private runtimeUsed = false;
  /** Hands how to wake the runtime's blocking waits to the kernel when a cell first uses `tpu`. */
  private shareInterruptWake: SessionOptions['shareInterruptWake'];
  private publisher: Publisher | undefined;
  private running = false;
  /** Interrupt signal of the running (or last) cell. */
  private signal: AbortSignal = new AbortController().signal;
  /** Async display renders of the running cell, awaited before it ends. */
  private pendingDisplays: Promise<unknown>[] = [];
  private readonly onUnhandledRejection = (reason: unknown) => this.reportBackgroundError(reason);
  /** Every output of a cell goes through here, so they reach the publisher in call order. */
  private readonly outputs = new OrderedOutputs(() => this.publisher);
  private readonly display = createDisplay(this.outputs, (work) => this.pendingDisplays.push(work));

  /** `loadRuntime` and `magics` are replaceable for tests of the runtime and cell hooks. */
  constructor(
    options: SessionOptions,
    loadRuntime: () => Promise<TensorRuntime | undefined> = loadTensorRuntime,
    private readonly magics: ReadonlyMap<string, Magic> = builtinMagics,
  ) {
    this.shareInterruptWake = options.shareInterruptWake;
    this.cwd = options.cwd;
    this.runtimeReady = loadRuntime().then(
      (runtime) => (this.runtime = runtime),
      (error: unknown) => {
        this.write('stderr', `tpu-kernel: the tensor runtime failed to load; \`tpu\` is unavailable:\n${String(error)}\n`);
        return undefined;
      });
    this.languageService = new LazyLanguageService(options.cwd, () => this.running, options.backgroundWarmUp ?? true);
    this.operators = new CellOperators(this.languageService, magics);
    const hostPractice = options.practice;
    if (hostPractice) this.jitWarmUp = new JitWarmUp(() => this.running, () => this.languageService.ready, (cell) => (this.practise(cell), hostPractice(cell)));
    const api: Record<string, unknown> = {
      display: this.display,
      clearOutput: (opts?: { wait?: boolean }) => this.outputs.emit((publisher) => publisher.clearOutput(Boolean(opts?.wait))),
      input: (prompt: unknown = '', opts?: { password?: boolean }) => {
        if (!this.publisher) return Promise.reject(new Error('input: no request is running'));
        return this.publisher.input(String(prompt), { password: Boolean(opts?.password) });
      },
      comms: options.comms,
      plot: createPlot(this.display, (work) => this.pendingDisplays.push(work)),
      progress: createProgress(this.display, (name, text) => this.write(name, text)),
      widgets: createWidgets(options.comms, (error) => this.reportBackgroundError(error), (publisher, fn) => this.withPublisher(publisher, fn), () => this.publisher),
    };
    this.context = createCellContext({
      cwd: options.cwd,
      write: (name, text) => this.write(name, text),
      timers: this.timers.globals(),
      importModule: createModuleImporter(options.cwd),
      operators: this.operators.dispatch.ops,
      api,
    });
    // `tpu` is the runtime's object; a cell that declares its own `tpu` replaces the global, not the runtime.
    Object.defineProperty(this.context, 'tpu', {
      get: () => this.touchRuntime(),
      set: (value) => Object.defineProperty(this.context, 'tpu', { value, writable: true, enumerable: true, configurable: true }),
      enumerable: true,
      configurable: true,
    });
    this.runner = new CellRunner(this.context, this.maps, () => this.signal, options.sigintGate);
    process.on('unhandledRejection', this.onUnhandledRejection);
  }

  async execute(code: string, request: ExecuteContext): Promise<ExecuteOutcome> {
    const helpName = helpRequest(code);
    if (helpName) return this.help(helpName);
    const exit = exitRequest(code, (name) => this.runner.bindings.has(name) || Object.prototype.hasOwnProperty.call(this.context, name));
    if (exit) return { status: 'ok', payload: exit };
    this.publisher = request.publisher;
    this.pendingDisplays = [];
    this.timers.beginCell();
    const signal = (this.signal = this.interrupter.beginCell());
    const place = { displayName: `cell-${request.executionCount}.ts`, cellSource: code };
    this.running = true;
    try {
      const outcome = await this.runAndReport(code, place, signal, request);
      // Node reports a rejection nobody handled only once this macrotask ends: waiting for it puts
      // the report on this cell's stderr (frontends drop outputs that come after the cell's idle).
      await setImmediatePromise();
      await this.runHooks('afterCell', request, place.displayName, outcome.status === 'ok' ? 'ok' : outcome.interrupted ? 'interrupted' : 'error');
      return outcome;
    } finally {
      this.running = false;
      // The cell's reply and idle are sent in the microtasks after this: the history is brought up
      // to date once they are on their way, before the next request is read.
      setImmediate(() => this.languageService.recordPending());
      this.jitWarmUp?.cellEnded();
    }
  }

  /** A practice cell through both compile paths, the type-checked and the dispatched one; nothing runs. */
  private practise(cell: string): void {
    this.languageService.practise(cell);
    transpileCell(cell);
    transpileCell(dispatchOperators(cell, cell, typescript()).code);
  }

  private async runAndReport(code: string, place: Omit<CodePlace, 'line' | 'column'>, signal: AbortSignal, request: ExecuteContext): Promise<ExecuteOutcome> {
    try {
      await CellInterrupter.race(this.runtimeReady, signal);
      const typecheckMode = cellTypecheckMode(code, this.magics, this.settings.typecheck);
      const rewrite = await this.operators.rewrite(code, typecheckMode, this.mayMeetTensors(code));
      if (rewrite && 'error' in rewrite) return { status: 'error', ...operatorErrorInfo(code, place.displayName, rewrite.error) };
      if (rewrite?.changed) (code = rewrite.code), (place = { ...place, cellSource: code });
      // A syntax error is the cell's only error: the type check runs on code that parses.
      const steps = this.compileCell(code, place, signal);
      // Leading `%typecheck` lines took effect before the check: they stand if it fails the cell.
      this.settings.typecheck = typecheckMode;
      const typeErrors = this.typecheck(code, place.displayName, typecheckMode);
      if (typeErrors) return { status: 'error', ...typeErrors };
      const run = async () => {
        const value = await CellInterrupter.race(this.runSteps(steps, signal, request, place.displayName), signal);
        await CellInterrupter.race(this.finishCell(), signal);
        return value;
      };
      // Before the runtime is used no cell runs its loops: the budget stays the kernel's (two
      // flag settings fewer a cell, each re-deriving V8's flag implications).
      const value = await (this.runtimeUsed ? withRuntimeTiering(run) : run());
      this.languageService.recordCell(maskMagics(code, this.magics));
      if (value === undefined || value instanceof DisplayHandle) return { status: 'ok' };
      return { status: 'ok', result: { data: await CellInterrupter.race(Promise.resolve(mimeBundleOf(value)), signal) } };
    } catch (error) {
      // A cell that fails part-way still defined what it ran: the language service sees it
      // (one that did not compile ran nothing).
      if (!(error instanceof CellCompileError)) this.languageService.recordCell(maskMagics(code, this.magics));
      // A device wait woken by the interrupt ends the cell before the interrupt reaches
      // interrupt(), which may then find the request over: drop the queued device work now.
      if (isCancelledDeviceWait(error) && !signal.aborted) this.interrupt();
      if (isInterrupt(error)) return { status: 'error', ...interruptedErrorInfo() };
      return { status: 'error', ...runtimeErrorInfo(withPythonHabitHints(error, code, this.context), this.maps) };
    }
  }

  /** Runs the cell hooks of every magic; a failing hook is reported on stderr. */
  private async runHooks(
    ...[phase, request, displayName, status]: ['beforeCell', ExecuteContext, string] | ['afterCell', ExecuteContext, string, 'ok' | 'error' | 'interrupted']
  ): Promise<void> {
    const context: CellHookContext = {
      executionCount: request.executionCount,
      displayName,
      silent: Boolean(request.silent),
      runtime: this.runtimeUsed ? this.runtime : undefined,
      useRuntime: () => this.touchRuntime(),
      emit: (send) => this.outputs.emit(send),
      mapSite: cellSiteMapper(this.maps, displayName),
      display: this.display,
      write: (name, text) => this.write(name, text),
      settings: this.settings,
      cwd: this.cwd,
    };
    for (const magic of this.magics.values()) {
      try {
        if (phase === 'beforeCell') await magic.hooks?.beforeCell?.(context);
        else await magic.hooks?.afterCell?.(context, status!);
      } catch (error) {
        this.write('stderr', `%${magic.name} (${phase}): ${runtimeErrorInfo(error, this.maps).traceback.join('\n')}\n`);
      }
    }
    // Hooks' async displays are published before the cell's reply.
    while (this.pendingDisplays.length) await Promise.allSettled(this.pendingDisplays.splice(0));
    await this.outputs.settled();
  }

  private async help(name: string): Promise<ExecuteOutcome> {
    const { found, data } = await this.inspect(name, [...name].length, 1);
    const page = found ? data : { 'text/plain': `No information about ${name}` };
    return { status: 'ok', payload: [{ source: 'page', data: page, start: 0 }] };
  }

  /** The code and magic lines of a cell as steps to run in order. Every code piece compiles first: a syntax error anywhere runs nothing. */
  private compileCell(code: string, cell: Omit<CodePlace, 'line' | 'column'>, signal: AbortSignal): CellStep[] {
    const magics = this.magics;
    const session = this;
    const segments = splitCell(code, magics);
    const firstCode = segments.findIndex((segment) => segment.kind === 'code');
    return segments.map((segment, i): CellStep => {
      if (segment.kind === 'code') return { run: this.runner.compile(segment.code, { ...cell, line: segment.line, column: segment.column }), beforeHooks: false };
      const magic = magics.get(segment.name);
      if (!magic) throw new UsageError(`unknown magic %${segment.name} (line ${segment.line}); %lsmagic lists them: ${[...magics.keys()].map((n) => `%${n}`).join(', ')}`);
      const context: MagicContext = {
        args: segment.args,
        compileArgs: (offset = 0) => {
          const before = segment.args.slice(0, offset).split('\n');
          const line = segment.line + before.length - 1;
          const column = before.length > 1 ? before.at(-1)!.length + 1 : segment.argsColumn + offset;
          return this.runner.compile(segment.args.slice(offset), { ...cell, line, column });
        },
        write: (name, text) => this.write(name, text),
        get runtime() {
          return session.touchRuntime();
        },
        syncDevice: () => this.syncDevice(),
        signal,
        settings: this.settings,
        magics,
      };
      const leading = firstCode < 0 || i < firstCode;
      return { run: () => Promise.resolve(magic.run(context)), beforeHooks: leading && Boolean(magic.appliesToItsCell) };
    });
  }

  /** Runs the steps of a cell in order; the value of the last one is the cell's. */
  private async runSteps(steps: CellStep[], signal: AbortSignal, request: ExecuteContext, displayName: string): Promise<unknown> {
    let value: unknown;
    let next = 0;
    // Leading setting magics first, so the hooks (e.g. the profile) see the setting for this cell.
    while (next < steps.length && steps[next].beforeHooks) value = await steps[next++].run();
    await this.runHooks('beforeCell', request, displayName);
    // Let an interrupt that arrived while compiling and type-checking reach interrupt() before code runs.
    await setImmediatePromise();
    for (const step of steps.slice(next)) {
      if (signal.aborted) throw signal.reason;
      value = await step.run();
    }
    return value;
  }

  /** End of a cell: async displays are published, and queued device work is done (a sync point). */
  private async finishCell(): Promise<void> {
    while (this.pendingDisplays.length) await Promise.all(this.pendingDisplays.splice(0));
    await this.outputs.settled();
    await this.syncDevice();
  }

  /**
   * Whether the cell's operators may have tensor operands: once the runtime was used. A cell that
   * names `tpu` or imports a module counts as using it (a module may make tensors over
   * 'tpu-kernel/runtime' with no `tpu` in any cell): its operators are dispatched, its end syncs.
   */
  private mayMeetTensors(code: string): boolean {
    if (!this.runtimeUsed && /\b(?:tpu|import|require)\b/.test(code)) this.touchRuntime();
    return this.runtimeUsed;
  }

  private touchRuntime(): TensorRuntime | undefined {
    if (this.runtime && this.shareInterruptWake) {
      this.shareInterruptWake(this.runtime.interruptWake());
      this.shareInterruptWake = undefined; // once: the runtime's waits are the process's
    }
    this.runtimeUsed = true;
    return this.runtime;
  }

  private async syncDevice(): Promise<void> {
    if (this.runtimeUsed) await this.runtime?.sync();
  }

  /** Type errors of a cell against earlier cells, per %typecheck; an error outcome in 'error' mode. */
  private typecheck(code: string, displayName: string, mode: TypecheckMode) {
    // In warn mode the check never delays the first cells while the service warms up.
    if (mode === 'off' || (mode === 'warn' && !this.languageService.ready)) return undefined;
    const problems = this.languageService.diagnostics(maskMagics(code, this.magics));
    if (!problems.length) return undefined;
    if (mode === 'error') return sourceErrorInfo('TypeScriptError', displayName, code, problems);
    const lines = problems.map((p) => `${displayName}:${p.line}:${p.column} - warning TS${p.code}: ${p.message}`);
    this.write('stderr', `${lines.join('\n')}\n`);
    return undefined;
  }

  async evaluateExpressions(expressions: Record<string, string>): Promise<Record<string, ExpressionResult>> {
    const results: Record<string, ExpressionResult> = {};
    for (const [key, source] of Object.entries(expressions)) {
      try {
        const value = await this.runner.compile(source, { displayName: 'expression.ts', cellSource: source, line: 1, column: 1 })();
        results[key] = { status: 'ok', data: await mimeBundleOf(value), metadata: {} };
      } catch (error) {
        results[key] = { status: 'error', ...runtimeErrorInfo(error, this.maps) };
      }
    }
    return results;
  }

  complete(code: string, cursorPos: number): Promise<CompleteResult> {
    return this.languageService.complete(code, cursorPos, this.magics);
  }

  inspect(code: string, cursorPos: number, detailLevel: 0 | 1): Promise<InspectResult> {
    return this.languageService.inspect(code, cursorPos, detailLevel, this.magics);
  }

  async isComplete(code: string): Promise<IsCompleteResult> {
    return isComplete(maskMagics(code, this.magics));
  }

  /** Comm handlers output to the comm message's publisher while it is delivered (its parent). */
  handleComm(publisher: Publisher, deliver: () => void): void {
    this.withPublisher(publisher, deliver);
  }

  /** Runs `fn` (its synchronous part) with every output of the session sent to `publisher`. */
  private withPublisher<T>(publisher: Publisher, fn: () => T): T {
    const previous = this.publisher;
    this.publisher = publisher;
    try {
      return fn();
    } finally {
      this.publisher = previous;
    }
  }

  interrupt(): void {
    this.interrupter.interrupt();
    this.timers.cancelCurrentCell();
    if (this.runtimeUsed) this.runtime?.cancelPending();
  }

  /**
   * Stops everything of this session: its timers, the language service and the TPU session
   * (its buffers are freed for a restart; before an exit, its thread must leave ONNX Runtime
   * first: ending the process while a program runs there aborts it).
   */
  async shutdown(): Promise<void> {
    this.interrupt();
    this.timers.cancelAll();
    this.jitWarmUp?.stop();
    process.off('unhandledRejection', this.onUnhandledRejection);
    this.languageService.dispose();
    if (this.runtimeUsed) await this.runtime?.reset();
  }

  private write(name: 'stdout' | 'stderr', text: string): void {
    this.outputs.emit((publisher) => publisher.stream(name, text));
  }

  /** Errors nobody awaits (timer callbacks, unhandled rejections) go to the stderr of the latest cell. */
  private reportBackgroundError(error: unknown): void {
    const info = runtimeErrorInfo(error, this.maps);
    this.write('stderr', `${info.traceback.join('\n')}\n`);
  }
}

/** A tensor operator the cell cannot have, as a TypeError at its place. */
function operatorErrorInfo(code: string, displayName: string, error: { offset: number; message: string }) {
  const before = code.slice(0, error.offset).split('\n');
  return sourceErrorInfo('TypeError', displayName, code, [{ message: error.message, line: before.length, column: before.at(-1)!.length + 1 }]);
}

function docLink(fileAndAnchor: string): string {
  const [file, anchor] = fileAndAnchor.split('#');
  return pathToFileURL(path.join(packageRoot(), file!)).href + (anchor ? `#${anchor}` : '');
}
