// `import` in a cell: node: built-ins, npm packages (ESM and CommonJS) found
// in the node_modules of the notebook's folder or its parents, relative paths
// and URLs. Node's own resolver would resolve from the kernel's install folder,
// so bare names are resolved here with the "import" conditions of package.json
// `exports`, then loaded with Node's import() (CommonJS gets default + named).
// Local TypeScript files load through Node module hooks (typescript-hooks.ts),
// registered on the first relative or file: import, off the kernel's start.
import { existsSync, readFileSync, statSync } from 'node:fs';
import { isBuiltin, register } from 'node:module';
import path from 'node:path';
import { pathToFileURL } from 'node:url';
import { packageRoot } from '../package-root.js';

const CONDITIONS = ['import', 'node', 'default'];

export function createModuleImporter(cwd: string): (specifier: unknown) => Promise<unknown> {
  return async (specifier) => {
    if (typeof specifier !== 'string') {
      throw new TypeError(`import: the module specifier must be a string, got ${typeof specifier}`);
    }
    const local = /^(\.{0,2}\/|file:)/.test(specifier);
    if (local) registerTypeScriptHooks();
    if (isBuiltin(specifier) || /^[a-z][a-z0-9+.-]*:/i.test(specifier)) return import(specifier);
    if (local) return import(pathToFileURL(path.resolve(cwd, specifier)).href);
    return import(pathToFileURL(resolvePackage(specifier, cwd)).href);
  };
}

let hooksRegistered = false;

function registerTypeScriptHooks(): void {
  if (hooksRegistered) return;
  hooksRegistered = true;
  process.setSourceMapsEnabled(true); // frames in imported TypeScript files name their own lines
  // Node loads the hooks itself: the built file, also when this module runs from source (tests).
  register(pathToFileURL(path.join(packageRoot(), 'dist', 'kernel', 'session', 'cells', 'typescript-hooks.js')));
}

/** The file a bare specifier (`pkg`, `pkg/sub`, `@scope/pkg/sub`) names, searched upward from `cwd`. */
export function resolvePackage(specifier: string, cwd: string): string {
  const parts = specifier.split('/');
  const nameLength = specifier.startsWith('@') ? 2 : 1;
  const name = parts.slice(0, nameLength).join('/');
  const subpath = ['.', ...parts.slice(nameLength)].join('/');
  for (let dir = path.resolve(cwd); ; dir = path.dirname(dir)) {
    const packageDir = path.join(dir, 'node_modules', name);
    const manifestPath = path.join(packageDir, 'package.json');
    if (existsSync(manifestPath)) return resolveInPackage(packageDir, JSON.parse(readFileSync(manifestPath, 'utf8')), subpath, specifier);
    if (path.dirname(dir) === dir) break;
  }
  throw new Error(`Cannot find package '${name}' (imported as '${specifier}') in node_modules of ${cwd} or its parent folders`);
}

interface Manifest {
  exports?: unknown;
  main?: string;
}

function resolveInPackage(packageDir: string, manifest: Manifest, subpath: string, specifier: string): string {
  if (manifest.exports !== undefined) {
    const exportsMap = typeof manifest.exports === 'object' && manifest.exports !== null && !Array.isArray(manifest.exports)
      && Object.keys(manifest.exports).some((k) => k.startsWith('.'))
      ? (manifest.exports as Record<string, unknown>)
      : { '.': manifest.exports };
    const target = matchSubpath(exportsMap, subpath);
    const file = target === undefined ? undefined : pickCondition(target);
    if (!file) throw new Error(`Package subpath '${subpath}' is not exported by ${packageDir}/package.json (imported as '${specifier}')`);
    return path.join(packageDir, file);
  }
  const file = path.join(packageDir, subpath === '.' ? manifest.main ?? 'index.js' : subpath);
  return withExtension(file);
}

function matchSubpath(exportsMap: Record<string, unknown>, subpath: string): unknown {
  if (subpath in exportsMap) return exportsMap[subpath];
  for (const [key, target] of Object.entries(exportsMap)) {
    const star = key.indexOf('*');
    if (star < 0) continue;
    const [prefix, suffix] = [key.slice(0, star), key.slice(star + 1)];
    if (subpath.startsWith(prefix) && subpath.endsWith(suffix) && subpath.length >= key.length - 1) {
      const middle = subpath.slice(prefix.length, subpath.length - suffix.length);
      return JSON.parse(JSON.stringify(target).replaceAll('*', middle));
    }
  }
  return undefined;
}

/** The first target whose condition applies, in package.json order (Node's rule). */
function pickCondition(target: unknown): string | undefined {
  if (typeof target === 'string') return target;
  if (Array.isArray(target)) {
    for (const t of target) {
      const file = pickCondition(t);
      if (file) return file;
    }
    return undefined;
  }
  if (typeof target !== 'object' || target === null) return undefined;
  for (const [condition, value] of Object.entries(target)) {
    if (CONDITIONS.includes(condition)) {
      const file = pickCondition(value);
      if (file) return file;
    }
  }
  return undefined;
}

function withExtension(file: string): string {
  for (const candidate of [file, `${file}.js`, `${file}.mjs`, `${file}.cjs`, path.join(file, 'index.js')]) {
    if (existsSync(candidate) && statSync(candidate).isFile()) return candidate;
  }
  return file;
}
