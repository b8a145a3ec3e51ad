// %program: the last compiled program as readable text — its ops (the program IR) and how
// the embedded backend runs it, as the device thread says (the ONNX graph with the session's
// own custom nodes, or the generated C loop that replaced it), and beside them the optimized
// TPU HLO XLA:TPU made of it for the session's chip, once the background compile has it.
import { formatShape } from '../shape.js';
import { valueOf, type Program } from '../program/program.js';
import type { CompiledEntry } from '../program/program-cache.js';
import { lowerToOnnx } from '../device/onnx/lower-program.js';
import type { ProgramDescription } from '../device/protocol.js';
import { escapeXml } from './format.js';
import { tpuInLoop, tpuCompileSwitchedOff } from '../device/tpu-loop/tpu-in-loop.js';

export class ProgramListing {
  readonly ops: string;
  /** What the backend runs (an ONNX graph, a generated loop's C) and its heading. */
  readonly backendGraph: string;
  readonly backendHeading: string;
  /** XLA:TPU's optimized HLO of the program, when its background compile has finished. */
  readonly tpuHlo: string | undefined;
  /** 'optimized HLO by XLA:TPU for v5e:1x1', or why there is none (yet). */
  readonly tpuHeading: string;

  /** `ran`: the device thread's description (undefined: the host's own ONNX lowering, without the device's custom nodes). */
  constructor(readonly entry: CompiledEntry, ran?: ProgramDescription) {
    this.ops = programText(entry);
    this.backendGraph = ran?.text ?? lowerToOnnx(entry.program).text;
    this.backendHeading = ran?.title ?? 'ONNX graph of the program (as the host lowers it, without the backend\'s custom nodes)';
    const xla = tpuInLoop.result(entry.id);
    this.tpuHlo = xla?.hloText;
    this.tpuHeading = xla
      ? `optimized HLO by XLA:TPU for ${xla.topology} (${xla.figures.fusions} fusion${xla.figures.fusions === 1 ? '' : 's'})`
      : tpuCompileSwitchedOff()
        ? 'XLA:TPU is off (TPU_KERNEL_TPU_COMPILE=off)'
        : tpuInLoop.unavailable !== undefined
          ? `no XLA:TPU: ${tpuInLoop.unavailable}`
          : 'XLA:TPU is still compiling this program in the background: %program again shows its HLO';
  }

  toString(): string {
    const tpu = this.tpuHlo === undefined ? this.tpuHeading : `${this.tpuHeading}:\n${this.tpuHlo}`;
    return `${this.ops}\n\n${this.backendHeading}:\n${this.backendGraph}\n\n${tpu}`;
  }

  [Symbol.for('Jupyter.display')](): Record<string, unknown> {
    return {
      'text/plain': this.toString(),
      'text/html': `<pre>${escapeXml(this.ops)}</pre><details><summary>${escapeXml(this.backendHeading)}</summary><pre>${escapeXml(this.backendGraph)}</pre></details>` +
        (this.tpuHlo === undefined
          ? `<p>${escapeXml(this.tpuHeading)}</p>`
          : `<details><summary>${escapeXml(this.tpuHeading)}</summary><pre>${escapeXml(this.tpuHlo)}</pre></details>`),
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

