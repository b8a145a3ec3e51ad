// Reading request content fields with errors that name the field, the
// expected and the actual value (the dispatcher turns them into error replies).
import type { Content } from '../wire/message.js';

const describe = (value: unknown) => (value === undefined ? 'nothing' : JSON.stringify(value) ?? String(value));

export function stringField(content: Content, msgType: string, field: string): string {
  const value = content[field];
  if (typeof value !== 'string') throw new TypeError(`${msgType}: ${field} must be a string, got ${describe(value)}`);
  return value;
}

/** cursor_pos in code points, 0..length; the end of the code when absent. */
export function cursorField(content: Content, msgType: string, code: string): number {
  const length = [...code].length;
  const value = content.cursor_pos;
  if (value === undefined || value === null) return length;
  if (typeof value !== 'number' || !Number.isInteger(value) || value < 0 || value > length) {
    throw new RangeError(`${msgType}: cursor_pos must be an integer from 0 to ${length} (code points of code), got ${describe(value)}`);
  }
  return value;
}
