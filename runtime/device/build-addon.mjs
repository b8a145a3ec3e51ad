// Builds a native addon (a directory with a binding.gyp) with npm's bundled node-gyp. Never
// fails the install: without a C++ toolchain or Node headers the runtime still works, so this
// prints one line and exits 0; the features needing the addon then say it is not built.
import { spawnSync } from 'node:child_process';
import { existsSync } from 'node:fs';
import { dirname, join } from 'node:path';

const prefix = dirname(dirname(process.execPath));

function nodeGyp() {
  const candidates = [
    process.env.npm_execpath && join(dirname(process.env.npm_execpath), '..', 'node_modules', 'node-gyp', 'bin', 'node-gyp.js'),
    join(prefix, 'lib', 'node_modules', 'npm', 'node_modules', 'node-gyp', 'bin', 'node-gyp.js'),
  ];
  return candidates.find((p) => p && existsSync(p));
}

/** Builds the addon in `dir`; `name` and `consequence` (what is off without it) make its one line. */
export function buildAddon(dir, name, consequence) {
  const gyp = nodeGyp();
  if (!gyp) {
    console.log(`${name} not built (${consequence}): npm's node-gyp was not found`);
    return;
  }
  const args = [gyp, 'rebuild'];
  // Use the installed Node headers when they are there: no download (machines without internet).
  if (existsSync(join(prefix, 'include', 'node', 'node_api.h'))) args.push(`--nodedir=${prefix}`);
  const result = spawnSync(process.execPath, args, { cwd: dir, encoding: 'utf8' });
  if (result.status === 0) {
    console.log(`${name} built`);
    return;
  }
  const output = `${result.stderr ?? ''}${result.stdout ?? ''}${result.error?.message ?? ''}`;
  const lines = output.split('\n');
  // The compiler's first error, else node-gyp's own summary.
  const reason =
    lines.find((l) => / error: /.test(l)) ??
    lines.find((l) => l.startsWith('gyp ERR! stack Error:'))?.replace('gyp ERR! stack Error:', '') ??
    'node-gyp failed';
  console.log(`${name} not built (${consequence}): ${reason.trim()}`);
}
