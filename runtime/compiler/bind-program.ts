// Turns the recipes of some tensors into one program plus its bindings (the buffers and
// scalar values to run it with). The signature is the structural cache key: ops,
// attributes, input shapes and dtypes, never the values of scalars. The Program itself is
// only built on a cache miss.
import { attrKeyOf } from '../ops/op.js';
import { formatSite, type CallSite } from '../call-site.js';
import type { DeviceBuffer } from '../device/memory.js';
import type { Tensor } from '../tensor.js';
import type { Program, ProgramValue } from './program.js';
import { isScalar, type TraceNode, type WeakScalar } from './trace.js';
import type { DType } from '../dtype.js';

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
  /** Where the ops were called, when call sites were captured (else undefined). */
  readonly site: (() => string) | undefined;
}

/** A region's binding also names its scalar operands, in program order (tpu.compile re-reads live ones). */
export interface BoundRegion extends BoundProgram {
  readonly scalarOperands: readonly WeakScalar[];
  /** The tensor each input buffer was reached through. */
  readonly inputTensors: readonly Tensor[];
}

type Ref = number; // value id once inputs and scalars are counted: see resolve()

function checkLive(t: Tensor, buf: DeviceBuffer): void {
  if (buf.freed) {
    throw new ReferenceError(`cannot compute this value: its input ${t.describe()} was disposed before it was computed`);
  }
}

/** Fast path for one op whose operands are all in device memory (strict and debug). */
export function bindSingle(node: TraceNode, out: Tensor): BoundProgram {
  return new SingleOpBinding(node, out);
}

// A class, not an object of closures: strict mode binds one per op, allocation counts.
class SingleOpBinding implements BoundProgram {
  readonly signature: string;
  readonly inputs: DeviceBuffer[] = [];
  readonly scalars: number[] = [];
  readonly outputs: readonly Tensor[];
  private readonly inputValues: Tensor[] = [];
  private readonly operandIds: number[] = [];

  constructor(private readonly node: TraceNode, out: Tensor) {
    this.outputs = [out];
    let key = node.op.name + '|' + attrKeyOf(node.op, node.attrs) + '|';
    for (const v of node.inputs) {
      if (isScalar(v)) {
        this.operandIds.push(-1 - this.scalars.length);
        this.scalars.push(v.value);
        key += 's' + v.dtype + ',';
        continue;
      }
      const buf = v._buf!;
      checkLive(v, buf);
      let i = this.inputs.indexOf(buf);
      if (i < 0) {
        i = this.inputs.length;
        this.inputs.push(buf);
        this.inputValues.push(v);
      }
      this.operandIds.push(i);
      key += i + ':' + v.dtype + '[' + v.shapeKey() + '],';
    }
    this.signature = key;
  }

  structure(): string {
    return this.signature.replace(/\[[^\]]*\]/g, '[]');
  }

  program(): Program {
    const { node, inputs } = this;
    const values = this.inputValues.map((t): ProgramValue => ({ shape: t.shape, dtype: t.dtype }));
    const scalarTypes = node.inputs.filter(isScalar).map((v) => v.dtype);
    const ids = this.operandIds.map((id) => (id >= 0 ? id : inputs.length + (-1 - id)));
    const n = { op: node.op.name, inputs: ids, attrs: node.attrs, shape: node.shape, dtype: node.dtype };
    return { inputs: values, scalars: scalarTypes, nodes: [n], outputs: [inputs.length + scalarTypes.length] };
  }

  label(): string {
    return `op '${this.node.op.name}'`;
  }

  get site(): (() => string) | undefined {
    const site = this.node.site;
    return site.stack ? () => formatSite(site) : undefined;
  }
}

/** The general case: all recipes reachable from `outputs`, down to tensors in device memory. */
export function bindProgram(outputs: readonly Tensor[]): BoundRegion {
  const inputs: DeviceBuffer[] = [];
  const inputValues: ProgramValue[] = [];
  const inputTensors: Tensor[] = [];
  const inputIndex = new Map<DeviceBuffer, number>();
  const scalarTypes: DType[] = [];
  const scalars: number[] = [];
  const scalarOperands: WeakScalar[] = [];
  const nodes: TraceNode[] = [];
  const nodeIndex = new Map<TraceNode, number>();
  // Operands as tagged refs: inputs >= 0, scalars -1-k, nodes as 'n' + index (resolved below).
  const refs: (Ref | string)[][] = [];

  const visit = (t: Tensor): Ref | string => {
    const buf = t._buf;
    if (buf) {
      checkLive(t, buf);
      let i = inputIndex.get(buf);
      if (i === undefined) {
        i = inputs.length;
        inputIndex.set(buf, i);
        inputs.push(buf);
        inputTensors.push(t);
        inputValues.push({ shape: t.shape, dtype: t.dtype });
      }
      return i;
    }
    const node = t._node;
    if (!node) throw new Error(`internal: tensor ${t.describe()} has neither a buffer nor a recipe`);
    const seen = nodeIndex.get(node);
    if (seen !== undefined) return 'n' + seen;
    const ins = node.inputs.map((v) => {
      if (!isScalar(v)) return visit(v);
      scalarTypes.push(v.dtype);
      scalars.push(v.value);
      scalarOperands.push(v);
      return -scalars.length;
    });
    const i = nodes.length;
    nodeIndex.set(node, i);
    nodes.push(node);
    refs.push(ins);
    return 'n' + i;
  };
  const outRefs = outputs.map(visit);

  const base = inputs.length + scalars.length;
  const resolve = (r: Ref | string): number =>
    typeof r === 'string' ? base + Number(r.slice(1)) : r >= 0 ? r : inputs.length + (-1 - r);
  const ids = refs.map((ins) => ins.map(resolve));
  const outIds = outRefs.map(resolve);
  const body = nodes.map((n, k) => `${n.op.name}(${ids[k]!.join(',')})${attrKeyOf(n.op, n.attrs)}:${n.dtype}`).join(';');
  const head = `${inputValues.map((v) => v.dtype).join(',')}|${scalarTypes.join(',')}|`;
  const tail = `|${body}|${outIds.join(',')}`;
  const shapes = inputValues.map((v) => v.shape.join('x')).join(',');
  const sites = nodes.filter((n) => n.site.stack).map((n) => n.site);
  return {
    signature: head + shapes + tail,
    structure: () => head + tail,
    program: () => ({
      inputs: inputValues,
      scalars: scalarTypes,
      nodes: nodes.map((n, k) => ({ op: n.op.name, inputs: ids[k]!, attrs: n.attrs, shape: n.shape, dtype: n.dtype })),
      outputs: outIds,
    }),
    inputs,
    scalars,
    scalarOperands,
    inputTensors,
    outputs,
    label: () =>
      nodes.length === 1
        ? `op '${nodes[0]!.op.name}'`
        : `fused program of ${nodes.length} ops (${[...new Set(nodes.map((n) => n.op.name))].join(', ')})`,
    site: sites.length ? () => siteRange(sites) : undefined,
  };
}

function siteRange(sites: readonly CallSite[]): string {
  const first = formatSite(sites[0]);
  const last = formatSite(sites[sites.length - 1]);
  return first === last ? first : `${first} … ${last}`;
}
