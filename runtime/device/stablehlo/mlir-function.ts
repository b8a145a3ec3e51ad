// Writes one MLIR function as text, op by op, in MLIR's generic syntax ("stablehlo.add"(...)
// : (types) -> type): one spelling for every op, so no op needs its own printer. Every SSA
// value keeps its tensor type, which each op's signature spells out.
import { bf16Bits, type DType } from '../../dtype.js';

export type ElementType = 'f32' | 'bf16' | 'i32' | 'i64' | 'i1';
export const ELEMENT_TYPE: Record<DType, ElementType> = { float32: 'f32', bfloat16: 'bf16', int32: 'i32', int64: 'i64', bool: 'i1' };

export interface TensorType {
  readonly shape: readonly number[];
  readonly element: ElementType;
}

export function typeText({ shape, element }: TensorType): string {
  return `tensor<${[...shape, element].join('x')}>`;
}

const f32 = new Float32Array(1);
const f32Bits = new Uint32Array(f32.buffer);

/** One element as MLIR spells it in a dense literal: floats as exact bit patterns (NaN and infinities too). */
export function elementText(value: number, element: ElementType): string {
  if (element === 'i1') return value ? 'true' : 'false';
  if (element === 'i32') return String(Math.trunc(value) | 0);
  // 2^63 - 1 is no JS number: the int64 extremes saturate (the identity of int64 min)
  if (element === 'i64') return value >= 2 ** 63 ? '9223372036854775807' : BigInt(Math.trunc(value)).toString();
  if (element === 'bf16') return `0x${bf16Bits(value).toString(16).toUpperCase().padStart(4, '0')}`;
  f32[0] = value;
  return `0x${f32Bits[0]!.toString(16).toUpperCase().padStart(8, '0')}`;
}

export class MlirFunction {
  private lines: string[] = [];
  private readonly types = new Map<string, TensorType>();
  private readonly params: string[] = [];
  private counter = 0;

  param(type: TensorType): string {
    const name = `%arg${this.params.length}`;
    this.params.push(`${name}: ${typeText(type)}`);
    this.types.set(name, type);
    return name;
  }

  typeOf(value: string): TensorType {
    const t = this.types.get(value);
    if (!t) throw new Error(`stablehlo lowering: value ${value} has no type`);
    return t;
  }

  /** One op with one result. `attrs`: the attribute dictionary's entries; `regions`: from region(). */
  op(name: string, operands: readonly string[], result: TensorType, attrs: readonly string[] = [], regions: readonly string[] = []): string {
    return this.opResults(name, operands, [result], attrs, regions)[0]!;
  }

  /** One op with several results (sort, a variadic reduce): their names in order. */
  opResults(name: string, operands: readonly string[], results: readonly TensorType[], attrs: readonly string[] = [], regions: readonly string[] = []): string[] {
    const id = `%${this.counter++}`;
    const names = results.length === 1 ? [id] : results.map((_, i) => `${id}#${i}`);
    names.forEach((n, i) => this.types.set(n, results[i]!));
    const lhs = results.length === 1 ? id : `${id}:${results.length}`;
    const regionText = regions.length ? ` (${regions.join(', ')})` : '';
    const attrText = attrs.length ? ` {${attrs.join(', ')}}` : '';
    const ins = operands.map((v) => typeText(this.typeOf(v))).join(', ');
    const outs = results.length === 1 ? typeText(results[0]!) : `(${results.map(typeText).join(', ')})`;
    this.lines.push(`${lhs} = "${name}"(${operands.join(', ')})${regionText}${attrText} : (${ins}) -> ${outs}`);
    return names;
  }

  /** A region of one block: `body` gets the block's arguments and returns the values it yields. */
  region(argTypes: readonly TensorType[], body: (args: string[]) => readonly string[]): string {
    const outer = this.lines;
    this.lines = [];
    const args = argTypes.map((t) => {
      const name = `%${this.counter++}`;
      this.types.set(name, t);
      return name;
    });
    const results = body(args);
    const types = results.map((v) => typeText(this.typeOf(v))).join(', ');
    this.lines.push(`"stablehlo.return"(${results.join(', ')}) : (${types}) -> ()`);
    const block = [`^bb0(${args.map((a, i) => `${a}: ${typeText(argTypes[i]!)}`).join(', ')}):`, ...this.lines.map((l) => `  ${l}`)];
    this.lines = outer;
    return `{\n${block.map((l) => `      ${l}`).join('\n')}\n    }`;
  }

  /** A constant tensor (a splat when every element is equal). */
  constant(type: TensorType, values: readonly number[]): string {
    const texts = values.map((v) => elementText(v, type.element));
    const splat = texts.length > 0 && texts.every((t) => t === texts[0]);
    const literal = splat ? texts[0]! : type.shape.length === 0 ? texts[0]! : nested(texts, type.shape);
    return this.op('stablehlo.constant', [], type, [`value = dense<${literal}> : ${typeText(type)}`]);
  }

  /** The module holding this function as @main, returning `outputs`. */
  moduleText(name: string, outputs: readonly string[]): string {
    const types = outputs.map((v) => typeText(this.typeOf(v)));
    const body = [...this.lines, `"func.return"(${outputs.join(', ')}) : (${types.join(', ')}) -> ()`];
    return [
      `module @${name} {`,
      `  func.func public @main(${this.params.join(', ')}) -> (${types.join(', ')}) {`,
      ...body.map((l) => `    ${l}`),
      '  }',
      '}',
    ].join('\n');
  }
}

/** Row-major elements nested as the shape's brackets ([[1, 2], [3, 4]]). */
function nested(texts: readonly string[], shape: readonly number[]): string {
  if (shape.length === 0) return texts[0]!;
  if (shape.length === 1) return `[${texts.join(', ')}]`;
  const inner = shape.slice(1).reduce((a, b) => a * b, 1);
  const parts: string[] = [];
  for (let i = 0; i < shape[0]!; i++) parts.push(nested(texts.slice(i * inner, (i + 1) * inner), shape.slice(1)));
  return `[${parts.join(', ')}]`;
}
