// Splits a cell into runs of code and `%magic args` lines, in order, keeping
// each piece's line and column in the cell so errors and the language service
// stay in cell coordinates.
import type { Magic } from './magic.js';
import { magicLineStarts } from './magic-line-starts.js';

// `%%name` (IPython's cell-magic spelling) is read as `%name`: alone on its line, a magic
// that takes the cell body times / runs the rest of the cell.
const MAGIC_LINE = /^([ \t]*)(%%?)([A-Za-z_][\w-]*)(?:([ \t]+)(.*?))?[ \t]*$/;

/** A magic line with nothing but options (`-n 10 -r 3`) or nothing at all. */
const ONLY_OPTIONS = /^(\s*-\w+(\s+[^-\s]\S*)?)*\s*$/;

export type CellSegment =
  | { kind: 'code'; code: string; line: number; column: number }
  | { kind: 'magic'; name: string; args: string; line: number; column: number; argsColumn: number };

export function parseMagicLine(text: string): { name: string; args: string; column: number; argsColumn: number } | undefined {
  const match = MAGIC_LINE.exec(text);
  if (!match) return undefined;
  const [, indent, percent, name, gap = '', args = ''] = match;
  return { name, args, column: indent.length + 1, argsColumn: indent.length + percent.length + name.length + gap.length + 1 };
}

/** A line that could be a magic line: `%` first after blanks (most cells have none, and need no lexing). */
const MAY_HAVE_MAGIC = /^[ \t]*%/m;

/** Each line's magic, for lines that are magic lines: at a line start outside strings, template literals and comments. */
export function magicLines(source: string): (ReturnType<typeof parseMagicLine>)[] {
  if (!MAY_HAVE_MAGIC.test(source)) return new Array<undefined>(source.split('\n').length).fill(undefined);
  return magicLineStarts(source, parseMagicLine);
}

export function splitCell(source: string, magics: ReadonlyMap<string, Magic>): CellSegment[] {
  // Most cells: one piece of code, split and joined again by nothing (a cell is split several times).
  if (!MAY_HAVE_MAGIC.test(source)) return source.trim() ? [{ kind: 'code', code: source, line: 1, column: 1 }] : [];
  const lines = source.split('\n');
  const lineMagics = magicLines(source);
  const segments: CellSegment[] = [];
  let code: string[] = [];
  let codeStart = 1;
  const flush = () => {
    if (code.some((l) => l.trim())) segments.push({ kind: 'code', code: code.join('\n'), line: codeStart, column: 1 });
    code = [];
  };
  for (let i = 0; i < lines.length; i++) {
    const magic = lineMagics[i];
    if (!magic) {
      if (!code.length) codeStart = i + 1;
      code.push(lines[i]);
      continue;
    }
    flush();
    if (magics.get(magic.name)?.takesCellBody && ONLY_OPTIONS.test(magic.args) && i + 1 < lines.length) {
      const args = [magic.args, ...lines.slice(i + 1)].join('\n');
      segments.push({ kind: 'magic', name: magic.name, args, line: i + 1, column: magic.column, argsColumn: magic.argsColumn });
      return segments;
    }
    segments.push({ kind: 'magic', name: magic.name, args: magic.args, line: i + 1, column: magic.column, argsColumn: magic.argsColumn });
  }
  flush();
  return segments;
}

/**
 * The cell as the language service sees it: magic lines blanked with spaces
 * (offsets unchanged), except the code in the args of magics whose args are code.
 */
export function maskMagics(source: string, magics: ReadonlyMap<string, Magic>): string {
  if (!MAY_HAVE_MAGIC.test(source)) return source;
  const lineMagics = magicLines(source);
  return source.split('\n').map((line, i) => {
    const magic = lineMagics[i];
    if (!magic) return line;
    const known = magics.get(magic.name);
    // Options (`%timeit -n 3`) are not code: checked as TypeScript they were errors.
    const keep = known?.argsAreCode ? magic.argsColumn - 1 + (known.codeOffset?.(magic.args) ?? 0) : line.length;
    return ' '.repeat(keep) + line.slice(keep);
  }).join('\n');
}
