// `jupyter console --kernel tpu-ts` driven through a pipe (simple prompt).
import { spawnSync } from 'node:child_process';
import { mkdtempSync, rmSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { afterAll, expect, it } from 'vitest';
import { KERNEL_CLI } from '../support/kernel-client.mjs';

const prefix = mkdtempSync(join(tmpdir(), 'tpu-kernel-console-'));
afterAll(() => rmSync(prefix, { recursive: true, force: true }));

it('runs cells in jupyter console', () => {
  expect(spawnSync(process.execPath, [KERNEL_CLI, 'install', '--prefix', prefix]).status).toBe(0);
  const run = spawnSync('/usr/bin/jupyter', ['console', '--kernel', 'tpu-ts', '--simple-prompt'], {
    input: "console.log('hello from console')\n6*7\nthrow new Error('boom')\n",
    encoding: 'utf8',
    env: { ...process.env, JUPYTER_PATH: join(prefix, 'share', 'jupyter'), JUPYTER_DATA_DIR: join(prefix, 'data'), PYDEVD_DISABLE_FILE_VALIDATION: '1' },
    timeout: 60_000,
  });
  expect(run.status, run.stderr).toBe(0);
  expect(run.stdout).toMatch(/tpu-kernel: TypeScript .*cells/); // the kernel's banner
  expect(run.stdout).toMatch(/In \[1\]: hello from console\n/);
  expect(run.stdout).toMatch(/Out\[2\]: 42\n/);
  expect(run.stdout + run.stderr).toContain('Error: boom'); // tracebacks go to stderr
  expect(run.stdout).toContain('Shutting down kernel');
}, 90_000);
