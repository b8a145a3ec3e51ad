// The program IR: what the compiler produces and every backend consumes. Plain data
// (structured-clonable), so it crosses to the device thread as is.
import type { DType } from '../dtype.js';
import type { Shape } from '../shape.js';

export interface ProgramValue {
  readonly shape: Shape;
  readonly dtype: DType;
}

export interface ProgramNode extends ProgramValue {
  /** The op's registered name (ops/op.ts). */
  readonly op: string;
  /** Value ids of the operands. */
  readonly inputs: readonly number[];
  readonly attrs: unknown;
}

/**
 * Value ids number the buffer parameters first, then the scalar parameters, then the
 * nodes in order. Scalars are fed by value at each execution (a learning rate, a step
 * count): they are never baked into the program, so changing them never recompiles.
 */
export interface Program {
  readonly inputs: readonly ProgramValue[];
  readonly scalars: readonly DType[];
  readonly nodes: readonly ProgramNode[];
  readonly outputs: readonly number[];
}

export function valueOf(p: Program, id: number): ProgramValue {
  if (id < p.inputs.length) return p.inputs[id]!;
  id -= p.inputs.length;
  if (id < p.scalars.length) return { shape: [], dtype: p.scalars[id]! };
  return p.nodes[id - p.scalars.length]!;
}

/** How many node inputs and program outputs read each value (by id; unread values absent). */
export function useCounts(p: Program): Map<number, number> {
  const uses = new Map<number, number>();
  const use = (v: number) => uses.set(v, (uses.get(v) ?? 0) + 1);
  for (const n of p.nodes) n.inputs.forEach(use);
  p.outputs.forEach(use);
  return uses;
}

/** Checks the invariants a backend relies on (operands defined before use, outputs exist). */
export function verifyProgram(p: Program): void {
  const base = p.inputs.length + p.scalars.length;
  p.nodes.forEach((n, i) => {
    for (const v of n.inputs) {
      if (!Number.isInteger(v) || v < 0 || v >= base + i) {
        throw new Error(`program verifier: node ${i} (${n.op}) uses value ${v} before it is defined`);
      }
    }
  });
  for (const o of p.outputs) {
    if (!Number.isInteger(o) || o < 0 || o >= base + p.nodes.length) throw new Error(`program verifier: output ${o} is undefined`);
  }
}

/** The program as readable text, one value per line ("%3 = add(%0, %2) : float32[4,8]"). */
export function programText(p: Program): string {
  const type = (v: ProgramValue) => `${v.dtype}[${v.shape.join(',')}]`;
  const lines = p.inputs.map((v, i) => `%${i} = input ${i} : ${type(v)}`);
  p.scalars.forEach((d, i) => lines.push(`%${p.inputs.length + i} = scalar ${i} : ${d}`));
  const base = p.inputs.length + p.scalars.length;
  p.nodes.forEach((n, i) => {
    const attrs = n.attrs && Object.keys(n.attrs as object).length ? ` ${JSON.stringify(n.attrs)}` : '';
    lines.push(`%${base + i} = ${n.op}(${n.inputs.map((v) => `%${v}`).join(', ')})${attrs} : ${type(n)}`);
  });
  lines.push(`return ${p.outputs.map((v) => `%${v}`).join(', ')}`);
  return lines.join('\n');
}
