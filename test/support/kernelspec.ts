// Installs the tpu-ts kernelspec into a temporary prefix with the package's own
// installer (`tpu-kernel install --prefix DIR`), as a user would, so that tests
// launch the kernel exactly as Jupyter does.
import { execFileSync } from 'node:child_process';
import { chmodSync, mkdtempSync } from 'node:fs';
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

/** `env` goes into the kernelspec's env block (`install --env KEY=VALUE`). */
export function installKernelspec(env: Record<string, string> = {}): InstalledKernelspec {
  const prefix = mkdtempSync(join(tmpdir(), 'tpu-kernelspec-'));
  chmodSync(prefix, 0o755); // readable by the non-root user of the hosting tests
  const envArgs = Object.entries(env).flatMap(([key, value]) => ['--env', `${key}=${value}`]);
  execFileSync(process.execPath, [CLI, 'install', '--prefix', prefix, ...envArgs], { stdio: 'pipe' });
  const jupyterPath = join(prefix, 'share', 'jupyter');
  return { jupyterPath, kernelJson: join(jupyterPath, 'kernels', KERNEL_NAME, 'kernel.json') };
}
