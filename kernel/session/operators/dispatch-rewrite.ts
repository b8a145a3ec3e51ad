// Tensor operators without the language service: every operator the typed rewrite looks at
// becomes a call that finds a tensor operand at run time (operator-dispatch.ts): `a * 2` ->
// `__tpuOps.mul(a, 2)`, `x[0]` -> `__tpuOps.at(x, 0)`, `y += v` -> in place when y is a tensor.
// A parse is all it needs, so a cell that may meet tensors runs without a TypeScript program:
// under `%typecheck off`, and before the service is built. Non-tensor operands get JavaScript's
// own operator, evaluated once and in order.
import type ts from 'typescript';
import { indexItems, spliceChildren } from './source-splice.js';
import { COMPOUND, METHODS } from './operator-table.js';
import { OPERATOR_DISPATCH } from './operator-dispatch.js';
import { rememberParse } from '../cells/recent-parse.js';
import { conditionOf, logicalLeft, surelyNotTensor, truthOf } from './conditions.js';

const OPS = OPERATOR_DISPATCH;

/** `cell` with its operators dispatched; `masked` is the cell with magic lines blanked (same offsets). */
export function dispatchOperators(cell: string, masked: string, tsApi: typeof ts): { code: string; changed: boolean } {
  const K = tsApi.SyntaxKind;
  const file = tsApi.createSourceFile('cell.ts', masked, tsApi.ScriptTarget.Latest, true, tsApi.ScriptKind.TS);
  rememberParse(file);
  let changed = false;
  const call = (name: string, args: string[]): string => ((changed = true), `${OPS}.${name}(${args.join(', ')})`);

  const emitChildren = (node: ts.Node): string => spliceChildren(node, file, cell, emit, tsApi);

  const original = (node: ts.Node): string => cell.slice(node.getStart(file), node.end);

  const isLiteral = (e: ts.Expression): boolean =>
    tsApi.isNumericLiteral(e) || tsApi.isBigIntLiteral(e) || tsApi.isStringLiteral(e) || tsApi.isNoSubstitutionTemplateLiteral(e) || tsApi.isTemplateExpression(e)
    || e.kind === K.TrueKeyword || e.kind === K.FalseKeyword || e.kind === K.NullKeyword;
  const isStringy = (e: ts.Expression): boolean => tsApi.isStringLiteral(e) || tsApi.isNoSubstitutionTemplateLiteral(e) || tsApi.isTemplateExpression(e);
  const skipParens = (e: ts.Expression): ts.Expression => (tsApi.isParenthesizedExpression(e) ? skipParens(e.expression) : e);

  /** An element access this rewrite may replace by a call: not `x?.[k]`, `a?.b[k]` (the chain short-circuits) or `super[k]`. */
  const plainAccess = (e: ts.Node): e is ts.ElementAccessExpression =>
    tsApi.isElementAccessExpression(e) && !(e.flags & tsApi.NodeFlags.OptionalChain) && e.expression.kind !== K.SuperKeyword;

  /** Whether `node` is written by a destructuring assignment or a for-in/of head (`[a[0], b] = ...`). */
  const isPatternTarget = (node: ts.Node): boolean => {
    let child = node;
    let parent = node.parent;
    let inLiteral = false;
    for (;;) {
      if (tsApi.isForOfStatement(parent) || tsApi.isForInStatement(parent)) return parent.initializer === child;
      const assigned = tsApi.isBinaryExpression(parent) && parent.operatorToken.kind === K.EqualsToken && parent.left === child;
      // `[a[0] = 1] = xs`: an assignment inside a pattern is a default value; the outermost is the destructuring
      const isDefault = assigned && inLiteral && (tsApi.isArrayLiteralExpression(parent.parent) || tsApi.isPropertyAssignment(parent.parent));
      if (assigned && !isDefault) return inLiteral;
      const climbs = isDefault || tsApi.isParenthesizedExpression(parent) || tsApi.isSpreadElement(parent) || tsApi.isSpreadAssignment(parent)
        || tsApi.isShorthandPropertyAssignment(parent) || (tsApi.isPropertyAssignment(parent) && parent.initializer === child);
      if (tsApi.isArrayLiteralExpression(parent) || tsApi.isObjectLiteralExpression(parent)) inLiteral = true;
      else if (!climbs) return false;
      child = parent;
      parent = parent.parent;
    }
  };

  /** Whether an element access is read for its value (not written, deleted, incremented, or called as a method). */
  const isRead = (node: ts.ElementAccessExpression): boolean => {
    let child: ts.Node = node;
    let parent = node.parent;
    while (tsApi.isParenthesizedExpression(parent)) (child = parent), (parent = parent.parent);
    if ((tsApi.isCallExpression(parent) || tsApi.isNewExpression(parent)) && parent.expression === child) return false;
    if (tsApi.isTaggedTemplateExpression(parent) && parent.tag === child) return false;
    if (tsApi.isDeleteExpression(parent)) return false;
    if ((tsApi.isPrefixUnaryExpression(parent) || tsApi.isPostfixUnaryExpression(parent)) && (parent.operator === K.PlusPlusToken || parent.operator === K.MinusMinusToken)) return false;
    if (tsApi.isBinaryExpression(parent) && parent.left === child && parent.operatorToken.kind >= K.FirstAssignment && parent.operatorToken.kind <= K.LastAssignment) return false;
    return !isPatternTarget(node);
  };

  /**
   * `target OP= value`: in place on a tensor (`y.add_(v)`, as Python's `y += v`), else JavaScript's
   * own. A variable is tested, then written; a property or element goes through a reference that
   * evaluates its object and key once, in JavaScript's order (operator-dispatch.ts, refAt/refProp).
   */
  const compound = (node: ts.BinaryExpression, op: string, method: string): string => {
    const target = skipParens(node.left);
    const value = emit(node.right);
    const opText = JSON.stringify(op);
    if (tsApi.isIdentifier(target)) return `${call('isTensor', [target.text])} ? ${target.text}.${method}_(${value}) : (${target.text} ${op} ${value})`;
    if (plainAccess(target)) return `${call('refAt', [opText, emit(target.expression), ...indexItems(target, tsApi).map(emit)])}.apply(${value})`;
    const named = tsApi.isPropertyAccessExpression(target) && tsApi.isIdentifier(target.name) && !(target.flags & tsApi.NodeFlags.OptionalChain) && target.expression.kind !== K.SuperKeyword;
    if (named) return `${call('refProp', [opText, emit(target.expression), JSON.stringify(target.name.text)])}.apply(${value})`;
    return `${emit(target)} ${op} ${value}`; // this.#p, super.p: no tensor is kept there by a cell's habit
  };

  const emitted = new Map<ts.Node, string>();
  function emit(node: ts.Node): string {
    let text = emitted.get(node);
    if (text === undefined) emitted.set(node, (text = emitOnce(node)));
    return text;
  }

  function emitOnce(node: ts.Node): string {
    // Enum members must stay constant expressions; types and ambient declarations do not run.
    if (tsApi.isEnumDeclaration(node) || tsApi.isTypeNode(node) || tsApi.isInterfaceDeclaration(node) || tsApi.isTypeAliasDeclaration(node)) return original(node);
    if (tsApi.canHaveModifiers(node) && tsApi.getModifiers(node)?.some((m) => m.kind === K.DeclareKeyword)) return original(node);
    const condition = conditionOf(node, tsApi);
    if (condition) {
      const mayBeTensor = (e: ts.Expression) => !surelyNotTensor(e, tsApi) && (changed = true);
      return spliceChildren(node, file, cell, (child) => (child === condition ? truthOf(condition, file, cell, emit, mayBeTensor, tsApi) : emit(child)), tsApi);
    }
    const left = logicalLeft(node, tsApi);
    if (left && !surelyNotTensor(left, tsApi)) {
      return spliceChildren(node, file, cell, (child) => (child === left ? call('logical', [emit(left)]) : emit(child)), tsApi);
    }
    if (tsApi.isBinaryExpression(node)) {
      const opText = tsApi.tokenToString(node.operatorToken.kind) ?? '';
      const compoundOp = COMPOUND.exec(opText);
      if (compoundOp) return compound(node, opText, METHODS[compoundOp[1]!]!);
      if (node.operatorToken.kind === K.EqualsToken && plainAccess(skipParens(node.left)) && !isPatternTarget(node)) {
        const target = skipParens(node.left) as ts.ElementAccessExpression;
        return call('setAt', [emit(target.expression), emit(target.argumentExpression), emit(node.right)]);
      }
      const method = METHODS[opText];
      const loose = opText === '==' ? 'looseEq' : opText === '!=' ? 'looseNe' : undefined;
      if (!(method || loose) || (isLiteral(node.left) && isLiteral(node.right))) return emitChildren(node);
      // String building is never tensor arithmetic; a tensor there still fails (its coercion error).
      if (opText === '+' && (isStringy(node.left) || isStringy(node.right))) return emitChildren(node);
      return call(method ?? loose!, [emit(node.left), emit(node.right)]);
    }
    if (tsApi.isPrefixUnaryExpression(node) && (node.operator === K.MinusToken || node.operator === K.PlusToken)) {
      if (isLiteral(node.operand)) return emitChildren(node);
      return call(node.operator === K.MinusToken ? 'neg' : 'plus', [emit(node.operand)]);
    }
    if (plainAccess(node) && isRead(node)) {
      const items = indexItems(node, tsApi);
      return items.length === 1 ? call('at', [emit(node.expression), emit(items[0]!)]) : call('atItems', [emit(node.expression), ...items.map(emit)]);
    }
    return emitChildren(node);
  }

  let code = '';
  let pos = 0;
  for (const statement of file.statements) {
    code += cell.slice(pos, statement.getStart(file)) + emit(statement);
    pos = statement.end;
  }
  code += cell.slice(pos);
  return { code, changed };
}
