// Compiles pieces of a cell for the persistent context and runs them. A piece
// sits at a line and column of its cell; it is padded to that place before
// compiling so syntax errors and source-mapped stack frames use cell coordinates.
import vm from 'node:vm';
import { CellCompileError, sourceErrorInfo } from './cell-errors.js';
import type { CellSourceMaps } from './cell-source-maps.js';
import { compileCell } from './compile-cell.js';
import type { CompiledCode } from './magics/magic.js';

export interface CodePlace {
  /** Name frames and errors use for the cell, e.g. `cell-3.ts`. */
  displayName: string;
  /** The whole cell, for code frames in errors. */
  cellSource: string;
  /** 1-based line and column of the piece in the cell. */
  line: number;
  column: number;
}

export class CellRunner {
  constructor(
    private readonly context: vm.Context,
    private readonly maps: CellSourceMaps,
  ) {}

  /** Compiles a piece; throws CellCompileError (a SyntaxError outcome) when it does not parse. */
  compile(code: string, place: CodePlace): CompiledCode {
    const padded = '\n'.repeat(place.line - 1) + ' '.repeat(place.column - 1) + code;
    const fileName = this.maps.nextFileName(place.displayName);
    const compiled = compileCell(padded, fileName);
    if ('syntaxErrors' in compiled) {
      throw new CellCompileError(sourceErrorInfo('SyntaxError', place.displayName, place.cellSource, compiled.syntaxErrors));
    }
    this.maps.register(fileName, compiled.sourceMap, place.cellSource);
    const script = new vm.Script(compiled.javascript, { filename: fileName });
    return () => {
      // Declared names become global properties first, so strict-mode assignments find them.
      for (const name of compiled.declaredNames) if (!(name in this.context)) this.context[name] = undefined;
      return script.runInContext(this.context, { breakOnSigint: true }) as Promise<unknown>;
    };
  }
}
