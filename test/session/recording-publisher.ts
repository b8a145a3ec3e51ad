// A Publisher that records what a session sends, and a session driver that
// numbers cells like the protocol side does. No sockets.
import { mkdtempSync } from 'node:fs';
import { tmpdir } from 'node:os';
import path from 'node:path';
import type { ExecuteOutcome, LanguageSession, MimeBundle, Publisher, SessionFactory, SessionOptions } from '../../kernel/language-session.js';
import { createSession } from '../../kernel/session/index.js';

export type Recorded =
  | { kind: 'stream'; name: 'stdout' | 'stderr'; text: string }
  | { kind: 'display'; data: MimeBundle; displayId?: string }
  | { kind: 'update'; data: MimeBundle; displayId: string }
  | { kind: 'clear'; wait: boolean }
  | { kind: 'input'; prompt: string; password: boolean };

export class RecordingPublisher implements Publisher {
  readonly outputs: Recorded[] = [];
  /** Answers given to input() requests, in order. */
  answers: string[] = [];

  stream(name: 'stdout' | 'stderr', text: string): void {
    this.outputs.push({ kind: 'stream', name, text });
  }
  display(data: MimeBundle, _metadata?: Record<string, unknown>, displayId?: string): void {
    this.outputs.push({ kind: 'display', data, displayId });
  }
  updateDisplay(data: MimeBundle, _metadata: Record<string, unknown> | undefined, displayId: string): void {
    this.outputs.push({ kind: 'update', data, displayId });
  }
  clearOutput(wait: boolean): void {
    this.outputs.push({ kind: 'clear', wait });
  }
  input(prompt: string, options?: { password?: boolean }): Promise<string> {
    this.outputs.push({ kind: 'input', prompt, password: Boolean(options?.password) });
    const answer = this.answers.shift();
    return answer === undefined ? new Promise(() => {}) : Promise.resolve(answer);
  }
  /** All stream text of one name, concatenated. */
  text(name: 'stdout' | 'stderr'): string {
    return this.outputs.flatMap((o) => (o.kind === 'stream' && o.name === name ? [o.text] : [])).join('');
  }
}

export interface CellRun {
  outcome: ExecuteOutcome;
  publisher: RecordingPublisher;
}

export class SessionDriver {
  readonly session: LanguageSession;
  count = 0;

  /**
   * `factory`: the session from source by default; tests that start the device thread pass the
   * built one. `options`: the session's optional settings (backgroundWarmUp).
   */
  constructor(readonly cwd = mkdtempSync(path.join(tmpdir(), 'tpu-session-')), factory: SessionFactory = createSession, options: Pick<SessionOptions, 'backgroundWarmUp'> = {}) {
    this.session = factory({ cwd, comms: { registerTarget() {}, open() { throw new Error('no comms in tests'); } }, ...options });
  }

  /** Starts a cell; its publisher records while it runs. */
  start(code: string, answers: string[] = []): { outcome: Promise<ExecuteOutcome>; publisher: RecordingPublisher } {
    const publisher = new RecordingPublisher();
    publisher.answers = answers;
    const outcome = this.session.execute(code, { executionCount: ++this.count, silent: false, storeHistory: true, allowStdin: true, publisher });
    return { outcome, publisher };
  }

  /** Returns once the session's work after a reply is done too (the history), as before a kernel reads its next request. */
  async run(code: string, answers: string[] = []): Promise<CellRun> {
    const { outcome, publisher } = this.start(code, answers);
    const run = { outcome: await outcome, publisher };
    await new Promise((resolve) => setImmediate(resolve));
    return run;
  }

  /** Runs a cell that must succeed; returns its text/plain result (undefined when none). */
  async value(code: string): Promise<string | undefined> {
    const { outcome } = await this.run(code);
    if (outcome.status !== 'ok') throw new Error(`cell failed: ${outcome.ename}: ${outcome.evalue}\n${outcome.traceback.join('\n')}`);
    return outcome.result?.data['text/plain'] as string | undefined;
  }

  /** Shift+Tab with the cursor at the end of `code`: the text/plain inspect reply, which must be found. */
  async inspectText(code: string): Promise<string> {
    const { found, data } = await this.session.inspect(code, [...code].length, 0);
    if (!found) throw new Error(`inspect found nothing for ${JSON.stringify(code)}`);
    return data['text/plain'] as string;
  }

  shutdown(): Promise<void> {
    return this.session.shutdown(false);
  }
}
