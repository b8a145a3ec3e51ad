// jupyter console: `name?` runs at once (is_complete says complete) and shows the help,
// `exit` ends the session (the 'ask_exit' payload) without running the lines after it.
import { spawnSync } from 'node:child_process';
import { mkdtempSync, rmSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { afterAll, expect, it } from 'vitest';
import { KERNEL_CLI } from '../support/kernel-client.mjs';

const prefix = mkdtempSync(join(tmpdir(), 'tpu-kernel-console-'));
afterAll(() => rmSync(prefix, { recursive: true, force: true }));

it('answers name? and ends on exit in jupyter console', () => {
  expect(spawnSync(process.execPath, [KERNEL_CLI, 'install', '--prefix', prefix]).status).toBe(0);
  const run = spawnSync('/usr/bin/jupyter', ['console', '--kernel', 'tpu-ts', '--simple-prompt'], {
    input: 'tpu.zeros?\n6*7\nexit\n7*8\n',
    encoding: 'utf8',
    env: { ...process.env, JUPYTER_PATH: join(prefix, 'share', 'jupyter'), JUPYTER_DATA_DIR: join(prefix, 'data'), PYDEVD_DISABLE_FILE_VALIDATION: '1' },
    timeout: 60_000,
  });
  expect(run.status, run.stderr).toBe(0);
  expect(run.stdout).toMatch(/zeros\(shape: readonly number\[\]/); // the help page
  expect(run.stdout).toMatch(/Out\[\d\]: 42\n/);
  expect(run.stdout).not.toContain('56'); // nothing after exit ran
  expect(run.stdout).toContain('Shutting down kernel');
}, 90_000);
