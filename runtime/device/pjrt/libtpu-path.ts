// Where libtpu is: TPU_LIBRARY_PATH, else the `libtpu` Python package (pip install libtpu).
import { execFile } from 'node:child_process';
import { existsSync } from 'node:fs';
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

function pythonPackage(): Promise<{ dir: string; version: string } | { reason: string } | undefined> {
  return new Promise((resolve) => {
    execFile('python3', ['-c', FIND_PACKAGE], { timeout: 20_000 }, (error, stdout) => {
      if (error) {
        resolve({ reason: `python3 could not be asked for the libtpu package (${error.message.split('\n')[0]})` });
        return;
      }
      const [dir, version] = stdout.trim().split('\n');
      resolve(dir ? { dir, version } : undefined);
    });
  });
}

export async function findLibtpu(env: NodeJS.ProcessEnv = process.env): Promise<LibtpuLocation> {
  const fromEnv = env.TPU_LIBRARY_PATH;
  if (fromEnv) {
    return existsSync(fromEnv)
      ? { path: fromEnv, source: 'TPU_LIBRARY_PATH' }
      : { reason: `TPU_LIBRARY_PATH=${fromEnv} does not exist` };
  }
  const found = await pythonPackage();
  if (!found) return { reason: 'libtpu is not installed (python3 -m pip install libtpu, or set TPU_LIBRARY_PATH)' };
  if ('reason' in found) return found;
  const path = join(found.dir, 'libtpu.so');
  return existsSync(path)
    ? { path, source: 'python libtpu package', packageVersion: found.version }
    : { reason: `the libtpu package at ${found.dir} has no libtpu.so` };
}
