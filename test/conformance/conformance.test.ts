// Runs Debian's jupyter_kernel_test suite (pytest) against the installed kernelspec.
import { spawnSync } from 'node:child_process';
import { mkdtempSync, rmSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { fileURLToPath } from 'node:url';
import { afterAll, expect, it } from 'vitest';
import { KERNEL_CLI } from '../support/kernel-client.mjs';

const prefix = mkdtempSync(join(tmpdir(), 'tpu-kernel-conformance-'));
afterAll(() => rmSync(prefix, { recursive: true, force: true }));

it('passes jupyter_kernel_test', () => {
  const install = spawnSync(process.execPath, [KERNEL_CLI, 'install', '--prefix', prefix], { encoding: 'utf8' });
  expect(install.status, install.stderr).toBe(0);
  const suite = fileURLToPath(new URL('./test_tpu_kernel.py', import.meta.url));
  const run = spawnSync('/usr/bin/python3', ['-m', 'pytest', '-q', '-p', 'no:cacheprovider', suite], {
    encoding: 'utf8',
    env: {
      ...process.env,
      JUPYTER_PATH: join(prefix, 'share', 'jupyter'),
      JUPYTER_DATA_DIR: join(prefix, 'data'),
      PYDEVD_DISABLE_FILE_VALIDATION: '1',
    },
    timeout: 120_000,
  });
  const report = `${run.stdout}\n${run.stderr}`;
  expect(run.status, report).toBe(0);
  expect(report).toMatch(/\d+ passed/);
  expect(report).not.toMatch(/\d+ (failed|errors?)\b/);
}, 150_000);
