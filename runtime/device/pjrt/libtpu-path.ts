// Where libtpu is: TPU_LIBRARY_PATH, else the `libtpu` Python package (pip install libtpu).
// Asking Python is a child process: findLibtpu does it without blocking, findLibtpuSync
// (tpu.device()'s answer) once per process.
import { execFile, execFileSync } from 'node:child_process';
import { existsSync } from 'node:fs';
import { setPriority } from 'node:os';
import { join } from 'node:path';

export type LibtpuLocation =
  | { path: string; source: 'TPU_LIBRARY_PATH' | 'python libtpu package'; packageVersion?: string }
  | { reason: string };

// find_spec locates the package without importing it; prints "<dir>\n<version>" or nothing.
const FIND_PACKAGE = [
  'import importlib.util as u, importlib.metadata as m',
  "s = u.find_spec('libtpu')",
  "print(s.submodule_search_locations[0] + '\\n' + m.version('libtpu') if s else '')",
].join('; ');
const PYTHON_TIMEOUT_MS = 20_000;
const BACKGROUND_NICE = 19;

type PackageAnswer = { dir: string; version: string } | { reason: string } | undefined;

function askedPython(error: Error | null, stdout: string): PackageAnswer {
  if (error) return { reason: `python3 could not be asked for the libtpu package (${error.message.split('\n')[0]})` };
  const [dir, version] = stdout.trim().split('\n');
  return dir ? { dir, version: version ?? '' } : undefined;
}

function located(found: PackageAnswer): LibtpuLocation {
  if (!found) return { reason: 'libtpu is not installed (python3 -m pip install libtpu, or set TPU_LIBRARY_PATH)' };
  if ('reason' in found) return found;
  const path = join(found.dir, 'libtpu.so');
  return existsSync(path)
    ? { path, source: 'python libtpu package', packageVersion: found.version }
    : { reason: `the libtpu package at ${found.dir} has no libtpu.so` };
}

function fromEnvironment(env: NodeJS.ProcessEnv): LibtpuLocation | undefined {
  const fromEnv = env.TPU_LIBRARY_PATH;
  if (!fromEnv) return undefined;
  return existsSync(fromEnv) ? { path: fromEnv, source: 'TPU_LIBRARY_PATH' } : { reason: `TPU_LIBRARY_PATH=${fromEnv} does not exist` };
}

export async function findLibtpu(env: NodeJS.ProcessEnv = process.env): Promise<LibtpuLocation> {
  const set = fromEnvironment(env);
  if (set) return set;
  const found = await new Promise<PackageAnswer>((resolve) => {
    const child = execFile('python3', ['-c', FIND_PACKAGE], { timeout: PYTHON_TIMEOUT_MS }, (error, stdout) => resolve(askedPython(error, stdout)));
    // In the background of a session's first programs: ~0.1 s of CPU (python3 and pyenv's
    // shims) that the executor's threads would lose on a 2-core machine.
    if (child.pid !== undefined) setPriority(child.pid, BACKGROUND_NICE);
  });
  return located(found);
}

let foundSync: LibtpuLocation | undefined;

/** findLibtpu's answer without loading libtpu, blocking once (~50 ms) then remembered. */
export function findLibtpuSync(env: NodeJS.ProcessEnv = process.env): LibtpuLocation {
  const set = fromEnvironment(env);
  if (set) return set;
  if (!foundSync) {
    let stdout = '';
    let error: Error | null = null;
    try {
      stdout = execFileSync('python3', ['-c', FIND_PACKAGE], { timeout: PYTHON_TIMEOUT_MS, encoding: 'utf8', stdio: ['ignore', 'pipe', 'ignore'] });
    } catch (e) {
      error = e as Error;
    }
    foundSync = located(askedPython(error, stdout));
  }
  return foundSync;
}
