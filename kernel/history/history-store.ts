// Input history as a JSON-lines file (SQLite is not available), kept across
// kernel restarts: each kernel process is a new session number.
import { mkdirSync, openSync, readFileSync, writeSync } from 'node:fs';
import { homedir } from 'node:os';
import { dirname, join } from 'node:path';
import { globToRegExp } from './glob.js';

export interface HistoryEntry {
  session: number;
  line: number;
  source: string;
}

/** history_reply tuples: [session, line, input] or [session, line, [input, output]]. */
export type HistoryTuple = [number, number, string | [string, null]];

export function defaultHistoryPath(env: NodeJS.ProcessEnv = process.env): string {
  const dataDir = env.JUPYTER_DATA_DIR ?? env.XDG_DATA_HOME ?? join(homedir(), '.local', 'share');
  return join(dataDir, 'tpu-kernel', 'history.jsonl');
}

export class HistoryStore {
  private readonly entries: HistoryEntry[] = [];
  readonly session: number;
  /** Opened at the first entry and kept: making the folder and opening the file for each cell cost 0.3 ms of its round trip. */
  private file: number | undefined;

  constructor(private readonly path: string, private readonly log: (text: string) => void) {
    try {
      for (const line of readFileSync(path, 'utf8').split('\n')) {
        if (line.trim() === '') continue;
        try {
          const entry = JSON.parse(line) as HistoryEntry;
          if (Number.isInteger(entry.session) && Number.isInteger(entry.line) && typeof entry.source === 'string') this.entries.push(entry);
        } catch {
          log(`history ${path}: skipped a line that is not JSON`);
        }
      }
    } catch (e) {
      if ((e as NodeJS.ErrnoException).code !== 'ENOENT') log(`history ${path} unreadable: ${(e as Error).message}`);
    }
    this.session = this.entries.reduce((max, e) => Math.max(max, e.session), 0) + 1;
  }

  append(line: number, source: string): void {
    const entry = { session: this.session, line, source };
    this.entries.push(entry);
    try {
      if (this.file === undefined) {
        mkdirSync(dirname(this.path), { recursive: true });
        this.file = openSync(this.path, 'a');
      }
      writeSync(this.file, JSON.stringify(entry) + '\n');
    } catch (e) {
      this.log(`history ${this.path} not written: ${(e as Error).message}`);
    }
  }

  /** The last n entries (all when n is undefined). */
  tail(n: number | undefined, unique: boolean): HistoryEntry[] {
    return lastN(unique ? dedupe(this.entries) : this.entries, n);
  }

  /** Lines start <= line < stop of a session; session <= 0 counts back from this one (0 = current). */
  range(session: number, start: number, stop: number | undefined): HistoryEntry[] {
    const target = session <= 0 ? this.session + session : session;
    return this.entries.filter((e) => e.session === target && e.line >= start && (stop === undefined || e.line < stop));
  }

  /** Entries whose source matches the glob pattern; the last n matches. */
  search(pattern: string, n: number | undefined, unique: boolean): HistoryEntry[] {
    const regexp = globToRegExp(pattern);
    const matches = this.entries.filter((e) => regexp.test(e.source));
    return lastN(unique ? dedupe(matches) : matches, n);
  }
}

const lastN = (entries: HistoryEntry[], n: number | undefined) => (n === undefined ? entries : entries.slice(Math.max(0, entries.length - n)));

/** Keeps the latest occurrence of each source, in order. */
function dedupe(entries: HistoryEntry[]): HistoryEntry[] {
  const latest = new Map<string, HistoryEntry>();
  for (const entry of entries) {
    latest.delete(entry.source);
    latest.set(entry.source, entry);
  }
  return [...latest.values()];
}
