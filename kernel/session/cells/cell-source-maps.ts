// Stack traces in the lines and columns the user typed. Each compiled piece of
// a cell runs under an internal file name `cell-<n>.ts#<serial>`; its source
// map is kept here, and stack frames naming it are rewritten to `cell-<n>.ts:L:C`
// in cell coordinates. Maps are bounded: a long session keeps the newest ones,
// and pieces that may define functions (callable long after their cell ran)
// far longer than the rest; a frame of a forgotten piece keeps its generated
// line and column.
import { SourceMap } from 'node:module';

/** Where a generated 1-based line and column of a piece came from in its (padded) source. */
export interface PiecePositions {
  locate(line: number, column: number): { line: number; column: number } | undefined;
}

/** A source map's positions, parsed on first use: most pieces never appear in a stack trace. */
export class SourceMapPositions implements PiecePositions {
  private map: SourceMap | undefined;

  constructor(private readonly mapText: string) {}

  locate(line: number, column: number): { line: number; column: number } | undefined {
    this.map ??= new SourceMap(JSON.parse(this.mapText));
    const entry = this.map.findEntry(line - 1, column - 1) as { originalLine?: number; originalColumn?: number } | undefined;
    if (entry?.originalLine === undefined || entry.originalColumn === undefined) return undefined;
    return { line: entry.originalLine + 1, column: entry.originalColumn + 1 };
  }
}

interface CompiledPiece {
  positions: PiecePositions;
  displayName: string;
  source: string;
}

/** Pieces kept: those whose cell may define functions, and the others (frames of these appear only while their cell runs). */
const KEPT_WITH_FUNCTIONS = 2000;
const KEPT_OTHERS = 100;
/** Arrow functions, functions, classes, methods and accessors; false positives (`if (a) {`) only keep a map longer. */
const MAY_DEFINE_FUNCTIONS = /=>|\bfunction\b|\bclass\b|\)\s*(:[^{;]*)?\{/;

/** Matches a frame location of a compiled cell piece: name, 1-based line and column. */
const CELL_LOCATION = /(cell-\d+\.ts|expression\.ts)#\d+:(\d+):(\d+)/g;

export interface CellLocation {
  displayName: string;
  line: number;
  column: number;
  source: string;
}

export class CellSourceMaps {
  private readonly withFunctions = new Map<string, CompiledPiece>();
  private readonly others = new Map<string, CompiledPiece>();
  private serial = 0;

  /** A fresh internal file name for one compiled piece of the cell `displayName`. */
  nextFileName(displayName: string): string {
    return `${displayName}#${++this.serial}`;
  }

  /** `source` is the whole cell, for code frames. */
  register(fileName: string, positions: PiecePositions, source: string): void {
    const displayName = fileName.replace(/#\d+$/, '');
    const [pieces, limit] = MAY_DEFINE_FUNCTIONS.test(source) ? [this.withFunctions, KEPT_WITH_FUNCTIONS] : [this.others, KEPT_OTHERS];
    pieces.set(fileName, { positions, displayName, source });
    if (pieces.size > limit) pieces.delete(pieces.keys().next().value!);
  }

  /** How many pieces' maps are kept. */
  get size(): number {
    return this.withFunctions.size + this.others.size;
  }

  /** Maps a generated 1-based line/column of a piece to the cell's own. */
  locate(fileName: string, line: number, column: number): CellLocation | undefined {
    const piece = this.withFunctions.get(fileName) ?? this.others.get(fileName);
    const place = piece?.positions.locate(line, column);
    return place && { displayName: piece!.displayName, ...place, source: piece!.source };
  }

  /** Rewrites every cell location in a V8 stack string; returns it and the first cell location. */
  mapStack(stack: string): { stack: string; first?: CellLocation } {
    let first: CellLocation | undefined;
    const mapped = stack.replace(CELL_LOCATION, (match, _name: string, line: string, column: string) => {
      const fileName = match.slice(0, match.length - line.length - column.length - 2);
      const location = this.locate(fileName, Number(line), Number(column));
      if (!location) return match.replace(/#\d+/, '');
      first ??= location;
      return `${location.displayName}:${location.line}:${location.column}`;
    });
    return { stack: mapped, first };
  }
}
