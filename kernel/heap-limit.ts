// A kernel under JupyterHub gets the server's memory limit in MEM_LIMIT (bytes). Node
// sizes its heap from the machine, so a big notebook would be killed by the container
// instead of failing with a JavaScript out-of-memory error: the launcher relaunches the
// kernel with its heap at half the limit (tensors of the embedded backend and the
// runtime's native buffers live outside the JS heap and need the rest).
import { spawn } from 'node:child_process';
import { constants } from 'node:os';

const HEAP_SHARE = 0.5;
const MIN_HEAP_MIB = 256;

/** `--max-old-space-size=N` for MEM_LIMIT, unless unset, invalid, or a heap size is already chosen. */
export function heapLimitFlag(env: NodeJS.ProcessEnv, execArgv: readonly string[]): string | undefined {
  const limit = Number(env.MEM_LIMIT);
  if (!env.MEM_LIMIT || !Number.isFinite(limit) || limit <= 0) return undefined;
  if ([...execArgv, env.NODE_OPTIONS ?? ''].some((arg) => arg.includes('--max-old-space-size'))) return undefined;
  return `--max-old-space-size=${Math.max(MIN_HEAP_MIB, Math.floor((limit * HEAP_SHARE) / 2 ** 20))}`;
}

/**
 * Runs this same command again with `flag`; resolves with its exit code. Jupyter signals the
 * kernel's whole process group (interrupts, termination), which includes the child: the
 * launcher ignores SIGINT and passes on a SIGTERM sent to it alone. The child ends itself
 * when the launcher dies (the kernel's orphan check).
 */
export function relaunchWith(flag: string): Promise<number> {
  const child = spawn(process.execPath, [flag, ...process.execArgv, ...process.argv.slice(1)], { stdio: 'inherit' });
  process.on('SIGINT', () => {});
  process.on('SIGTERM', () => child.kill('SIGTERM'));
  return new Promise((resolve) => child.once('exit', (code, signal) => resolve(code ?? 128 + (signal ? constants.signals[signal] : 0))));
}
