// The one persistent vm context every cell runs in, and its globals. Host
// typed arrays and buffers are shared with the context so data moves between
// cells and the tensor runtime without cross-realm `instanceof` surprises.
import { Console } from 'node:console';
import { createRequire } from 'node:module';
import path from 'node:path';
import vm from 'node:vm';
import { cellProcess } from './cell-process.js';
import { IMPORT_FUNCTION } from './top-level-rewrite.js';
import { installInContextDispatch } from '../operators/in-context-dispatch.js';

const SHARED_HOST_GLOBALS = [
  'Buffer', 'URL', 'URLSearchParams', 'TextEncoder', 'TextDecoder', 'AbortController', 'AbortSignal',
  'EventTarget', 'Event', 'fetch', 'Headers', 'Request', 'Response', 'FormData', 'Blob', 'performance', 'crypto',
  'atob', 'btoa', 'structuredClone', 'queueMicrotask', 'MessageChannel', 'BroadcastChannel',
  'ArrayBuffer', 'SharedArrayBuffer', 'DataView', 'Atomics', 'Int8Array', 'Uint8Array', 'Uint8ClampedArray',
  'Int16Array', 'Uint16Array', 'Int32Array', 'Uint32Array', 'Float32Array', 'Float64Array', 'BigInt64Array', 'BigUint64Array',
] as const;

export interface CellGlobals {
  cwd: string;
  write(name: 'stdout' | 'stderr', text: string): void;
  timers: Record<string, unknown>;
  importModule: (specifier: unknown) => Promise<unknown>;
  /** The functions a dispatched operator rewrite calls (operators/operator-dispatch.ts). */
  operators: Record<string, unknown>;
  /** display, clearOutput, input, comms, tpu, ...: the cell API. */
  api: Record<string, unknown>;
}

export function createCellContext(globals: CellGlobals): vm.Context {
  const host = globalThis as unknown as Record<string, unknown>;
  const sandbox: Record<string, unknown> = {};
  // Descriptors, not values: Node's lazy globals (fetch loads undici) stay lazy until a cell uses them.
  for (const name of SHARED_HOST_GLOBALS) {
    const own = Object.getOwnPropertyDescriptor(host, name);
    if (own) Object.defineProperty(sandbox, name, own);
    else if (name in host) sandbox[name] = host[name];
  }
  const stream = (name: 'stdout' | 'stderr') =>
    ({ write: (text: string) => (globals.write(name, String(text)), true) }) as unknown as NodeJS.WritableStream;
  sandbox.console = new Console({ stdout: stream('stdout'), stderr: stream('stderr'), ignoreErrors: false, colorMode: false });
  sandbox.process = cellProcess(globals.write);
  sandbox.require = createRequire(path.join(globals.cwd, 'notebook.js'));
  Object.assign(sandbox, globals.timers, globals.api);
  Object.defineProperty(sandbox, IMPORT_FUNCTION, { value: globals.importModule, enumerable: false });
  const context = vm.createContext(sandbox, { name: 'tpu-kernel cells' });
  installInContextDispatch(context, globals.operators);
  sandbox.global = vm.runInContext('globalThis', context);
  return context;
}
