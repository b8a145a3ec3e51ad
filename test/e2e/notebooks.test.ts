// Every notebook in notebooks/ runs clean, each asserting its own results:
// through `jupyter nbconvert --execute` with the installed kernelspec (as CI
// and headless users do), and through `tpu-kernel run` (no Jupyter at all).
// Where a notebook has checks of what its reader sees, both outputs get them.
import { spawnSync } from 'node:child_process';
import { mkdirSync, readdirSync } from 'node:fs';
import { join, resolve } from 'node:path';
import { beforeAll, describe, expect, it } from 'vitest';
import { CLI, installKernelspec, type InstalledKernelspec } from '../support/kernelspec.js';
import { executionProblems } from '../support/notebook-checks.js';
import { checkKernelBasics } from '../notebooks/kernel-basics-checks.js';

const NOTEBOOKS = readdirSync('notebooks').filter((name) => name.endsWith('.ipynb')).sort();
const OUTPUT = resolve('test/output/notebooks');
const TIMEOUT_MS = 300_000;
const CONTENT_CHECKS: Record<string, (executedPath: string) => void> = {
  '00-kernel-basics.ipynb': checkKernelBasics,
};
// vitest.config.ts keeps XLA:TPU out of the loop for tests; the TPU compiler notebook shows it.
const NOTEBOOK_ENV: Record<string, NodeJS.ProcessEnv> = {
  '04-tpu-compiler.ipynb': { TPU_KERNEL_TPU_COMPILE: 'on' },
};

describe('notebooks', () => {
  let spec: InstalledKernelspec;
  beforeAll(() => {
    spec = installKernelspec();
    mkdirSync(join(OUTPUT, 'run'), { recursive: true });
  });

  it('has the quickstart among them', () => {
    expect(NOTEBOOKS).toContain('01-quickstart.ipynb');
  });

  for (const name of NOTEBOOKS) {
    it(`jupyter nbconvert --execute runs ${name} clean`, () => {
      const run = spawnSync('/usr/bin/jupyter', [
        'nbconvert', '--to', 'notebook', '--execute', '--output-dir', OUTPUT,
        '--ExecutePreprocessor.timeout=600', join('notebooks', name),
      ], { encoding: 'utf8', env: { ...process.env, ...NOTEBOOK_ENV[name], JUPYTER_PATH: spec.jupyterPath, PYDEVD_DISABLE_FILE_VALIDATION: '1' }, timeout: TIMEOUT_MS });
      expect(run.status, run.stderr).toBe(0);
      expect(executionProblems(join(OUTPUT, name))).toEqual([]);
      CONTENT_CHECKS[name]?.(join(OUTPUT, name));
    }, TIMEOUT_MS);

    it(`tpu-kernel run runs ${name} clean`, () => {
      const output = join(OUTPUT, 'run', name);
      const run = spawnSync(process.execPath, [CLI, 'run', join('notebooks', name), '--output', output], { encoding: 'utf8', env: { ...process.env, ...NOTEBOOK_ENV[name] }, timeout: TIMEOUT_MS });
      expect(run.status, `${run.stdout}\n${run.stderr}`).toBe(0);
      expect(executionProblems(output)).toEqual([]);
      CONTENT_CHECKS[name]?.(output);
    }, TIMEOUT_MS);
  }
});
