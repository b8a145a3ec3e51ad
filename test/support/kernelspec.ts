// Installs the tpu-ts kernelspec into a temporary prefix with the package's own
// installer (`tpu-kernel install --prefix DIR`), as a user would, so that tests
// launch the kernel exactly as Jupyter does.
import { execFileSync } from 'node:child_process';
import { chmodSync, mkdtempSync, readFileSync, writeFileSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join, resolve } from 'node:path';

export const KERNEL_NAME = 'tpu-ts';
/** The built CLI (npm test builds before vitest runs). */
export const CLI = resolve('dist/kernel/cli.js');

export interface InstalledKernelspec {
  /** The folder to put on JUPYTER_PATH. */
  jupyterPath: string;
  kernelJson: string;
}

export function installKernelspec(env: Record<string, string> = {}): InstalledKernelspec {
  const prefix = mkdtempSync(join(tmpdir(), 'tpu-kernelspec-'));
  chmodSync(prefix, 0o755); // readable by the non-root user of the hosting tests
  execFileSync(process.execPath, [CLI, 'install', '--prefix', prefix], { stdio: 'pipe' });
  const jupyterPath = join(prefix, 'share', 'jupyter');
  const kernelJson = join(jupyterPath, 'kernels', KERNEL_NAME, 'kernel.json');
  if (Object.keys(env).length > 0) {
    const spec = JSON.parse(readFileSync(kernelJson, 'utf8')) as { env?: Record<string, string> };
    spec.env = { ...spec.env, ...env };
    writeFileSync(kernelJson, JSON.stringify(spec, null, 2));
  }
  return { jupyterPath, kernelJson };
}
