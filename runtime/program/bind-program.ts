// Turns the recipes of some tensors into one program plus its bindings (the buffers and
// scalar values to run it with). The signature is the structural cache key: ops,
// attributes, input shapes and dtypes, never the values of scalars. The Program itself is
// only built on a cache miss.
import { attrKeyOf, type Primitive } from '../primitive.js';
import { withOpSites, type CallSite, type Site } from '../call-site.js';
import { shapesEqual, type Shape } from '../shape.js';
import type { DeviceBuffer } from '../device/memory.js';
import type { Tensor } from '../tensor.js';
import type { Program, ProgramValue } from './program.js';
import { rewriteTransposedMatmuls } from './transposed-matmul.js';
import { isScalar, type TraceNode, type WeakScalar } from '../tensor.js';
import type { DType } from '../dtype.js';
import { keepShape } from '../keep-shape.js';

export interface BoundProgram {
  readonly signature: string;
  /** The signature without input shapes: programs differing only in shapes share it. */
  readonly structure: () => string;
  readonly program: () => Program;
  readonly inputs: readonly DeviceBuffer[];
  readonly scalars: readonly number[];
  readonly outputs: readonly Tensor[];
  /** "op 'add'" or "fused program of 12 ops (mul, add, tanh)". */
  readonly label: () => string;
  /** Where the ops were called, when call sites were captured (else null). */
  readonly site: Site | null;
}

/** What a single-op program was compiled for, kept to recognise the next call alike. */
export interface OperandTypes {
  readonly attrKey: string;
  readonly ids: readonly number[];
  readonly dtypes: readonly DType[];
  /** null for a scalar operand. */
  readonly shapes: readonly (Shape | null)[];
}

/** A region's binding also names its scalar operands, in program order (tpu.compile re-reads live ones). */
export interface BoundRegion extends BoundProgram {
  readonly scalarOperands: readonly WeakScalar[];
  /** The tensor each input buffer was reached through. */
  readonly inputTensors: readonly Tensor[];
  /** Over several chips: each chip's program, whose inputs, scalars and outputs are these, in order. */
  readonly parts?: readonly BoundRegion[];
}

/** Several chips' bindings as one: their inputs, scalars and outputs in turn (`parts` launch them). */
export function combineBindings(parts: readonly BoundRegion[]): BoundRegion {
  return {
    signature: parts.map((p) => p.signature).join('\n'),
    structure: () => parts.map((p) => p.structure()).join('\n'),
    program: () => { throw new Error('internal: a binding over several chips has one program per chip (parts)'); },
    inputs: parts.flatMap((p) => p.inputs),
    scalars: parts.flatMap((p) => p.scalars),
    outputs: parts.flatMap((p) => p.outputs),
    scalarOperands: parts.flatMap((p) => p.scalarOperands),
    inputTensors: parts.flatMap((p) => p.inputTensors),
    label: () => parts.map((p) => p.label()).join('; '),
    site: parts[0]!.site,
    parts,
  };
}

// Operand refs while walking: inputs >= 0, scalars -1-k, the node recorded i-th NODE_REF + i
// (numbers, not tagged strings: a region of 512 ops is bound at every size-cap cut).
const NODE_REF = 2 ** 31;

function checkLive(t: Tensor, buf: DeviceBuffer): void {
  if (buf.freed) {
    const how = buf.lostWithSession ? 'was freed by tpu.reset()' : 'was disposed before it was computed';
    throw new ReferenceError(`cannot compute this value: its input ${t.describe()} ${how}`);
  }
}

const NO_SCALARS: readonly number[] = [];

/** Fast path for one op whose operands are all in device memory (strict and debug). */
export function bindSingle(node: TraceNode, out: Tensor): BoundProgram {
  return new SingleOpBinding(node, out);
}

// A class, not an object of closures: strict mode binds one per op, so allocations count,
// and the signature string is built only when the program cache cannot recognise the
// operand types by comparing them with the last call of the same op (sameTypes).
export class SingleOpBinding implements BoundProgram {
  readonly inputs: DeviceBuffer[] = [];
  readonly scalars: readonly number[];
  readonly outputs: readonly Tensor[];
  readonly op: Primitive;
  private readonly attrKey: string;
  /** Per operand: its input index, or -1-k for the k-th scalar. */
  private readonly ids: number[] = [];
  private key: string | undefined;

  constructor(private readonly node: TraceNode, out: Tensor) {
    this.outputs = [out];
    this.op = node.op;
    this.attrKey = attrKeyOf(node.op, node.attrs);
    const ins = node.inputs;
    let scalars: number[] | null = null;
    for (let k = 0; k < ins.length; k++) {
      const v = ins[k]!;
      if (isScalar(v)) {
        (scalars ??= []).push(v.value);
        this.ids.push(-scalars.length);
        continue;
      }
      const buf = v._buf!;
      checkLive(v, buf);
      let i = this.inputs.indexOf(buf);
      if (i < 0) {
        i = this.inputs.length;
        this.inputs.push(buf);
      }
      this.ids.push(i);
    }
    this.scalars = scalars ?? NO_SCALARS;
  }

  get signature(): string {
    return (this.key ??= this.buildSignature());
  }

  private buildSignature(): string {
    let key = this.op.name + '|' + this.attrKey + '|';
    const ins = this.node.inputs;
    for (let k = 0; k < ins.length; k++) {
      const v = ins[k]!;
      key += isScalar(v) ? 's' + v.dtype + ',' : this.ids[k] + ':' + v.dtype + '[' + v.shapeKey() + '],';
    }
    return key;
  }

  /** The operand types to remember for the next call (sameTypes). */
  types(): OperandTypes {
    const ins = this.node.inputs;
    return {
      attrKey: this.attrKey,
      ids: this.ids,
      dtypes: ins.map((v) => v.dtype),
      shapes: ins.map((v) => (isScalar(v) ? null : v.shape)),
    };
  }

  /** Same op (the caller checks), same attributes, operand types and aliasing as `t`. */
  sameTypes(t: OperandTypes): boolean {
    const ins = this.node.inputs;
    if (this.attrKey !== t.attrKey || ins.length !== t.ids.length) return false;
    for (let k = 0; k < ins.length; k++) {
      const v = ins[k]!;
      if (this.ids[k] !== t.ids[k] || v.dtype !== t.dtypes[k]) return false;
      const shape = t.shapes[k]!;
      if (isScalar(v) ? shape !== null : shape === null || !shapesEqual(v.shape, shape)) return false;
    }
    return true;
  }

  structure(): string {
    return this.signature.replace(/\[[^\]]*\]/g, '[]');
  }

  program(): Program {
    const { node, inputs } = this;
    const values: ProgramValue[] = inputs.map(() => ({ shape: [], dtype: 'float32' }));
    const scalarTypes: DType[] = [];
    node.inputs.forEach((v, k) => {
      if (isScalar(v)) scalarTypes.push(v.dtype);
      else values[this.ids[k]!] = { shape: v.shape, dtype: v.dtype };
    });
    const ids = this.ids.map((id) => (id >= 0 ? id : inputs.length + (-1 - id)));
    const n = { op: node.op.name, inputs: ids, attrs: node.attrs, shape: node.shape, dtype: node.dtype };
    return { inputs: values, scalars: scalarTypes, nodes: [n], outputs: [inputs.length + scalarTypes.length] };
  }

  label(): string {
    return `op '${this.node.op.name}'`;
  }

  get site(): Site | null {
    return this.node.site;
  }
}
// A binding of no operands, for its class's shape (keep-shape.ts).
keepShape(new SingleOpBinding({ op: { name: 'shape' }, inputs: [], attrs: null } as unknown as TraceNode, null as unknown as Tensor));

/** Numbers the bindings: a node stamped with the current one was numbered by it (TraceNode.boundBy). */
let bindings = 0;

/** The general case: all recipes reachable from `outputs`, down to tensors in device memory; `site`: where they were called. */
export function bindProgram(outputs: readonly Tensor[], site: Site | null = null): RegionBinding {
  const b = new Binder();
  const outIds: number[] = new Array(outputs.length);
  for (let j = 0; j < outputs.length; j++) outIds[j] = b.visit(outputs[j]!);
  // Refs become value ids (inputs, then scalars, then nodes), in place.
  for (const ins of b.refs) for (let j = 0; j < ins.length; j++) ins[j] = b.resolve(ins[j]!);
  for (let j = 0; j < outIds.length; j++) outIds[j] = b.resolve(outIds[j]!);
  return new RegionBinding(
    b.inputs, b.inputValues, b.inputTensors, b.scalarTypes, b.scalars, b.scalarOperands, b.nodes, b.refs, outIds, outputs,
    withOpSites(site, b.opSites),
  );
}

/**
 * One binding's walk over the recipes. A class, not a closure made per binding: V8 keeps a
 * closure's optimized code only while one of its closures lives, and this one was compiled
 * again after each full collection (docs/runtime.md, W6).
 */
class Binder {
  readonly binding = ++bindings;
  readonly inputs: DeviceBuffer[] = [];
  readonly inputValues: ProgramValue[] = [];
  readonly inputTensors: Tensor[] = [];
  readonly inputIndex = new Map<DeviceBuffer, number>();
  readonly scalarTypes: DType[] = [];
  readonly scalars: number[] = [];
  readonly scalarOperands: WeakScalar[] = [];
  readonly nodes: TraceNode[] = [];
  readonly refs: number[][] = [];
  readonly opSites: { name: string; site: CallSite }[] = [];

  /** t's ref: an input's index, or NODE_REF + its node's. */
  visit(t: Tensor): number {
    const buf = t._buf;
    if (buf) {
      checkLive(t, buf);
      let i = this.inputIndex.get(buf);
      if (i === undefined) {
        i = this.inputs.length;
        this.inputIndex.set(buf, i);
        this.inputs.push(buf);
        this.inputTensors.push(t);
        this.inputValues.push({ shape: t.shape, dtype: t.dtype });
      }
      return i;
    }
    const node = t._node;
    if (!node) throw new Error(`internal: tensor ${t.describe()} has neither a buffer nor a recipe`);
    if (node.boundBy === this.binding) return NODE_REF + node.boundAt;
    const operands = node.inputs;
    const ins: number[] = new Array(operands.length);
    for (let k = 0; k < operands.length; k++) {
      const v = operands[k]!;
      if (!isScalar(v)) ins[k] = this.visit(v);
      else {
        this.scalarTypes.push(v.dtype);
        this.scalars.push(v.value);
        this.scalarOperands.push(v);
        ins[k] = -this.scalars.length;
      }
    }
    const i = this.nodes.length;
    node.boundBy = this.binding;
    node.boundAt = i;
    this.nodes.push(node);
    this.refs.push(ins);
    if (node.site) this.opSites.push({ name: node.op.name, site: node.site });
    return NODE_REF + i;
  }

  /** A ref as a value id: inputs, then scalars, then nodes. */
  resolve(r: number): number {
    const { inputs, scalars } = this;
    return r >= NODE_REF ? inputs.length + scalars.length + (r - NODE_REF) : r >= 0 ? r : inputs.length + (-1 - r);
  }
}
keepShape(new Binder());

// A class with a lazy signature: a region of 512 ops is bound at every size-cap cut, and the
// program cache recognises a region bound before by comparing its structure (region-key.ts),
// so the signature string (kilobytes, hashed on every Map lookup) is built only on a miss.
export class RegionBinding implements BoundRegion {
  private key: string | undefined;

  constructor(
    readonly inputs: readonly DeviceBuffer[],
    readonly inputValues: readonly ProgramValue[],
    readonly inputTensors: readonly Tensor[],
    readonly scalarTypes: readonly DType[],
    readonly scalars: readonly number[],
    readonly scalarOperands: readonly WeakScalar[],
    /** The recipes computed, in program order; `refs[k]`: the value ids node k reads. */
    readonly nodes: readonly TraceNode[],
    readonly refs: readonly (readonly number[])[],
    readonly outIds: readonly number[],
    readonly outputs: readonly Tensor[],
    readonly site: Site | null,
  ) {}

  get signature(): string {
    return (this.key ??= this.head() + this.inputValues.map((v) => v.shape.join('x')).join(',') + this.tail());
  }

  structure(): string {
    return this.head() + this.tail();
  }

  private head(): string {
    return `${this.inputValues.map((v) => v.dtype).join(',')}|${this.scalarTypes.join(',')}|`;
  }

  private tail(): string {
    let body = '';
    for (let k = 0; k < this.nodes.length; k++) {
      const n = this.nodes[k]!;
      body += (k ? ';' : '') + n.op.name + '(' + this.refs[k]!.join(',') + ')' + attrKeyOf(n.op, n.attrs) + ':' + n.dtype;
    }
    return `|${body}|${this.outIds.join(',')}`;
  }

  /** The IR to compile: the recipes as recorded, transposed matmul results rewritten (transposed-matmul.ts). */
  program(): Program {
    const { nodes, refs } = this;
    return rewriteTransposedMatmuls({
      inputs: this.inputValues,
      scalars: this.scalarTypes,
      nodes: nodes.map((n, k) => ({ op: n.op.name, inputs: refs[k]!, attrs: n.attrs, shape: n.shape, dtype: n.dtype })),
      outputs: this.outIds,
    });
  }

  label(): string {
    const { nodes } = this;
    return nodes.length === 1
      ? `op '${nodes[0]!.op.name}'`
      : `fused program of ${nodes.length} ops (${[...new Set(nodes.map((n) => n.op.name))].join(', ')})`;
  }
}
keepShape(new RegionBinding([], [], [], [], [], [], [], [], [], [], null));
