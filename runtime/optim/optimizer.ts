// Optimizer base: holds the parameters in param groups, zeroGrad(), and applies each step as
// ONE batch of in-place updates (fused mode: one program for the pending forward, backward and
// update). Hyperparameters are plain JS properties of each group (opt.paramGroups[i].lr; opt.lr
// for an optimizer of one group); updates read them through live numbers
// (hyper()), so they reach programs as scalar inputs read at every step, also on a
// tpu.compile replay where the step's JS does not run: changing the learning rate every
// step never recompiles. The step counts advance through onEachCall, so a replay advances
// them too; JS choices that shape the program (momentum on or off) are guards.
// A DTensor parameter (tensor parallel) is stepped piece by piece with the pieces of its
// .grad (summed over its Replicate mesh dims), so its state is sharded like it and its
// replicas stay equal.
import { Tensor } from '../tensor.js';
import { noGrad } from '../autograd/grad-mode.js';
import { zeroGrads, type ZeroGradOptions } from '../nn/utils/zero-grads.js';
import { assignAll } from '../modes/assign.js';
import { keep, scope } from '../scope.js';
import { full } from '../creation.js';
import { LiveNumber, numberValue } from '../jit/live-number.js';
import { guard, onEachCall, replacementCount } from '../jit/trace-record.js';
import { beginCallSite, endCallSite } from '../call-site.js';
import { asOneOp } from '../modes/composite.js';
import { DTensor } from '../distributed/dtensor.js';
import { describeValue } from '../distributed/describe-value.js';
import { Module } from '../nn/module.js';
import { isParameter } from '../nn/registered-parameters.js';
import { convertInPlace } from '../views/convert-in-place.js';
import { dtensorState, statePieces } from './dtensor-state.js';
import { isOptions, readOptions } from '../options.js';
import { lrNumber } from './optimizer-options.js';
import { installHints } from '../snake-case-hints.js';

/** Hyperparameters every optimizer has. */
export interface Hyperparameters {
  lr: number;
  weightDecay: number;
  /** Ascend the gradient (PyTorch's maximize). */
  maximize: boolean;
}

/**
 * One param group (torch.optim's param_groups[i]): its parameters and its hyperparameters,
 * plain properties read at every step. `initialLr` is set by a learning-rate scheduler
 * (PyTorch's initial_lr).
 */
export type ParamGroup<H extends Hyperparameters = Hyperparameters> = H & { params: (Tensor | DTensor)[]; initialLr?: number };

/** A param group as given to the constructor or addParamGroup: its parameters, and options overriding the optimizer's. */
export type ParamGroupOptions<H extends Hyperparameters = Hyperparameters> = Omit<Partial<H>, 'lr'> & { lr?: number | Tensor; params: Iterable<Tensor | DTensor> | Tensor | DTensor };

/** An optimizer's stateDict(): per-parameter state by index, and the groups' hyperparameters with their parameters' indices. */
export interface OptimizerStateDict {
  /** A DTensor parameter's state tensors are DTensors laid out as it (loadStateDict also takes full tensors). */
  state: Record<number, Record<string, Tensor | DTensor | number>>;
  paramGroups: Record<string, unknown>[];
}
type SavedGroup = Record<string, unknown> & { params: number[]; initialLr?: number };

/** The constructor's params: tensors (one group), or groups of them with their own options. */
export type ParamsOrGroups<H extends Hyperparameters> = Iterable<Tensor | DTensor> | Iterable<ParamGroupOptions<H>>;

/**
 * Base of the optimizers (torch.optim.Optimizer): step() updates, zeroGrad() clears gradients.
 * @example const loss = model.forward(x).sum(); opt.zeroGrad(); loss.backward(); opt.step()
 */
export abstract class Optimizer<H extends Hyperparameters = Hyperparameters> {
  /** The param groups: `opt.paramGroups[0].lr = 0.01` takes effect at the next step. */
  readonly paramGroups: ParamGroup<H>[] = [];
  /** The constructor's options, with their defaults: a group gives each one it does not set. */
  readonly defaults: Readonly<H>;
  /** Per-parameter state tensors (momentum, moments), by name. */
  protected readonly state = new Map<Tensor, Record<string, Tensor>>();
  /** Steps taken. */
  stepCount = 0;
  /** Steps in which each parameter was updated. */
  protected readonly updatesOf = new Map<Tensor, number>();

  constructor(params: ParamsOrGroups<H>, readonly name: string, defaults: H) {
    this.defaults = defaults;
    if (params instanceof Tensor || params instanceof DTensor) throw new TypeError(`${name}: params must be an array of tensors (e.g. model.parameters()); got one ${params instanceof Tensor ? 'tensor' : 'DTensor'}: give [w]`);
    if (params === null || typeof params !== 'object' || !(Symbol.iterator in params)) {
      throw new TypeError(`${name}: params must be an array of tensors (e.g. model.parameters()); got ${describeValue(params)}${(params as unknown) instanceof Module ? ': give model.parameters()' : ''}`);
    }
    const given: unknown[] = [...params];
    if (given.length === 0) throw new RangeError(`${name}: params is empty`);
    if (given.every(isOptions)) {
      given.forEach((g) => this.addParamGroup(g as ParamGroupOptions<H>));
    } else if (given.some(isOptions)) {
      throw new TypeError(`${name}: params must be all tensors or all param groups ({ params, ...options }); got params[${given.findIndex(isOptions)}] a group and params[${given.findIndex((g) => !isOptions(g))}] not`);
    } else {
      this.#addGroup({ params: given as Tensor[] } as unknown as ParamGroupOptions<H>, '');
    }
  }

  /**
   * Adds a group of parameters with its own options (the optimizer's for the others), as
   * torch.optim's add_param_group (fine-tuning a layer unfrozen later).
   * @example opt.addParamGroup({ params: [tpu.zeros([2], { requiresGrad: true })], lr: 0.01 })
   */
  addParamGroup(group: ParamGroupOptions<H>): void {
    this.#addGroup(group, `paramGroups[${this.paramGroups.length}].`);
  }

  #addGroup(group: ParamGroupOptions<H>, where: string): void {
    const keys = Object.keys(this.defaults) as (keyof H & string)[];
    readOptions<Record<string, unknown>>(`${this.name} ${where.slice(0, -1) || 'group'}`, group, ['params', ...keys]);
    if (!('params' in group)) throw new TypeError(`${this.name}: ${where}params is missing: a param group is { params: [...tensors], ...options }`);
    const listed = group.params instanceof Tensor || group.params instanceof DTensor ? [group.params] : group.params;
    if (listed === null || typeof listed !== 'object' || !(Symbol.iterator in listed)) {
      throw new TypeError(`${this.name}: ${where}params must be an array of tensors; got ${describeValue(listed)}`);
    }
    const params = [...listed];
    params.forEach((p, i) => {
      const at = `${where}params[${i}]`;
      if (!(p instanceof Tensor) && !(p instanceof DTensor)) throw new TypeError(`${this.name}: ${at} must be a tensor or a DTensor; got ${describeValue(p)}`);
      // a frozen parameter is taken, as PyTorch's: it has no gradient until it is unfrozen
      if (!isParameter(p)) throw new Error(`${this.name}: ${at} ${p instanceof Tensor ? p.describe() : p} does not require grad`);
      // its .grad stays empty (only leaves get one), so every step would silently do nothing
      if (p instanceof Tensor && !p.isLeaf) throw new Error(`${this.name}: ${at} ${p.describe()} is not a leaf (it was computed from other tensors; PyTorch: "can't optimize a non-leaf Tensor"): give the leaf itself, or x.detach().requiresGrad_()`);
      // PyTorch warns ("in future, this will cause an error"); stepped twice, it would be wrong
      if (params.indexOf(p) !== i) throw new Error(`${this.name}: ${at} is ${where}params[${params.indexOf(p)}] again: each parameter may be given once`);
      const other = this.paramGroups.findIndex((g) => g.params.includes(p));
      if (other >= 0) throw new Error(`${this.name}: ${at} is already in paramGroups[${other}]: a parameter may be in one group only`);
    });
    const values: H = { ...this.defaults };
    const given = group as Partial<Record<keyof H, unknown>>;
    for (const k of keys) if (given[k] !== undefined) values[k] = (k === 'lr' ? lrNumber(this.name, where, given[k]) : given[k]) as H[typeof k];
    // each group its own betas array: writing one group's must not change the others'
    for (const k of keys) if (Array.isArray(values[k])) values[k] = [...(values[k] as unknown[])] as H[typeof k];
    this.checkGroup(values, where);
    const made: ParamGroup<H> = { params, ...values };
    // group.weight_decay = 0 (PyTorch's key) would set a key no update reads
    installHints(made, `opt.paramGroups[${this.paramGroups.length}]`, ['initialLr']);
    this.paramGroups.push(made);
  }

  /** Checks a group's hyperparameters (`where` prefixes the names in errors: '' for the constructor's options). */
  protected abstract checkGroup(values: H, where: string): void;

  /** The updated tensors: each tensor parameter, and every piece of each DTensor parameter. */
  get params(): Tensor[] {
    const out: Tensor[] = [];
    for (const group of this.paramGroups) addPieces(group, out);
    return out;
  }

  /** The DTensor parameters: their pieces' gradients are read from the DTensor's .grad. */
  get #dtensors(): DTensor[] {
    const out: DTensor[] = [];
    for (const group of this.paramGroups) for (const p of group.params) if (p instanceof DTensor) out.push(p);
    return out;
  }

  /** The state tensors an update keeps per parameter (SGD's momentumBuffer, Adam's expAvg and expAvgSq). */
  protected abstract readonly stateKeys: readonly string[];

  /** The state tensors PyTorch's update moves with lerp_, which refuses a state of a dtype other than its parameter's. */
  protected readonly lerpedStateKeys: readonly string[] = [];
  /** replacementCount() when the states last matched their parameters (#checkState). */
  #statesCheckedAt = -1;

  /**
   * model.to() converts a module's parameters, not an optimizer's state, as in PyTorch: a state
   * left on another chip, or of another dtype where PyTorch's update refuses one, is an error
   * naming the fix before anything is updated. Other dtypes step as PyTorch's (SGD's momentum
   * kept in float32 for a bfloat16 parameter).
   */
  #checkState(p: Tensor): void {
    for (const [k, s] of Object.entries(this.state.get(p) ?? {})) {
      if (s.chip === p.chip && (s.dtype === p.dtype || !this.lerpedStateKeys.includes(k))) continue;
      throw new Error(`${this.name}.step: its state ${k} of the parameter ${p.describe()} on ${p.device} is ${s.dtype} on ${s.device}: ` +
        'model.to() and w.data = v convert the parameters, not the optimizer\'s state (PyTorch\'s step fails here too); make the optimizer after them, ' +
        'or convert its state to the parameters\' dtype and chip with opt.loadStateDict(opt.stateDict()), as PyTorch\'s load_state_dict does');
    }
  }

  /**
   * The optimizer's state as torch.optim's state_dict(): `state[i]` the i-th parameter's
   * (counted over the groups in order) `step` count and state tensors (the tensors themselves,
   * as PyTorch's), `paramGroups` each group's hyperparameters with `params` as those indices.
   * @example const saved = opt.stateDict(); opt.loadStateDict(saved)
   */
  stateDict(): OptimizerStateDict {
    const state: OptimizerStateDict['state'] = {};
    let index = 0;
    const paramGroups = this.paramGroups.map((group) => {
      const { params, ...values } = group;
      const copy: Record<string, unknown> = {};
      for (const [k, v] of Object.entries(values)) copy[k] = Array.isArray(v) ? v.map(numberValue) : numberValue(v);
      return { ...copy, params: params.map((p) => {
        // a DTensor's pieces are stepped together: the first one's count is the parameter's
        const steps = this.updatesOf.get(p instanceof DTensor ? p.localTensors()[0]! : p);
        if (steps !== undefined) {
          state[index] = { step: steps, ...(p instanceof DTensor ? dtensorState(p, (t) => this.state.get(t) ?? {}, this.stateKeys) : this.#stateInOrder(p)) };
        }
        return index++;
      }) };
    });
    return { state, paramGroups };
  }

  /** A parameter's state tensors in stateKeys' order (PyTorch's), whatever order the update made them in. */
  #stateInOrder(p: Tensor): Record<string, Tensor> {
    const mine = this.state.get(p) ?? {};
    return Object.fromEntries(this.stateKeys.filter((k) => k in mine).map((k) => [k, mine[k]!]));
  }

  /**
   * Loads a stateDict(): each group's hyperparameters, and each parameter's step count and state
   * tensors, copied in place (a tpu.compile'd step sees them without re-tracing); a parameter
   * with no saved state starts afresh, as in PyTorch. Groups and their sizes must match.
   * @example opt.loadStateDict(opt.stateDict())
   */
  loadStateDict(saved: OptimizerStateDict): void {
    const who = `${this.name}.loadStateDict`;
    const { state, paramGroups } = readOptions<OptimizerStateDict>(who, saved, ['state', 'paramGroups']);
    if (!Array.isArray(paramGroups) || paramGroups.length !== this.paramGroups.length) {
      throw new RangeError(`${who}: paramGroups must be an array of ${this.paramGroups.length} groups, as this optimizer's; got ${Array.isArray(paramGroups) ? paramGroups.length : typeof paramGroups}`);
    }
    if (state === null || typeof state !== 'object') throw new TypeError(`${who}: state must be an object of each parameter's state; got ${state === null ? 'null' : typeof state}`);
    const keys = Object.keys(this.defaults) as (keyof H & string)[];
    const byIndex = new Map<number, Tensor | DTensor>();
    const values = paramGroups.map((g, i) => {
      const where = `paramGroups[${i}]`;
      const { params, initialLr, ...given } = readOptions<SavedGroup>(`${who} ${where}`, g, ['params', 'initialLr', ...keys] as (keyof SavedGroup & string)[]);
      const mine = this.paramGroups[i]!.params;
      if (!Array.isArray(params) || params.length !== mine.length) throw new RangeError(`${who}: ${where} has ${Array.isArray(params) ? params.length : 'no'} params; this optimizer's has ${mine.length}`);
      params.forEach((id, k) => byIndex.set(id, mine[k]!));
      const merged = { ...this.defaults, ...given } as H;
      this.checkGroup(merged, `${where}.`);
      return initialLr === undefined ? merged : { ...merged, initialLr };
    });
    const loads = Object.entries(state).map(([id, entry]) => {
      const p = byIndex.get(Number(id));
      if (p === undefined) throw new RangeError(`${who}: state[${id}] is for no parameter of paramGroups`);
      const { step, ...tensors } = readOptions<Record<string, unknown>>(`${who} state[${id}]`, entry, ['step', ...this.stateKeys]);
      // 0: Adagrad's state before its first step
      if (typeof step !== 'number' || !Number.isInteger(step) || step < 0) throw new TypeError(`${who}: state[${id}].step must be an integer >= 0; got ${JSON.stringify(step)}`);
      for (const [k, t] of Object.entries(tensors)) {
        const ok = (t instanceof Tensor || (t instanceof DTensor && p instanceof DTensor)) && t.shape.join() === p.shape.join();
        if (!ok) throw new TypeError(`${who}: state[${id}].${k} must be a tensor of shape [${p.shape.join(', ')}] (its parameter's${p instanceof DTensor ? ', or a DTensor of it' : ''}); got ${t instanceof Tensor || t instanceof DTensor ? `${t instanceof DTensor ? 'a DTensor of ' : ''}shape [${t.shape.join(', ')}]` : typeof t}`);
      }
      // each piece of a DTensor parameter takes its piece of each state tensor
      if (!(p instanceof DTensor)) return [[p, step, tensors as Record<string, Tensor>] as const];
      const split = Object.entries(tensors as Record<string, Tensor | DTensor>).map(([k, t]) => [k, statePieces(p, t)] as const);
      return p.localTensors().map((piece, i) => [piece, step, Object.fromEntries(split.map(([k, ts]) => [k, ts[i]!]))] as const);
    }).flat();
    // all checked: now write
    this.paramGroups.forEach((group, i) => Object.assign(group, values[i]));
    // as PyTorch's load_state_dict: the state takes its parameter's dtype and chip (after a model.to())
    for (const p of this.params) for (const s of Object.values(this.state.get(p) ?? {})) convertInPlace(who, s, p.dtype, p.chip);
    // the zeros and casts made on the way are freed at once; state tensors made here are kept
    scope(() => noGrad(() => {
      const loaded = new Set(loads.map(([p]) => p));
      for (const p of this.params) {
        if (loaded.has(p)) continue;
        this.updatesOf.delete(p);
        for (const [k, t] of Object.entries(this.state.get(p) ?? {})) t.copy_(this.#startValue(t, k));
      }
      for (const [p, step, tensors] of loads) {
        this.updatesOf.set(p, step);
        const mine = this.stateOf(p);
        for (const [k, t] of Object.entries(tensors)) (mine[k] ??= keep(this.#startValue(p, k))).copy_(t.to(p.device));
      }
    }));
    this.stepCount = Math.max(0, ...loads.map(([, step]) => step));
  }

  /**
   * Sets every gradient to null (disposing the old ones), as PyTorch's zero_grad();
   * `{ setToNone: false }` (or `false`) writes zeros into them instead.
   */
  zeroGrad(options?: boolean | ZeroGradOptions): void {
    // the DTensors first: with setToNone false they are refused before any piece is zeroed
    const dtensors: (Tensor | DTensor)[] = this.#dtensors;
    zeroGrads('zeroGrad', dtensors.length ? [...dtensors, ...this.params] : this.params, options);
  }

  /** Each updated tensor's gradient: its .grad, or for a DTensor's piece that piece of the DTensor's .grad. */
  #gradients(): Map<Tensor, Tensor> {
    const grads = new Map<Tensor, Tensor>();
    // a state and its parameter part only when something was converted (Module.to counts as a replacement)
    const checked = replacementCount() === this.#statesCheckedAt;
    for (const p of this.params) {
      if (!checked) this.#checkState(p);
      if (p._grad) grads.set(p, p._grad);
    }
    this.#statesCheckedAt = replacementCount();
    for (const d of this.#dtensors) {
      const pieces = d.localTensors();
      d._gradValue()?.localTensors().forEach((g, k) => grads.set(pieces[k]!, g));
    }
    return grads;
  }

  /**
   * One update of every parameter that has a gradient (its ops attributed to the line calling
   * step()); in strict mode one program for all of them, as PyTorch's foreach update.
   */
  step(): void {
    // begin/end and bound methods, not closures made per step: those lost their optimized code
    // at each full collection (call-site.ts).
    const began = beginCallSite(Optimizer.prototype.step);
    try {
      // A DTensor's .grad may all-reduce its pieces' gradients: collectives, before the one-program update.
      const grads = this.#gradients();
      asOneOp(this.#update.bind(this, grads));
    } finally {
      endCallSite(began);
    }
  }

  #update(grads: Map<Tensor, Tensor>): void {
    // loops, not flatMap/filter/map chains: this runs at every step (host time of W6 fused)
    const stepped: [Tensor, ParamGroup<H>][] = [];
    const steppedTensors: Tensor[] = [];
    const pieces: Tensor[] = [];
    for (const group of this.paramGroups) {
      pieces.length = 0;
      addPieces(group, pieces);
      for (const t of pieces) {
        if (!grads.has(t)) continue;
        stepped.push([t, group]);
        steppedTensors.push(t);
      }
    }
    const advance = this.#advance.bind(this, steppedTensors);
    advance();
    onEachCall(advance);
    // The update's intermediates (lr * g, ...) are disposed: left to the collector, each would
    // keep its inputs' buffers (the gradients) alive in fused mode until a full collection.
    const updates = scope(this.#newValues.bind(this, stepped, grads));
    if (updates.length) assignAll(updates, `${this.name}.step`);
  }

  #advance(stepped: readonly Tensor[]): void {
    this.stepCount++;
    for (const p of stepped) this.updatesOf.set(p, (this.updatesOf.get(p) ?? 0) + 1);
  }

  /** Each stepped parameter and its new value, out of autograd. */
  #newValues(stepped: readonly [Tensor, ParamGroup<H>][], grads: ReadonlyMap<Tensor, Tensor>): [Tensor, Tensor][] {
    return noGrad(() => {
      const out: [Tensor, Tensor][] = [];
      for (const [p, group] of stepped) {
        const g = grads.get(p)!;
        if (g.disposed) throw new ReferenceError(`${this.name}.step: the gradient of ${p.describe()} was disposed`);
        out.push([p, this.update(p, g, this.stateOf(p), group)]);
      }
      return out;
    });
  }

  /** The parameter's new value, with its group's hyperparameters; updates its `state` tensors with setState. */
  protected abstract update(p: Tensor, grad: Tensor, state: Record<string, Tensor>, group: ParamGroup<H>): Tensor;

  /**
   * A hyperparameter as an op operand: read now, and again on each tpu.compile replay.
   * Typed as a number: ops take a live number wherever they take one.
   */
  protected hyper(read: () => number): number {
    return new LiveNumber(read) as unknown as number;
  }

  /**
   * A group's number hyperparameter now (a live number's value), checked in [lo, hi]: set
   * between steps, a bad value is an error naming the group and the key at the next step.
   */
  protected groupNumber(group: ParamGroup<H>, key: keyof H & string, lo: number, hi = Infinity, hiOpen = false): number {
    const v = numberValue(group[key]);
    if (typeof v === 'number' && inRange(v, lo, hi, hiOpen)) return v;
    return checkHyper(this.name, `paramGroups[${this.paramGroups.indexOf(group)}].${key}`, v, lo, hi, hiOpen);
  }

  /** A JS choice of a group that shapes the update's program (a replay traces again when it changes). */
  protected choice(group: ParamGroup<H>, what: string, read: () => boolean): boolean {
    return guard(`${this.name} paramGroups[${this.paramGroups.indexOf(group)}].${what}`, read);
  }

  /** A group's true/false option (maximize, amsgrad): a choice, checked at every step as groupNumber's. */
  protected groupFlag(group: ParamGroup<H>, key: keyof H & string): boolean {
    return this.choice(group, key, () => checkFlag(this.name, `paramGroups[${this.paramGroups.indexOf(group)}].${key}`, group[key]));
  }

  /**
   * The gradient an update follows, as each of PyTorch's begins: negated when the group
   * maximizes, plus weightDecay · p (L2 weight decay) when `l2` and the group's weightDecay is not 0.
   */
  protected followedGradient(group: ParamGroup<H>, p: Tensor, grad: Tensor, l2 = true): Tensor {
    const g = this.groupFlag(group, 'maximize') ? grad.neg() : grad;
    const decay = () => this.groupNumber(group, 'weightDecay', 0);
    return l2 && this.choice(group, 'weightDecay != 0', () => decay() !== 0) ? g.add(p.mul(this.hyper(decay))) : g;
  }

  protected stateOf(p: Tensor): Record<string, Tensor> {
    let s = this.state.get(p);
    if (!s) this.state.set(p, (s = {}));
    return s;
  }

  /** The value a state tensor starts at (0; Adagrad's sum starts at initialAccumulatorValue). */
  protected stateStart(_key: string): number {
    return 0;
  }

  /** A state tensor of the parameter's shape at its start value. */
  #startValue(p: Tensor, key: string): Tensor {
    return full([...p.shape], this.stateStart(key), { dtype: p.dtype, chip: p.chip });
  }

  /**
   * Makes each parameter's state tensors now, at their start values, stepped 0 times: PyTorch's
   * Adagrad makes its state in its constructor (the others at their first step).
   */
  protected startStates(): void {
    for (const p of this.params) {
      const state = this.stateOf(p);
      for (const k of this.stateKeys) state[k] ??= keep(this.#startValue(p, k));
      this.updatesOf.set(p, 0);
    }
  }

  /**
   * Updates a state tensor in place (created at its start value the first time), so it is a
   * program output of the step, like the parameter itself.
   */
  protected setState(p: Tensor, state: Record<string, Tensor>, key: string, value: (current: Tensor) => Tensor): Tensor {
    const target = (state[key] ??= keep(this.#startValue(p, key)));
    assignAll([[target, value(target)]], `${this.name}.step`);
    return target;
  }
}

/** Adds a group's updated tensors to `out`: its tensor parameters, and every piece of its DTensor parameters. */
function addPieces(group: ParamGroup<Hyperparameters>, out: Tensor[]): void {
  for (const p of group.params) {
    if (p instanceof DTensor) out.push(...p.localTensors());
    else out.push(p);
  }
}

const inRange = (v: number, lo: number, hi: number, hiOpen: boolean) => v >= lo && (hiOpen ? v < hi : v <= hi);

export function checkHyper(who: string, name: string, value: unknown, lo: number, hi = Infinity, hiOpen = false): number {
  const v = numberValue(value); // a number argument of a compiled step set as opt.lr
  if (typeof v !== 'number' || !inRange(v, lo, hi, hiOpen)) {
    throw new RangeError(`${who}: ${name} must be a number in [${lo}, ${hi}${hiOpen ? ')' : ']'}; got ${JSON.stringify(v)}`);
  }
  return v;
}

/** Checks a group's (or the options') `numbers` are in [0, Infinity] and its `flags` true or false. */
export function checkGroupValues<H extends object>(who: string, where: string, h: H, numbers: readonly (keyof H & string)[], flags: readonly (keyof H & string)[]): H {
  for (const k of numbers) checkHyper(who, `${where}${k}`, h[k], 0);
  for (const k of flags) checkFlag(who, `${where}${k}`, h[k]);
  return h;
}

export function checkFlag(who: string, name: string, value: unknown): boolean {
  if (typeof value !== 'boolean') throw new TypeError(`${who}: ${name} must be true or false; got ${JSON.stringify(value)}`);
  return value;
}

/**
 * Makes opt[key] (opt.lr, opt.momentum, ...) read and write paramGroups[0][key] when the
 * optimizer has one group. PyTorch has no opt.lr; with several groups it would be ambiguous,
 * so it is an error naming paramGroups.
 */
export function aliasOfOnlyGroup(proto: object, keys: readonly string[]): void {
  const only = (opt: Optimizer, key: string): Record<string, unknown> => {
    if (opt.paramGroups.length !== 1) throw new Error(`${opt.name}: opt.${key} is ambiguous with ${opt.paramGroups.length} param groups: use opt.paramGroups[i].${key}`);
    return opt.paramGroups[0] as unknown as Record<string, unknown>;
  };
  for (const key of keys) {
    Object.defineProperty(proto, key, {
      get(this: Optimizer) { return only(this, key)[key]; },
      set(this: Optimizer, v: unknown) { only(this, key)[key] = v; },
      configurable: true,
    });
  }
}
