// Prints a log file (a server's, a kernel's) after each failing test, so CI
// output shows what the other process saw.
import { existsSync, readFileSync } from 'node:fs';
import { afterEach } from 'vitest';

export function printLogOnFailure(label: string, logPath: () => string | undefined): void {
  afterEach(({ task }) => {
    const path = logPath();
    if (task.result?.state !== 'fail' || !path || !existsSync(path)) return;
    console.error(`----- ${label} log (${path}) -----\n${readFileSync(path, 'utf8')}\n----- end of ${label} log -----`);
  });
}
