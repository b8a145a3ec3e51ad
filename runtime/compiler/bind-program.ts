// Turns the recipes of some tensors into one program plus its bindings (the buffers and
// scalar values to run it with). The signature is the structural cache key: ops,
// attributes, input shapes and dtypes, never the values of scalars.
import { attrKeyOf } from '../ops/op.js';
import { formatSite } from '../call-site.js';
import type { DeviceBuffer } from '../device/memory.js';
import type { Tensor } from '../tensor.js';
import type { Program, ProgramNode, ProgramValue } from './program.js';
import { isScalar, type TraceNode } from './trace.js';
import type { DType } from '../dtype.js';

export interface BoundProgram {
  readonly program: Program;
  readonly signature: string;
  /** The signature without input shapes: programs differing only in shapes share it. */
  readonly structure: string;
  readonly inputs: readonly DeviceBuffer[];
  readonly scalars: readonly number[];
  readonly outputs: readonly Tensor[];
  readonly label: () => string;
  readonly site: () => string;
}

export function bindProgram(outputs: readonly Tensor[]): BoundProgram {
  const inputs: DeviceBuffer[] = [];
  const inputValues: ProgramValue[] = [];
  const inputIndex = new Map<DeviceBuffer, number>();
  const scalarTypes: DType[] = [];
  const scalars: number[] = [];
  const nodes: TraceNode[] = [];
  const nodeIndex = new Map<TraceNode, number>();
  // Operand references are resolved once all inputs and scalars are counted.
  const refs: { kind: 'in' | 'sc' | 'node'; i: number }[][] = [];
  const structure: string[] = [];

  const visit = (t: Tensor): { kind: 'in' | 'sc' | 'node'; i: number } => {
    const buf = t._buf;
    if (buf?.freed) {
      throw new ReferenceError(
        `cannot compute this value: its input ${t.dtype}${JSON.stringify(t.shape)} was disposed before it was computed`,
      );
    }
    if (buf) {
      let i = inputIndex.get(buf);
      if (i === undefined) {
        i = inputs.length;
        inputIndex.set(buf, i);
        inputs.push(buf);
        inputValues.push({ shape: t.shape, dtype: t.dtype });
      }
      return { kind: 'in', i };
    }
    const node = t._node;
    if (!node) throw new Error(`internal: tensor ${t.dtype}${JSON.stringify(t.shape)} has neither a buffer nor a recipe`);
    let i = nodeIndex.get(node);
    if (i !== undefined) return { kind: 'node', i };
    const ins = node.inputs.map((v) => {
      if (!isScalar(v)) return visit(v);
      scalarTypes.push(v.dtype);
      scalars.push(v.value);
      return { kind: 'sc' as const, i: scalars.length - 1 };
    });
    i = nodes.length;
    nodeIndex.set(node, i);
    nodes.push(node);
    refs.push(ins);
    return { kind: 'node', i };
  };
  const outRefs = outputs.map(visit);

  const base = inputs.length + scalars.length;
  const id = (r: { kind: string; i: number }) => (r.kind === 'in' ? r.i : r.kind === 'sc' ? inputs.length + r.i : base + r.i);
  const programNodes: ProgramNode[] = nodes.map((n, k) => {
    const ins = refs[k]!.map(id);
    structure.push(`${n.op.name}(${ins.join(',')})${attrKeyOf(n.op, n.attrs)}:${n.dtype}`);
    return { op: n.op.name, inputs: ins, attrs: n.attrs, shape: n.shape, dtype: n.dtype };
  });
  const program: Program = { inputs: inputValues, scalars: scalarTypes, nodes: programNodes, outputs: outRefs.map(id) };
  const head = `${inputValues.map((v) => v.dtype).join(',')}|${scalarTypes.join(',')}|`;
  const body = `${structure.join(';')}|${program.outputs.join(',')}`;
  const shapes = inputValues.map((v) => v.shape.join('x')).join(',');
  return {
    program,
    signature: head + shapes + '|' + body,
    structure: head + body,
    inputs,
    scalars,
    outputs,
    label: () =>
      nodes.length === 1
        ? `op '${nodes[0]!.op.name}'`
        : `fused program of ${nodes.length} ops (${[...new Set(nodes.map((n) => n.op.name))].join(', ')})`,
    site: () => (nodes.length <= 1 ? formatSite(nodes[0]?.site) : siteRange(nodes)),
  };
}

function siteRange(nodes: readonly TraceNode[]): string {
  const first = formatSite(nodes[0]!.site);
  const last = formatSite(nodes[nodes.length - 1]!.site);
  return first === last ? first : `${first} … ${last}`;
}
