// Compiles pieces of a cell for the persistent context and runs them. A piece
// sits at a line and column of its cell; it is padded to that place before
// compiling so syntax errors and source-mapped stack frames use cell coordinates.
// Every synchronous stretch of a cell runs inside vm's breakOnSigint scope (the
// first one and, for steppable cells, each one after a top-level await), within
// the kernel's SigintGate, so the kernel's SIGINT stops a synchronous loop there.
import vm from 'node:vm';
import { CellCompileError, sourceErrorInfo } from './cell-errors.js';
import type { CellSourceMaps } from './cell-source-maps.js';
import { CellBindings } from './cell-bindings.js';
import { compileCell } from './compile-cell.js';
import type { CompiledCode } from '../magics/magic.js';
import type { SigintGate } from '../../language-session.js';

export interface CodePlace {
  /** Name frames and errors use for the cell, e.g. `cell-3.ts`. */
  displayName: string;
  /** The whole cell, for code frames in errors. */
  cellSource: string;
  /** 1-based line and column of the piece in the cell. */
  line: number;
  column: number;
}

/** Name of the context global through which a step of a cell generator runs inside runInContext. */
const STEP_FUNCTION = '__tpu_step';
const runOptions = { breakOnSigint: true };
/** Without the kernel's gate (the headless runner), only a SIGINT from outside stops a loop. */
const openGate: SigintGate = { before: () => undefined, during: (body) => body(), after: () => undefined };

/** A piece padded to its line and column, as it is compiled. */
function placedSource(code: string, line: number, column: number): string {
  return '\n'.repeat(line - 1) + ' '.repeat(column - 1) + code;
}

export class CellRunner {
  private readonly stepScript = new vm.Script(`${STEP_FUNCTION}()`, { filename: 'tpu-kernel-step' });
  private resume: (() => unknown) | undefined;
  /** The names cells declared: script-scope bindings of the context. */
  readonly bindings: CellBindings;

  /** `signal()` is the running cell's interrupt signal: an interrupted cell takes no further step. */
  constructor(
    private readonly context: vm.Context,
    private readonly maps: CellSourceMaps,
    private readonly signal: () => AbortSignal,
    private readonly gate: SigintGate = openGate,
  ) {
    Object.defineProperty(context, STEP_FUNCTION, { value: () => gate.during(this.resume!), enumerable: false });
    this.bindings = new CellBindings(context);
  }

  /** Compiles a piece; throws CellCompileError (a SyntaxError outcome) when it does not parse. */
  compile(code: string, place: CodePlace): CompiledCode {
    const padded = placedSource(code, place.line, place.column);
    const fileName = this.maps.nextFileName(place.displayName);
    const compiled = compileCell(padded);
    if ('syntaxErrors' in compiled) {
      throw new CellCompileError(sourceErrorInfo('SyntaxError', place.displayName, place.cellSource, compiled.syntaxErrors));
    }
    this.maps.register(fileName, compiled.positions, place.cellSource);
    const script = new vm.Script(compiled.javascript, { filename: fileName });
    return async () => {
      // Declared names are bound first, so the cell's strict-mode assignments find them.
      this.bindings.declare(compiled.declaredNames);
      if (!compiled.steppable) return this.step(() => script.runInContext(this.context) as unknown);
      // Evaluating a steppable script only makes the generator function (no cell code runs), so it
      // needs no breakOnSigint run: each of those starts and joins a watchdog thread.
      const generator = script.runInContext(this.context) as () => Generator<unknown, unknown, unknown>;
      return this.drive(generator(), this.signal());
    };
  }

  /** Runs a cell generator: each yielded value is awaited, and the next step runs in the breakOnSigint scope. */
  private async drive(generator: Generator<unknown, unknown, unknown>, signal: AbortSignal): Promise<unknown> {
    let step = this.step(() => generator.next());
    while (!step.done) {
      let resume: () => IteratorResult<unknown>;
      try {
        const value = await step.value;
        resume = () => generator.next(value);
      } catch (error) {
        resume = () => generator.throw(error);
      }
      if (signal.aborted) throw signal.reason;
      step = this.step(resume);
    }
    return step.value;
  }

  /** Runs `resume` inside the breakOnSigint scope and the gate. */
  private step<T>(resume: () => T): T {
    this.resume = resume;
    this.gate.before();
    try {
      return this.stepScript.runInContext(this.context, runOptions) as T;
    } finally {
      this.gate.after();
    }
  }
}
