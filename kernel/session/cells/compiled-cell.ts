// What compiling a cell gives: the script to run, or its syntax errors. Apart from
// compile-cell.ts so that the emitters it calls can name these without importing it.
import type { PiecePositions } from './cell-source-maps.js';

export interface CompiledCell {
  javascript: string;
  positions: PiecePositions;
  /** Names the cell assigns on the global object. */
  declaredNames: string[];
  /** The script evaluates to a generator function to drive step by step (see top-level-rewrite.ts), else to a promise. */
  steppable: boolean;
}

/** A syntax error at a 1-based line and column of the cell. */
export interface CellSyntaxError {
  message: string;
  line: number;
  column: number;
}

export type CompileResult = CompiledCell | { syntaxErrors: CellSyntaxError[] };
