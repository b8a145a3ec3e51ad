// Tensor operators without the language service: every operator the typed rewrite looks at
// becomes a call that finds a tensor operand at run time (dispatch-emitter.ts): `a * 2` ->
// `__tpuOps.mul(a, 2)`, `x[0]` -> `__tpuOps.at(x, 0)`, `y += v` -> in place when y is a tensor.
// A parse is all it needs, so a cell that may meet tensors runs without a TypeScript program:
// under `%typecheck off`, and before the service is built. Non-tensor operands get JavaScript's
// own operator, evaluated once and in order.
import type ts from 'typescript';
import { parses, spliceChildren } from './source-splice.js';
import { createDispatchEmitter } from './dispatch-emitter.js';
import { rememberParse } from '../cells/recent-parse.js';
import { conditionOf, logicalExpression, logicalValue, surelyNotTensor, truthOf } from './conditions.js';

/** Without types, any operand may be a tensor. */
const anyOperand = (): boolean => true;

/** `cell` with its operators dispatched; `masked` is the cell with magic lines blanked (same offsets). */
export function dispatchOperators(cell: string, masked: string, tsApi: typeof ts): { code: string; changed: boolean } {
  const file = tsApi.createSourceFile('cell.ts', masked, tsApi.ScriptTarget.Latest, true, tsApi.ScriptKind.TS);
  rememberParse(file);
  if (!parses(file, tsApi)) return { code: cell, changed: false };
  let changed = false;

  const emitted = new Map<ts.Node, string>();
  function emit(node: ts.Node): string {
    let text = emitted.get(node);
    if (text === undefined) emitted.set(node, (text = emitOnce(node)));
    return text;
  }
  const dispatcher = createDispatchEmitter(file, cell, tsApi, emit);

  function emitOnce(node: ts.Node): string {
    const condition = conditionOf(node, tsApi);
    if (condition) {
      const mayBeTensor = (e: ts.Expression) => !surelyNotTensor(e, tsApi) && (changed = true);
      return spliceChildren(node, file, cell, (child) => (child === condition ? truthOf(condition, file, cell, emit, mayBeTensor, tsApi) : emit(child)), tsApi);
    }
    const logical = logicalExpression(node, tsApi);
    if (logical && !surelyNotTensor(logical.left, tsApi)) {
      changed = true;
      return logicalValue(logical, emit(logical.left), file, cell, emit, tsApi);
    }
    return dispatcher.emit(node, anyOperand) ?? spliceChildren(node, file, cell, emit, tsApi);
  }

  let code = '';
  let pos = 0;
  for (const statement of file.statements) {
    code += cell.slice(pos, statement.getStart(file)) + emit(statement);
    pos = statement.end;
  }
  code += cell.slice(pos);
  return { code, changed: changed || dispatcher.called };
}
