// JavaScript assembled from pieces of a cell's source and a little generated text, with a
// map from every generated position back to the source. A piece copied from the source keeps
// its own positions (so a stack frame inside it maps exactly, column by column); generated
// text stands for the source position it was written for.
import type { PiecePositions } from './cell-source-maps.js';

/** A replacement of source [start, end) by `text`; `text` undefined blanks the range (spaces, its line breaks kept). */
export interface Edit {
  start: number;
  end: number;
  text?: string;
}

/** Maps 1-based generated lines and columns back to the source's. */
export class SplicedPositions implements PiecePositions {
  private generatedLines: number[] | undefined;
  private sourceLines: number[] | undefined;

  /** `segments`: pairs (generated offset, source offset); `copied[i]` whether segment i is copied text (else generated). */
  constructor(
    private readonly generated: string,
    private readonly source: string,
    private readonly segments: number[],
    private readonly copied: boolean[],
  ) {}

  locate(line: number, column: number): { line: number; column: number } | undefined {
    this.generatedLines ??= lineStarts(this.generated);
    this.sourceLines ??= lineStarts(this.source);
    const lineStart = this.generatedLines[line - 1];
    if (lineStart === undefined) return undefined;
    const offset = lineStart + column - 1;
    // the last segment starting at or before the offset
    let lo = 0;
    let hi = this.copied.length - 1;
    if (hi < 0 || this.segments[0]! > offset) return undefined;
    while (lo < hi) {
      const mid = (lo + hi + 1) >> 1;
      if (this.segments[2 * mid]! <= offset) lo = mid;
      else hi = mid - 1;
    }
    const generatedStart = this.segments[2 * lo]!;
    const sourceStart = this.segments[2 * lo + 1]!;
    const sourceOffset = this.copied[lo] ? sourceStart + offset - generatedStart : sourceStart;
    return positionOf(this.sourceLines, sourceOffset);
  }
}

export class SplicedText {
  private readonly parts: string[] = [];
  private length = 0;
  private readonly segments: number[] = [];
  private readonly copied: boolean[] = [];

  /** `edits`: sorted by start, not overlapping; each applies where a copy covers it. */
  constructor(private readonly source: string, private readonly edits: readonly Edit[]) {}

  /** Generated text, standing for source position `at`. */
  insert(text: string, at: number): void {
    if (!text) return;
    this.segment(at, false);
    this.parts.push(text);
    this.length += text.length;
  }

  /** The source's [from, to) with the edits inside it applied; an insertion at `to` is this copy's, one at `from` the copy's before. */
  copy(from: number, to: number): void {
    let position = from;
    for (let i = this.firstEditFrom(from); i < this.edits.length; i++) {
      const edit = this.edits[i]!;
      const insertion = edit.start === edit.end;
      if (edit.start > to || (edit.start === to && !insertion)) break;
      if (insertion && edit.start === from) continue;
      this.copyPlain(position, edit.start);
      if (edit.text === undefined) this.copyPlain(edit.start, edit.end, blank(this.source.slice(edit.start, edit.end)));
      else this.insert(edit.text, edit.start);
      position = edit.end;
    }
    this.copyPlain(position, to);
  }

  /** The line breaks of the source's [from, to) alone: what is left out keeps the lines after it in place. */
  skip(from: number, to: number): void {
    const breaks = this.source.slice(from, to).replace(/[^\n]/g, '');
    this.insert(breaks, from);
  }

  text(): string {
    return this.parts.join('');
  }

  positions(text: string): SplicedPositions {
    return new SplicedPositions(text, this.source, this.segments, this.copied);
  }

  private copyPlain(from: number, to: number, text = this.source.slice(from, to)): void {
    if (to <= from) return;
    this.segment(from, true);
    this.parts.push(text);
    this.length += text.length;
  }

  private segment(sourceOffset: number, copied: boolean): void {
    this.segments.push(this.length, sourceOffset);
    this.copied.push(copied);
  }

  private firstEditFrom(from: number): number {
    let lo = 0;
    let hi = this.edits.length;
    while (lo < hi) {
      const mid = (lo + hi) >> 1;
      if (this.edits[mid]!.start < from) lo = mid + 1;
      else hi = mid;
    }
    return lo;
  }
}

/** Spaces in place of every character but line breaks. */
export function blank(text: string): string {
  return text.replace(/[^\r\n\u2028\u2029]/g, ' ');
}

function lineStarts(text: string): number[] {
  const starts = [0];
  for (let i = text.indexOf('\n'); i >= 0; i = text.indexOf('\n', i + 1)) starts.push(i + 1);
  return starts;
}

function positionOf(lineStartOffsets: number[], offset: number): { line: number; column: number } {
  let lo = 0;
  let hi = lineStartOffsets.length - 1;
  while (lo < hi) {
    const mid = (lo + hi + 1) >> 1;
    if (lineStartOffsets[mid]! <= offset) lo = mid;
    else hi = mid - 1;
  }
  return { line: lo + 1, column: offset - lineStartOffsets[lo]! + 1 };
}
