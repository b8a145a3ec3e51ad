// Launches the kernel as a hosting service does: from a connection file it
// wrote itself, as a non-root user, with settings in the environment; and
// talks to it with jupyter_client (test/support/run_cells.py), the client
// library hosted notebooks use.
import { spawn, execFileSync } from 'node:child_process';
import { randomBytes } from 'node:crypto';
import { chownSync, closeSync, mkdirSync, mkdtempSync, openSync, writeFileSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { dirname, join, resolve } from 'node:path';
import { CLI } from './kernelspec.js';
import { freePorts } from './free-ports.mjs';

const RUN_CELLS = resolve('test/support/run_cells.py');
const PORT_NAMES = ['shell_port', 'iopub_port', 'stdin_port', 'control_port', 'hb_port'] as const;

/** Runs commands as `nobody` when the tests run as root (hosted kernels never run as root). */
export const runsAsRoot = process.getuid?.() === 0;
const NOBODY = runsAsRoot ? Number(execFileSync('id', ['-u', 'nobody'], { encoding: 'utf8' })) : undefined;
const asNonRoot = (argv: string[]) => (runsAsRoot ? ['runuser', '-u', 'nobody', '--', ...argv] : argv);

/** A temporary folder the non-root user owns (ipc sockets, runtime files). */
export function nonRootDir(prefix: string): string {
  const dir = mkdtempSync(join(tmpdir(), prefix));
  if (NOBODY !== undefined) chownSync(dir, NOBODY, NOBODY);
  return dir;
}

export async function writeConnectionFile(dir: string, transport: 'tcp' | 'ipc', ip: string): Promise<string> {
  const numbers = transport === 'tcp' ? await freePorts(ip, PORT_NAMES.length) : PORT_NAMES.map((_, i) => i + 1);
  const ports = Object.fromEntries(PORT_NAMES.map((name, i) => [name, numbers[i]!]));
  const file = join(dir, 'kernel.json');
  writeFileSync(file, JSON.stringify({
    ...ports, ip, transport, key: randomBytes(16).toString('hex'), signature_scheme: 'hmac-sha256', kernel_name: 'tpu-ts',
  }));
  if (NOBODY !== undefined) chownSync(file, NOBODY, NOBODY);
  return file;
}

export interface KernelProcess {
  exited: Promise<number | null>;
  /** Kills the kernel and runuser around it (its own process group). */
  kill(): void;
}

/** `node dist/kernel/cli.js --connection-file F` as the non-root user, output to logPath. */
export function launchKernel(connectionFile: string, env: Record<string, string>, logPath: string): KernelProcess {
  mkdirSync(dirname(logPath), { recursive: true });
  const log = openSync(logPath, 'w');
  const argv = asNonRoot([process.execPath, CLI, '--connection-file', connectionFile]);
  const child = spawn(argv[0], argv.slice(1), { env: { ...process.env, ...env }, stdio: ['ignore', log, log], detached: true });
  closeSync(log);
  const exited = new Promise<number | null>((r) => child.once('exit', (code) => r(code)));
  const kill = () => {
    try {
      process.kill(-child.pid!, 'SIGKILL');
    } catch {
      // already gone
    }
  };
  return { exited, kill };
}

export interface CellRun {
  status: 'ok' | 'error';
  stdout: string;
  stderr: string;
  text: string | null;
  error: string | null;
}

/** Runs cells with jupyter_client, then shuts the kernel down. */
export function runCells(
  target: { connectionFile: string } | { kernelName: string; env: Record<string, string> },
  cells: string[],
  options: { nonRoot?: boolean } = {},
): { implementation: string; cells: CellRun[] } {
  const args = 'connectionFile' in target ? ['--connection-file', target.connectionFile] : ['--kernel-name', target.kernelName];
  const argv = ['/usr/bin/python3', RUN_CELLS, ...args];
  const command = options.nonRoot ? asNonRoot(argv) : argv;
  const out = execFileSync(command[0], command.slice(1), {
    input: JSON.stringify(cells),
    encoding: 'utf8',
    env: { ...process.env, PYDEVD_DISABLE_FILE_VALIDATION: '1', ...('env' in target ? target.env : {}) },
    timeout: 120_000,
  });
  return JSON.parse(out.trim().split('\n').at(-1)!);
}
