// `tpu-kernel install`: writes the tpu-ts kernelspec (kernel.json + logos)
// into the user's, the Python environment's or a given prefix's Jupyter data dir.
import { execFileSync } from 'node:child_process';
import { accessSync, constants, mkdirSync, readFileSync, writeFileSync } from 'node:fs';
import { homedir } from 'node:os';
import { delimiter, join } from 'node:path';
import { fileURLToPath } from 'node:url';
import { logoPng } from './png.js';

export const KERNEL_NAME = 'tpu-ts';

export type InstallTarget = { kind: 'user' } | { kind: 'sys-prefix' } | { kind: 'prefix'; dir: string };

export interface InstallOptions {
  target: InstallTarget;
  /** Extra environment settings for the kernel process (kernel.json's env block). */
  env?: Record<string, string>;
}

export function kernelSpec(env: Record<string, string> = {}) {
  const cli = fileURLToPath(new URL('../cli.js', import.meta.url));
  return {
    argv: [process.execPath, cli, '--connection-file', '{connection_file}'],
    display_name: 'TypeScript (TPU)',
    language: 'typescript',
    interrupt_mode: 'message',
    // Node's experimental-feature warnings would otherwise land in notebook stderr.
    env: { NODE_NO_WARNINGS: '1', ...env },
    metadata: { debugger: false },
  };
}

function userDataDir(): string {
  return process.env.JUPYTER_DATA_DIR ?? join(process.env.XDG_DATA_HOME ?? join(homedir(), '.local', 'share'), 'jupyter');
}

/** sys.prefix of the Python that runs `jupyter` (found on PATH, read from its shebang). */
function jupyterPythonPrefix(): string {
  for (const dir of (process.env.PATH ?? '').split(delimiter)) {
    const jupyter = join(dir, 'jupyter');
    try {
      accessSync(jupyter, constants.X_OK);
    } catch {
      continue;
    }
    const shebang = /^#!\s*(\S+)/.exec(readFileSync(jupyter, 'utf8').split('\n', 1)[0]!);
    if (!shebang) break;
    return execFileSync(shebang[1]!, ['-c', 'import sys; print(sys.prefix)'], { encoding: 'utf8' }).trim();
  }
  throw new Error('install --sys-prefix: no `jupyter` script with a Python shebang found on PATH; use --prefix DIR instead');
}

export function kernelsDir(target: InstallTarget): string {
  switch (target.kind) {
    case 'user':
      return join(userDataDir(), 'kernels');
    case 'sys-prefix':
      return join(jupyterPythonPrefix(), 'share', 'jupyter', 'kernels');
    case 'prefix':
      return join(target.dir, 'share', 'jupyter', 'kernels');
  }
}

/** Writes the kernelspec and returns its directory. */
export function installKernelspec(options: InstallOptions): string {
  const dir = join(kernelsDir(options.target), KERNEL_NAME);
  mkdirSync(dir, { recursive: true });
  writeFileSync(join(dir, 'kernel.json'), JSON.stringify(kernelSpec(options.env), null, 2) + '\n');
  writeFileSync(join(dir, 'logo-32x32.png'), logoPng(32));
  writeFileSync(join(dir, 'logo-64x64.png'), logoPng(64));
  return dir;
}
