// %program: the last compiled program as readable text — its ops (the program IR) and
// the ONNX graph the embedded backend runs for it (the same lowering the device thread
// does, redone here on the host).
import { formatShape } from '../shape.js';
import { valueOf, type Program } from '../program/program.js';
import type { CompiledEntry } from '../program/program-cache.js';
import { lowerToOnnx } from '../device/onnx/lower-program.js';
import { escapeXml } from './format.js';

export class ProgramListing {
  readonly ops: string;
  readonly backendGraph: string;

  constructor(readonly entry: CompiledEntry) {
    this.ops = programText(entry);
    this.backendGraph = lowerToOnnx(entry.program).text;
  }

  toString(): string {
    return `${this.ops}\n\nONNX graph run by the backend (onnxruntime-cpu):\n${this.backendGraph}`;
  }

  [Symbol.for('Jupyter.display')](): Record<string, unknown> {
    return {
      'text/plain': this.toString(),
      'text/html': `<pre>${escapeXml(this.ops)}</pre><details><summary>ONNX graph run by the backend (onnxruntime-cpu)</summary><pre>${escapeXml(this.backendGraph)}</pre></details>`,
    };
  }
}

/** One line per value: `%3 = matmul(%0, %1) {"precision":"highest"} : float32[128, 32]`. */
export function programText({ id, hash, label, program: p }: Pick<CompiledEntry, 'id' | 'hash' | 'label' | 'program'>): string {
  const type = (id: number) => `${valueOf(p, id).dtype}${formatShape(valueOf(p, id).shape)}`;
  const base = p.inputs.length + p.scalars.length;
  const lines = [`program ${id}: ${label} (hash ${hash})`];
  lines.push(`  inputs:  ${p.inputs.map((_, i) => `%${i}: ${type(i)}`).join(', ') || '-'}`);
  if (p.scalars.length) lines.push(`  scalars: ${p.scalars.map((_, i) => `%${p.inputs.length + i}: ${type(p.inputs.length + i)}`).join(', ')}`);
  p.nodes.forEach((n, i) => {
    const attrs = attrsText(n.attrs);
    lines.push(`  %${base + i} = ${n.op}(${n.inputs.map((v) => `%${v}`).join(', ')})${attrs ? ` ${attrs}` : ''} : ${type(base + i)}`);
  });
  lines.push(`  outputs: ${p.outputs.map((v) => `%${v}`).join(', ')}`);
  return lines.join('\n');
}

function attrsText(attrs: unknown): string {
  if (attrs === null || attrs === undefined || (typeof attrs === 'object' && Object.keys(attrs).length === 0)) return '';
  return JSON.stringify(attrs);
}

