// Module.registerForwardPreHook / registerForwardHook (torch.nn.Module's register_forward_pre_hook
// and register_forward_hook): functions run around a module's forward, which may replace its
// inputs (pre) or its output. They run wherever forward is called through the module
// (`model(x)` and `model.forward(x)`, the call Sequential and the other containers make), since
// here both are the module's call; the proxy (module-proxy.ts) hands out the hooked forward.
import { readOptions } from '../options.js';
import { removableHandle, type RemovableHandle } from '../removable-handle.js';

/** Runs before forward with its arguments: nothing keeps them, an array replaces them, any other value is the one argument. */
export type ForwardPreHook<M> = (module: M, inputs: unknown[]) => unknown;
/** Runs after forward with its arguments and output: nothing keeps the output, any other value replaces it. */
export type ForwardHook<M> = (module: M, inputs: unknown[], output: unknown) => unknown;

export interface HookOptions {
  /** Run before the hooks registered so far, not after them (PyTorch's prepend). */
  prepend?: boolean;
}

interface Hooks {
  readonly pre: ForwardPreHook<unknown>[];
  readonly post: ForwardHook<unknown>[];
}

/** Keyed by the module as users hold it (its proxy). */
const hooksOf = new WeakMap<object, Hooks>();
let registered = 0;

function register<F>(who: string, module: object, kind: keyof Hooks, hook: F, options: HookOptions | undefined): RemovableHandle {
  if (typeof hook !== 'function') throw new TypeError(`${who}: the hook must be a function; got ${hook === null ? 'null' : typeof hook}`);
  const { prepend = false } = readOptions<HookOptions>(who, options, ['prepend']);
  if (typeof prepend !== 'boolean') throw new TypeError(`${who}: prepend must be true or false; got ${JSON.stringify(prepend)}`);
  const hooks = hooksOf.get(module) ?? { pre: [], post: [] };
  hooksOf.set(module, hooks);
  const list = hooks[kind] as unknown[];
  if (prepend) list.unshift(hook);
  else list.push(hook);
  registered++;
  return removableHandle(list, hook, () => registered--);
}

export function registerForwardPreHook<M extends object>(module: M, hook: ForwardPreHook<M>, options?: HookOptions): RemovableHandle {
  return register('registerForwardPreHook', module, 'pre', hook, options);
}

export function registerForwardHook<M extends object>(module: M, hook: ForwardHook<M>, options?: HookOptions): RemovableHandle {
  return register('registerForwardHook', module, 'post', hook, options);
}

/** The module's forward as a call through it sees it: wrapped by its hooks, when it has any. */
export function hookedForward(module: object, forward: unknown): unknown {
  if (registered === 0 || typeof forward !== 'function') return forward;
  const hooks = hooksOf.get(module);
  if (!hooks || (hooks.pre.length === 0 && hooks.post.length === 0)) return forward;
  return (...given: unknown[]): unknown => {
    let inputs = given;
    for (const pre of [...hooks.pre]) {
      const r = pre(module, inputs);
      if (r !== undefined && r !== null) inputs = Array.isArray(r) ? r : [r];
    }
    let output = (forward as (...a: unknown[]) => unknown).apply(module, inputs);
    for (const post of [...hooks.post]) {
      const r = post(module, inputs, output);
      if (r !== undefined && r !== null) output = r;
    }
    return output;
  };
}
