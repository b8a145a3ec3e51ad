// Every notebook in notebooks/ runs clean, each asserting its own results:
// through `jupyter nbconvert --execute` with the installed kernelspec (as CI
// and headless users do), and through `tpu-kernel run` (no Jupyter at all).
import { spawnSync } from 'node:child_process';
import { mkdirSync, readdirSync } from 'node:fs';
import { join, resolve } from 'node:path';
import { beforeAll, describe, expect, it } from 'vitest';
import { CLI, installKernelspec, type InstalledKernelspec } from '../support/kernelspec.js';
import { executionProblems } from '../support/notebook-checks.js';

const NOTEBOOKS = readdirSync('notebooks').filter((name) => name.endsWith('.ipynb')).sort();
const OUTPUT = resolve('test/output/notebooks');
const TIMEOUT_MS = 300_000;

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
      ], { encoding: 'utf8', env: { ...process.env, JUPYTER_PATH: spec.jupyterPath, PYDEVD_DISABLE_FILE_VALIDATION: '1' }, timeout: TIMEOUT_MS });
      expect(run.status, run.stderr).toBe(0);
      expect(executionProblems(join(OUTPUT, name))).toEqual([]);
    }, TIMEOUT_MS);

    it(`tpu-kernel run runs ${name} clean`, () => {
      const output = join(OUTPUT, 'run', name);
      const run = spawnSync(process.execPath, [CLI, 'run', join('notebooks', name), '--output', output], { encoding: 'utf8', timeout: TIMEOUT_MS });
      expect(run.status, `${run.stdout}\n${run.stderr}`).toBe(0);
      expect(executionProblems(output)).toEqual([]);
    }, TIMEOUT_MS);
  }
});
