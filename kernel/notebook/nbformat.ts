// The subset of nbformat 4 that `tpu-kernel run` reads and writes, and the
// file conventions of Python's nbformat writer (indent 1, sorted keys,
// multi-line strings split into lists of lines) so that a notebook written
// here diffs cleanly against one written by nbconvert.
import { readFileSync, writeFileSync } from 'node:fs';
import type { MimeBundle } from '../language-session.js';

/** Multi-line text as nbformat stores it: one string, or a list of lines. */
export type MultilineString = string | string[];

export type Output =
  | { output_type: 'stream'; name: 'stdout' | 'stderr'; text: MultilineString }
  | { output_type: 'display_data'; data: MimeBundle; metadata: Record<string, unknown> }
  | { output_type: 'execute_result'; execution_count: number; data: MimeBundle; metadata: Record<string, unknown> }
  | { output_type: 'error'; ename: string; evalue: string; traceback: string[] };

export interface CodeCell {
  cell_type: 'code';
  id?: string;
  source: MultilineString;
  metadata: Record<string, unknown> & { tags?: string[] };
  execution_count: number | null;
  outputs: Output[];
}

export interface OtherCell {
  cell_type: 'markdown' | 'raw';
  id?: string;
  source: MultilineString;
  metadata: Record<string, unknown>;
  attachments?: Record<string, unknown>;
}

export type Cell = CodeCell | OtherCell;

export interface Notebook {
  nbformat: number;
  nbformat_minor: number;
  metadata: Record<string, unknown>;
  cells: Cell[];
}

export function joinLines(text: MultilineString): string {
  return Array.isArray(text) ? text.join('') : text;
}

/** nbformat's split_lines: 'a\nb' -> ['a\n', 'b']. */
export function splitLines(text: string): string[] {
  return text.match(/[^\n]*\n|[^\n]+$/g) ?? [];
}

export function readNotebook(path: string): Notebook {
  let text: string;
  try {
    text = readFileSync(path, 'utf8');
  } catch (e) {
    throw new Error(`notebook ${path}: cannot read it: ${(e as NodeJS.ErrnoException).code ?? (e as Error).message}`);
  }
  let parsed: unknown;
  try {
    parsed = JSON.parse(text);
  } catch (e) {
    throw new Error(`notebook ${path}: expected an nbformat 4 JSON file, could not parse it: ${(e as Error).message}`);
  }
  const nb = parsed as Partial<Notebook>;
  if (typeof nb !== 'object' || nb === null || nb.nbformat !== 4 || !Array.isArray(nb.cells)) {
    throw new Error(`notebook ${path}: expected nbformat 4 with a cells array, got nbformat ${String(nb?.nbformat)}`);
  }
  return nb as Notebook;
}

const isTextMime = (mime: string) => !mime.endsWith('json') && !mime.includes('+json');

/** Splits multi-line strings into lists of lines, as nbformat does on write. */
function splitForWrite(cell: Cell): Cell {
  const source = splitLines(joinLines(cell.source));
  if (cell.cell_type !== 'code') return { ...cell, source };
  const outputs = cell.outputs.map((out): Output => {
    if (out.output_type === 'stream') return { ...out, text: splitLines(joinLines(out.text)) };
    if (out.output_type === 'error') return out;
    const data = Object.fromEntries(Object.entries(out.data).map(([mime, value]) =>
      [mime, typeof value === 'string' && isTextMime(mime) ? splitLines(value) : value]));
    return { ...out, data };
  });
  return { ...cell, source, outputs };
}

/** JSON.stringify replacer that sorts object keys (nbformat writes sort_keys=True). */
function sortedKeys(_key: string, value: unknown): unknown {
  if (value === null || typeof value !== 'object' || Array.isArray(value)) return value;
  return Object.fromEntries(Object.entries(value as Record<string, unknown>).sort(([a], [b]) => (a < b ? -1 : a > b ? 1 : 0)));
}

export function writeNotebook(path: string, nb: Notebook): void {
  const out = { ...nb, cells: nb.cells.map(splitForWrite) };
  writeFileSync(path, JSON.stringify(out, sortedKeys, 1) + '\n');
}
