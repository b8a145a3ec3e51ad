// Sessions of the built kernel, for tests whose cells make tensors (the runtime's device thread is
// a real .js worker file): each in a directory of its own, its device reset and the session shut
// down after the tests of the file (or describe) that asked for them.
import { mkdtempSync } from 'node:fs';
import { tmpdir } from 'node:os';
import path from 'node:path';
import { afterAll } from 'vitest';
import type { SessionFactory, SessionOptions } from '../../kernel/language-session.js';
import { SessionDriver } from './recording-publisher.js';

const built = (await import(path.resolve('dist/kernel/session/index.js'))) as { createSession: SessionFactory };

/** The three rewrites a cell's tensor operators get, by the magic line that picks them. */
export const REWRITE_MODES = [
  ['dispatched, before the language service is built', ''],
  ['dispatched, %typecheck off', '%typecheck off'],
  ['typed, %typecheck error', '%typecheck error'],
] as const;

/** A maker of fresh built sessions named `prefix...` (with `options`); call it where afterAll may be registered. */
export function builtSessions(prefix: string, options: Pick<SessionOptions, 'backgroundWarmUp'> = {}): () => SessionDriver {
  const drivers: SessionDriver[] = [];
  afterAll(async () => {
    for (const driver of drivers) {
      await driver.value('await tpu.reset()');
      await driver.shutdown();
    }
  });
  return () => {
    const driver = new SessionDriver(mkdtempSync(path.join(tmpdir(), prefix)), built.createSession, options);
    drivers.push(driver);
    return driver;
  };
}
