// Snapshots of the service's virtual files (history files, the cell) that tell the service
// what changed since the previous text: it then re-parses incrementally, reusing the syntax
// of the unchanged text (an executed cell appends to the last history file; without a change
// range every new program would parse that whole file again).
import type ts from 'typescript';

export class TextSnapshot implements ts.IScriptSnapshot {
  constructor(readonly text: string) {}

  getText(start: number, end: number): string {
    return start === 0 && end === this.text.length ? this.text : this.text.substring(start, end);
  }

  getLength(): number {
    return this.text.length;
  }

  /** The span of `old` that was replaced (between the common prefix and suffix), and the new length there. */
  getChangeRange(old: ts.IScriptSnapshot): ts.TextChangeRange | undefined {
    if (!(old instanceof TextSnapshot)) return undefined;
    const before = old.text, after = this.text;
    const limit = Math.min(before.length, after.length);
    let prefix = 0;
    while (prefix < limit && before.charCodeAt(prefix) === after.charCodeAt(prefix)) prefix++;
    let suffix = 0;
    while (suffix < limit - prefix && before.charCodeAt(before.length - 1 - suffix) === after.charCodeAt(after.length - 1 - suffix)) suffix++;
    return { span: { start: prefix, length: before.length - prefix - suffix }, newLength: after.length - prefix - suffix };
  }
}
