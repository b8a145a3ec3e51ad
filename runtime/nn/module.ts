// nn.Module: parameters are the tensor properties that require grad (or did when assigned:
// registered-parameters.ts), buffers the other tensor properties, submodules the Module properties (and arrays of them), all found by
// walking own properties in declaration order, as PyTorch's __setattr__ registration does.
// A DTensor property (tpu.distributed.parallelizeModule) is a parameter too: stateDict gives
// its full tensor and loadStateDict splits a full tensor into its pieces.
import { readOptions } from '../options.js';
import { formatShape, shapesEqual } from '../shape.js';
import { Tensor } from '../tensor.js';
import { noGrad } from '../autograd/grad-mode.js';
import { zeroGrads, type ZeroGradOptions } from './utils/zero-grads.js';
import { scope } from '../scope.js';
import { noteReplacement } from '../jit/trace-record.js';
import { DTensor, distributeTensor } from '../distributed/dtensor.js';
import { describeValue } from '../distributed/describe-value.js';
import { moduleProxy } from './module-proxy.js';
import { registerForwardHook, registerForwardPreHook, type ForwardHook, type ForwardPreHook, type HookOptions } from './forward-hooks.js';
import type { RemovableHandle } from '../removable-handle.js';
import { isParameter, noteAssigned } from './registered-parameters.js';
import { castModules, moduleTarget, refuseDTensors, refuseSpread, refuseUnheld } from './module-to.js';
import type { Device } from '../device-argument.js';
import type { DType } from '../dtype.js';
import type { Parameter } from './parameter.js';

/** Tensors by dotted name; a fullyShard module's parameters are DTensors (FSDP2's state_dict()). */
export type StateDict = Record<string, Tensor | DTensor>;
export type { Parameter } from './parameter.js';

export interface LoadOptions {
  /** Every key must match both ways (default true). */
  strict?: boolean;
}

/** What loadStateDict did not match (PyTorch's _IncompatibleKeys): empty lists unless strict is false. */
export interface IncompatibleKeys {
  missingKeys: string[];
  unexpectedKeys: string[];
}

/**
 * Base of the layers (torch.nn.Module): forward(), parameters(), stateDict(), train()/eval().
 * @example class Net extends tpu.nn.Module { fc = new tpu.nn.Linear(4, 2); forward(x: Tensor) { return this.fc.forward(x); } }
 */
export abstract class Module {
  /** train() / eval(): Dropout and friends look at it. */
  training = true;

  constructor() {
    // Callable (`model(x)`), and seen through a proxy that counts replacements (tpu.compile traces again after one).
    return moduleProxy(this, replaces, noteReplacement, noteAssigned);
  }

  /**
   * What the module computes. Most layers take and return tensors; some return several
   * (nn.LSTM's [output, [h_n, c_n]], MultiheadAttention's [output, weights]) or take an options
   * object after the tensors, as PyTorch's forward may: each layer declares its own types.
   */
  // eslint-disable-next-line @typescript-eslint/no-explicit-any -- a subclass's forward may return any structure
  abstract forward(...inputs: any[]): any;

  /** Submodules by name (arrays of modules are named name.0, name.1, ...). */
  namedChildren(): [string, Module][] {
    const out: [string, Module][] = [];
    for (const [k, v] of Object.entries(this)) {
      if (v instanceof Module) out.push([k, v]);
      else if (Array.isArray(v)) v.forEach((m, i) => m instanceof Module && out.push([`${k}.${i}`, m]));
    }
    return out;
  }

  /**
   * Own tensors and DTensors: [name, value] in declaration order. A tensor computed from
   * parameters (an activation kept by forward, `this.hidden = h`) is neither a parameter nor
   * a buffer, as in PyTorch, where only registered ones are.
   */
  protected ownValues(): [string, Parameter][] {
    return Object.entries(this).filter((e): e is [string, Parameter] =>
      e[1] instanceof DTensor || (e[1] instanceof Tensor && e[1]._gradNode === null));
  }

  /** Every tensor and DTensor of this module and its submodules with its dotted name. */
  namedValues(prefix = ''): [string, Parameter][] {
    const own = this.ownValues().map(([k, t]) => [prefix + k, t] as [string, Parameter]);
    return own.concat(...this.namedChildren().map(([k, m]) => m.namedValues(`${prefix}${k}.`)));
  }

  /** Every tensor of this module and its submodules with its dotted name (DTensors left out). */
  namedTensors(prefix = ''): [string, Tensor][] {
    return this.namedValues(prefix).filter((e): e is [string, Tensor] => e[1] instanceof Tensor);
  }

  /**
   * Each parameter once, under its first name, as PyTorch's named_parameters(): a module used
   * twice or a tied weight (`b.weight = a.weight`) would otherwise be stepped twice per step.
   */
  namedParameters(): [string, Parameter][] {
    const seen = new Set<Parameter>();
    return this.namedValues().filter(([, t]) => {
      if (!isParameter(t) || seen.has(t)) return false;
      seen.add(t);
      return true;
    });
  }

  parameters(): Parameter[] {
    return this.namedParameters().map(([, t]) => t);
  }

  /**
   * This module and every submodule with its dotted name ('' for this one), each once, as
   * PyTorch's named_modules().
   * @example new tpu.nn.Sequential(new tpu.nn.Linear(2, 2), new tpu.nn.Sequential(new tpu.nn.ReLU())).namedModules().map(([name]) => name) // ['', '0', '1', '1.0']
   */
  namedModules(prefix = ''): [string, Module][] {
    const out: [string, Module][] = [];
    const seen = new Set<Module>();
    const visit = (m: Module, name: string): void => {
      if (seen.has(m)) return;
      seen.add(m);
      out.push([name, m]);
      for (const [k, child] of m.namedChildren()) visit(child, name ? `${name}.${k}` : k);
    };
    visit(this, prefix);
    return out;
  }

  /** This module and every submodule, each once (PyTorch's modules()). */
  modules(): Module[] {
    return this.namedModules().map(([, m]) => m);
  }

  /** The direct submodules, each once (PyTorch's children()). */
  children(): Module[] {
    return [...new Set(this.namedChildren().map(([, m]) => m))];
  }

  /**
   * Calls fn on every submodule, then on this module (children first, as PyTorch's apply);
   * returns this.
   * @example new tpu.nn.Sequential(new tpu.nn.Linear(2, 2)).apply((m) => { if (m instanceof tpu.nn.Linear) tpu.nn.init.zeros_(m.bias!); })
   */
  apply(fn: (module: Module) => void): this {
    if (typeof fn !== 'function') throw new TypeError(`apply: fn must be a function of a module; got ${describeValue(fn)}`);
    // the base's children(): a subclass's own `children` property would hide it
    for (const child of Module.prototype.children.call(this)) child.apply(fn);
    fn(this);
    return this;
  }

  /**
   * Sets requiresGrad on every parameter (freezing a layer: `model.encoder.requiresGrad_(false)`);
   * a frozen parameter stays in parameters() (registered-parameters.ts), as in PyTorch. Returns this.
   */
  requiresGrad_(on = true): this {
    if (typeof on !== 'boolean') throw new TypeError(`requiresGrad_: requiresGrad must be a boolean; got ${describeValue(on)}`);
    for (const p of this.parameters()) p.requiresGrad_(on);
    return this;
  }

  /**
   * Runs hook(module, inputs) before each forward call (torch.nn.Module.register_forward_pre_hook):
   * what it returns replaces the inputs (an array the arguments, another value the one argument);
   * nothing keeps them. `{ prepend: true }` runs it before the hooks registered so far. The hooks
   * run for `model(x)` and `model.forward(x)` alike. Returns a handle whose remove() unregisters it.
   * @example const lin = new tpu.nn.Linear(2, 1); const h = lin.registerForwardPreHook((m, [x]) => (x as Tensor).mul(0)); const out = lin(tpu.ones([1, 2])); h.remove(); out.sub(lin.bias!).abs().sum() // 0
   */
  registerForwardPreHook(hook: ForwardPreHook<this>, options?: HookOptions): RemovableHandle {
    return registerForwardPreHook(this, hook, options);
  }

  /**
   * Runs hook(module, inputs, output) after each forward call (torch.nn.Module.register_forward_hook):
   * what it returns replaces the output; nothing keeps it (a hook that records activations). Returns
   * a handle whose remove() unregisters it.
   * @example const acts: Tensor[] = []; const net = new tpu.nn.Sequential(new tpu.nn.Linear(2, 3), new tpu.nn.ReLU()); const h = net[0].registerForwardHook((m, inputs, out) => { acts.push(out as Tensor); }); net(tpu.ones([4, 2])); h.remove(); acts[0]!.shape // [4, 3]
   */
  registerForwardHook(hook: ForwardHook<this>, options?: HookOptions): RemovableHandle {
    return registerForwardHook(this, hook, options);
  }

  train(on = true): this {
    if (typeof on !== 'boolean') throw new TypeError(`train: mode must be a boolean; got ${JSON.stringify(on)}`);
    this.training = on;
    for (const [, m] of this.namedChildren()) m.train(on);
    return this;
  }

  eval(): this {
    return this.train(false);
  }

  /**
   * Sets every parameter's .grad to null, as PyTorch's zero_grad() (autograd/release-grad.ts);
   * `{ setToNone: false }` (or `false`) writes zeros into them instead.
   */
  zeroGrad(options?: boolean | ZeroGradOptions): void {
    zeroGrads('zeroGrad', this.parameters(), options);
  }

  /**
   * Casts every floating parameter and buffer to a floating dtype, and moves every one to a chip
   * ('tpu:1', as x.device reads), as PyTorch's Module.to(dtype), .to(device), .to(device, dtype);
   * returns this. Each is converted in place, as PyTorch swaps a parameter's .data: the same
   * tensors (and their .grad) have the new dtype and chip, so an optimizer made before keeps
   * training them. What they have already changes nothing, so model.to(device) on the chip they
   * are on is free.
   * @example const model = new tpu.nn.Linear(4, 2).to('bfloat16'); model.weight.dtype // 'bfloat16'
   * @example new tpu.nn.Linear(4, 2).to('tpu:0').weight.device // 'tpu:0'
   */
  to(dtype: DType | Device | { dtype?: DType; device?: Device }): this;
  to(device: Device, dtype: DType): this;
  to(target: DType | Device | { dtype?: DType; device?: Device }, dtype?: DType): this {
    const to = moduleTarget(target, dtype);
    if (to.chip !== undefined) refuseSpread([...this.parameters(), ...this.namedTensors().map(([, t]) => t)]);
    refuseDTensors(this.namedParameters(), to);
    const modules = this.modules();
    refuseUnheld(this.parameters(), modules, to);
    castModules(modules, to);
    return this;
  }

  /**
   * Parameters and buffers by dotted name, detached but sharing their storage, as PyTorch's
   * state_dict(): `sd.weight.mul_(2)` doubles the weight (a DTensor's: its full tensor on its
   * mesh's first chip, a copy).
   */
  stateDict(): StateDict {
    return noGrad(() => Object.fromEntries(this.namedValues().map(([k, t]) => [k, t instanceof DTensor ? t.fullTensor() : t.detach()])));
  }

  /**
   * Copies values in place (optimizers keep working; a DTensor's pieces each get their part); shapes must match.
   * A DTensor in the state (a fullyShard module's) is loaded by its full value.
   * Returns the keys not matched, as PyTorch's (with `{ strict: false }`, where they are not an error).
   */
  loadStateDict(state: StateDict, options: LoadOptions = {}): IncompatibleKeys {
    const mine = new Map(this.namedValues());
    const keys = checkStateDict(mine, state, options);
    noGrad(() => {
      for (const [k, target] of mine) {
        const v = state[k];
        if (v === undefined) continue;
        if (target instanceof Tensor && v instanceof Tensor) {
          target.copy_(v);
          continue;
        }
        // The full value's and the split's per-chip copies are freed as soon as their values are in place.
        scope(() => {
          const whole = v instanceof DTensor ? v.fullTensor() : v;
          if (target instanceof Tensor) target.copy_(whole);
          else {
            const parts = distributeTensor(whole.detach(), target.mesh, target.placements).localTensors();
            target.localTensors().forEach((piece, i) => piece.copy_(parts[i]!));
          }
        });
      }
    });
    return keys;
  }

  /**
   * The module as PyTorch's repr() prints it: its extraRepr() lines, then each child as
   * `(name): child`; one line of extraRepr and no child on one line.
   */
  toString(): string {
    const extra = this.extraRepr();
    const children = this.childLines();
    const lines = [...(extra ? extra.split('\n') : []), ...children];
    const name = this.constructor.name;
    if (lines.length === 0) return `${name}()`;
    if (lines.length === 1 && children.length === 0) return `${name}(${lines[0]})`;
    return `${name}(\n  ${lines.join('\n  ')}\n)`;
  }

  /** The children's lines of toString(): `(name): child`, the child's own lines indented. */
  protected childLines(): string[] {
    return this.namedChildren().map(([k, m]) => indentAfterFirst(`(${k}): ${m}`));
  }

  protected extraRepr(): string {
    return '';
  }
}

/** `text` with every line but the first indented by two spaces (PyTorch's _addindent). */
export function indentAfterFirst(text: string): string {
  return text.replace(/\n/g, '\n  ');
}

/** A property that a tpu.compile trace may have captured changes: a tensor, a submodule, the training flag. */
function replaces(target: Module, key: string | symbol, value: unknown): boolean {
  const old: unknown = Reflect.get(target, key);
  return old !== value && (old instanceof Tensor || old instanceof DTensor || old instanceof Module || (key === 'training' && old !== undefined));
}

/** loadStateDict's checks of `state` against a module's named tensors: keys (both ways when strict), tensors, shapes. */
export function checkStateDict(mine: ReadonlyMap<string, { readonly shape: readonly number[] }>, state: StateDict, options: LoadOptions): IncompatibleKeys {
  readOptions<LoadOptions>('loadStateDict', options, ['strict']);
  if (state === null || typeof state !== 'object') throw new TypeError(`loadStateDict: state must be an object of tensors; got ${state === null ? 'null' : typeof state}`);
  const strict = options.strict ?? true;
  const missing = [...mine.keys()].filter((k) => !(k in state));
  const unexpected = Object.keys(state).filter((k) => !mine.has(k));
  if (strict && (missing.length || unexpected.length)) {
    throw new Error(
      `loadStateDict: keys do not match` +
        (missing.length ? `; missing: ${missing.join(', ')}` : '') +
        (unexpected.length ? `; unexpected: ${unexpected.join(', ')}` : ''),
    );
  }
  for (const [k, target] of mine) {
    const v = state[k];
    if (v === undefined) continue;
    if (!(v instanceof Tensor) && !(v instanceof DTensor)) throw new TypeError(`loadStateDict: '${k}' must be a tensor or a DTensor; got ${describeValue(v)}`);
    if (!shapesEqual(v.shape, target.shape)) {
      throw new RangeError(`loadStateDict: '${k}' has shape ${formatShape(v.shape)} in the state, ${formatShape(target.shape)} in the module`);
    }
  }
  return { missingKeys: missing, unexpectedKeys: unexpected };
}
