// Builds an ONNX graph node by node and encodes it as a ModelProto (onnx.proto field numbers).
import { ProtobufWriter } from '../protobuf-writer.js';

export type OnnxType = 'float32' | 'uint16' | 'int32' | 'int64' | 'bool' | 'bfloat16' | 'float64';
const ELEM_TYPE: Record<OnnxType, number> = { float32: 1, uint16: 4, int32: 6, int64: 7, bool: 9, bfloat16: 16, float64: 11 };

/** Attribute values: integers and integer lists as plain numbers, floats and strings wrapped. */
export type OnnxAttr = number | readonly number[] | { float: number } | { floats: readonly number[] } | { string: string };

interface Node {
  op: string;
  /** A custom operator's domain (the default ONNX domain when absent). */
  domain?: string;
  inputs: readonly string[];
  outputs: readonly string[];
  attrs: Readonly<Record<string, OnnxAttr>>;
  /** The node's name, which ONNX Runtime's errors quote (unnamed when absent). */
  name?: string;
}
interface ValueInfo { name: string; type: OnnxType; dims: readonly number[] }
interface Initializer { name: string; type: 'int64' | 'float32' | 'int32' | 'float64'; dims: readonly number[]; values: readonly number[] }

const OPSET = 18;
const CUSTOM_OPSET = 1;

export class OnnxGraph {
  private nodes: Node[] = [];
  /** Each node by its outputs' names (lowerings look back at what made an operand). */
  private byOutput = new Map<string, Node>();
  private inputs: ValueInfo[] = [];
  private outputs: ValueInfo[] = [];
  private initializers: Initializer[] = [];
  private counter = 0;

  fresh(prefix = 'v'): string {
    return `${prefix}${this.counter++}`;
  }

  input(name: string, type: OnnxType, dims: readonly number[]): string {
    this.inputs.push({ name, type, dims });
    return name;
  }

  output(name: string, type: OnnxType, dims: readonly number[]): void {
    this.outputs.push({ name, type, dims });
  }

  /** Adds one node and returns the name of its (first) output. */
  node(op: string, inputs: readonly string[], attrs: Record<string, OnnxAttr> = {}): string {
    const out = this.fresh();
    this.add({ op, inputs, outputs: [out], attrs });
    return out;
  }

  private add(n: Node): void {
    this.nodes.push(n);
    for (const o of n.outputs) this.byOutput.set(o, n);
  }

  /** Reshapes `value` to `shape`, given in full: a 0 in it is an empty dim (allowzero), never "keep the input's". */
  reshape(value: string, shape: readonly number[]): string {
    return this.node('Reshape', [value, this.int64s(shape)], { allowzero: 1 });
  }

  /**
   * Broadcasts `value` to `shape`. An empty result is sliced out of the value instead: ONNX
   * Runtime (1.30) expands a dim of 1 to a requested 0 as 1.
   */
  expand(value: string, shape: readonly number[]): string {
    if (!shape.includes(0)) return this.node('Expand', [value, this.int64s(shape)]);
    const none = this.node('Slice', [this.reshape(value, [-1]), this.int64s([0]), this.int64s([0])]);
    return this.reshape(none, shape);
  }

  /** Adds one node named `name` (ONNX Runtime's error for a failing node quotes it) and returns its output. */
  namedNode(name: string, op: string, inputs: readonly string[]): string {
    const out = this.fresh();
    this.add({ op, inputs, outputs: [out], attrs: {}, name });
    return out;
  }

  /** Adds one node of a custom operator (registered with the session by the ortc addon). */
  customNode(domain: string, op: string, inputs: readonly string[], attrs: Record<string, OnnxAttr> = {}): string {
    const out = this.fresh();
    this.add({ op, domain, inputs, outputs: [out], attrs });
    return out;
  }

  /** Adds one node with several outputs (TopK: values and indices) and returns their names. */
  nodeOutputs(op: string, inputs: readonly string[], count: number, attrs: Record<string, OnnxAttr> = {}): string[] {
    const outputs = Array.from({ length: count }, () => this.fresh());
    this.add({ op, inputs, outputs, attrs });
    return outputs;
  }

  /** Sets an attribute of the node that makes `value` (a peephole folding its consumer into it). */
  setAttribute(value: string, name: string, attr: OnnxAttr): void {
    const n = this.byOutput.get(value)!;
    n.attrs = { ...n.attrs, [name]: attr };
  }

  /** The node that makes `value` (undefined for graph inputs and constants). */
  producer(value: string): Readonly<Node> | undefined {
    return this.byOutput.get(value);
  }

  /** A structural constant (axes, shapes): part of the program's signature, never a user value. */
  constant(type: Initializer['type'], dims: readonly number[], values: readonly number[]): string {
    const name = this.fresh('c');
    this.initializers.push({ name, type, dims, values });
    return name;
  }

  int64s(values: readonly number[]): string {
    return this.constant('int64', [values.length], values);
  }

  /** The nodes some graph output depends on: a lowering may leave a node it found a better form for. */
  private liveNodes(): Node[] {
    const needed = new Set(this.outputs.map((o) => o.name));
    const live: Node[] = [];
    for (let i = this.nodes.length - 1; i >= 0; i--) {
      const n = this.nodes[i]!;
      if (!n.outputs.some((o) => needed.has(o))) continue;
      live.push(n);
      for (const input of n.inputs) needed.add(input);
    }
    return live.reverse();
  }

  /** The graph as readable lines ("v3 = Add(in0, s0)"), for %program. */
  toText(): string {
    const sig = (v: ValueInfo) => `${v.name}: ${v.type}[${v.dims.join(',')}]`;
    const attr = (a: OnnxAttr) => (typeof a === 'number' || Array.isArray(a) ? JSON.stringify(a) : JSON.stringify(Object.values(a)[0]));
    const lines = [`inputs: ${this.inputs.map(sig).join(', ')}`];
    for (const c of this.initializers) lines.push(`${c.name} = constant ${c.type}[${c.dims.join(',')}] ${JSON.stringify(c.values)}`);
    for (const n of this.liveNodes()) {
      const attrs = Object.entries(n.attrs).map(([k, v]) => `${k}=${attr(v)}`);
      lines.push(`${n.outputs.join(', ')} = ${n.domain ? `${n.domain}.` : ''}${n.op}(${[...n.inputs, ...attrs].join(', ')})`);
    }
    lines.push(`outputs: ${this.outputs.map(sig).join(', ')}`);
    return lines.join('\n');
  }

  encode(): Uint8Array {
    const w = new ProtobufWriter();
    w.int(1, 8); // ir_version
    w.string(2, 'tpu-kernel');
    const nodes = this.liveNodes();
    w.message(7, (g) => {
      for (const n of nodes) g.message(1, (nw) => writeNode(nw, n));
      g.string(2, 'program');
      for (const init of this.initializers) g.message(5, (tw) => writeInitializer(tw, init));
      for (const v of this.inputs) g.message(11, (vw) => writeValueInfo(vw, v));
      for (const v of this.outputs) g.message(12, (vw) => writeValueInfo(vw, v));
    });
    w.message(8, (o) => o.string(1, '').int(2, OPSET));
    for (const domain of new Set(nodes.flatMap((n) => (n.domain ? [n.domain] : [])))) {
      w.message(8, (o) => o.string(1, domain).int(2, CUSTOM_OPSET));
    }
    return w.finish();
  }
}

function writeNode(w: ProtobufWriter, n: Node): void {
  for (const i of n.inputs) w.string(1, i);
  for (const o of n.outputs) w.string(2, o);
  if (n.name) w.string(3, n.name);
  w.string(4, n.op);
  if (n.domain) w.string(7, n.domain);
  for (const [name, value] of Object.entries(n.attrs)) w.message(5, (a) => writeAttr(a, name, value));
}

function writeAttr(w: ProtobufWriter, name: string, value: OnnxAttr): void {
  w.string(1, name);
  if (typeof value === 'number') w.int(3, value).int(20, 2);
  else if (isIntList(value)) w.packedInts(8, value).int(20, 7);
  else if ('float' in value) w.float(2, value.float).int(20, 1);
  else if ('string' in value) w.string(4, value.string).int(20, 3);
  else {
    for (const f of value.floats) w.float(7, f);
    w.int(20, 6);
  }
}

function isIntList(value: OnnxAttr): value is readonly number[] {
  return Array.isArray(value);
}

function writeValueInfo(w: ProtobufWriter, v: ValueInfo): void {
  w.string(1, v.name);
  w.message(2, (t) =>
    t.message(1, (tt) => {
      tt.int(1, ELEM_TYPE[v.type]);
      tt.message(2, (s) => {
        for (const d of v.dims) s.message(1, (dim) => dim.int(1, d));
      });
    }),
  );
}

function writeInitializer(w: ProtobufWriter, init: Initializer): void {
  w.packedInts(1, init.dims);
  w.int(2, ELEM_TYPE[init.type]);
  w.string(8, init.name);
  if (init.type === 'float32') w.bytes(9, new Uint8Array(new Float32Array(init.values).buffer));
  else if (init.type === 'int32') w.bytes(9, new Uint8Array(new Int32Array(init.values).buffer));
  else if (init.type === 'float64') w.bytes(9, new Uint8Array(new Float64Array(init.values).buffer));
  else w.bytes(9, new Uint8Array(new BigInt64Array(init.values.map((v) => BigInt(v))).buffer));
}
