// The types a TypeScript user of `tpu-kernel/runtime` (and a cell) sees for item(), array() and
// tolist(), read from the built declarations: a number for a Tensor, a boolean for a BoolTensor,
// the type of every op whose result is bool whatever its input. An op that keeps its input's
// dtype gives a Tensor, whose item() is typed number (the runtime still gives true/false).
import ts from 'typescript';
import { describe, expect, it } from 'vitest';
import { BUILT_RUNTIME, probeProgram } from '../support/built-declarations.js';

/** [expression, the type TypeScript gives it]; `x` is a Tensor. */
const CASES: [string, string][] = [
  ['x.item()', 'number'],
  ['x.sum().item()', 'number'],
  ['x.to("int32").item()', 'number'],
  ['x.gt(0).at(0).item()', 'number'],
  ['x.gt(0).item()', 'boolean'],
  ['x.lt(0).item()', 'boolean'],
  ['x.eq(0).item()', 'boolean'],
  ['x.ne(0).item()', 'boolean'],
  ['x.ge(0).item()', 'boolean'],
  ['x.le(0).item()', 'boolean'],
  ['x.logicalAnd(x).item()', 'boolean'],
  ['x.logicalOr(x).item()', 'boolean'],
  ['x.logicalXor(x).item()', 'boolean'],
  ['x.logicalNot().item()', 'boolean'],
  ['x.isnan().item()', 'boolean'],
  ['x.isinf().item()', 'boolean'],
  ['x.isfinite().item()', 'boolean'],
  ['x.any().item()', 'boolean'],
  ['x.all(0).item()', 'boolean'],
  ['x.to("bool").item()', 'boolean'],
  ['x.to({ dtype: "bool" }).item()', 'boolean'],
  ['x.bool().item()', 'boolean'],
  ['tpu.isnan(x).item()', 'boolean'],
  ['tpu.all(x).item()', 'boolean'],
  ['tpu.tensor([true, false]).item()', 'boolean'],
  ['tpu.tensor([[true], [false]]).item()', 'boolean'],
  ['tpu.tensor(new Uint8Array(2)).item()', 'boolean'],
  ['tpu.tensor([1, 0], { dtype: "bool" }).item()', 'boolean'],
  ['tpu.tensor(new Uint8Array(2), { dtype: "float32" }).item()', 'number'],
  ['tpu.tensor([]).item()', 'number'],
  ['tpu.tensor([1, 2]).item()', 'number'],
  ['tpu.full([2], true).item()', 'boolean'],
  ['tpu.full([2], 1, { dtype: "bool" }).item()', 'boolean'],
  ['tpu.full([2], true, { dtype: "float32" }).item()', 'number'],
  ['tpu.full([2], 1).item()', 'number'],
  ['tpu.zeros([2], { dtype: "bool" }).item()', 'boolean'],
  ['tpu.ones(2, 3, { dtype: "bool" }).item()', 'boolean'],
  ['tpu.empty(2, { dtype: "bool" }).item()', 'boolean'],
  ['tpu.zeros(2, 3).item()', 'number'],
  ['tpu.ones([2], { dtype: "int32" }).item()', 'number'],
  ['x.array()', 'NestedArray<number>'],
  ['x.gt(0).tolist()', 'NestedArray<boolean>'],
];

describe('item(), array() and tolist() in the built declarations', () => {
  const source = [
    `import { tpu, type Tensor } from ${JSON.stringify(BUILT_RUNTIME)};`,
    'declare const x: Tensor;',
    ...CASES.map(([expression], i) => `export const v${i} = ${expression};`),
    // the lines of a training loop, with no cast
    'let total = 0;',
    'total += x.item();',
    'const losses: number[] = [];',
    'losses.push(x.sum().item());',
    'export const close = Math.abs(x.sum().item() - 1) < 1e-4;',
    'export const flag: boolean = x.gt(0).all().item();',
    'export { total, losses };',
  ].join('\n');
  const { program, checker, file } = probeProgram(source);

  it('type-check with no error', () => {
    const errors = ts.getPreEmitDiagnostics(program, file).map((d) => ts.flattenDiagnosticMessageText(d.messageText, '\n'));
    expect(errors).toEqual([]);
  });

  it('are numbers for a Tensor, booleans for a BoolTensor', () => {
    const typed = file.statements.filter(ts.isVariableStatement).flatMap((s) => s.declarationList.declarations)
      .filter((d) => /^v\d+$/.test(d.name.getText(file)))
      .map((d, i) => [CASES[i]![0], checker.typeToString(checker.getTypeAtLocation(d.name))]);
    expect(typed).toEqual(CASES);
  });
});
