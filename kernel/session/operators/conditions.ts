// Where JavaScript reads a value's truth, a tensor's is its one value's, as Python's bool(t):
// `if (loss < best)`, `while (err > tol)`, `s > 0 ? a : b`, `!done`, `done || more`. An object is
// always true in JavaScript, so without this every such condition on a tensor took its true
// branch. Both rewrites mark the same places; they differ only in which values may be tensors.
import type ts from 'typescript';
import { spliceChildren } from './source-splice.js';
import { OPERATOR_DISPATCH } from './operator-dispatch.js';

/** The expression of `node` that JavaScript reads as a condition, if any. */
export function conditionOf(node: ts.Node, tsApi: typeof ts): ts.Expression | undefined {
  if (tsApi.isIfStatement(node) || tsApi.isWhileStatement(node) || tsApi.isDoStatement(node)) return node.expression;
  if (tsApi.isForStatement(node)) return node.condition;
  if (tsApi.isConditionalExpression(node)) return node.condition;
  if (tsApi.isPrefixUnaryExpression(node) && node.operator === tsApi.SyntaxKind.ExclamationToken) return node.operand;
  return undefined;
}

/**
 * `condition` as the rewritten cell reads it: each value whose truth decides (through
 * parentheses, `&&` and `||`) goes through `__tpuOps.truth` where `mayBeTensor` says so.
 */
export function truthOf(
  condition: ts.Expression, file: ts.SourceFile, source: string, emit: (node: ts.Node) => string,
  mayBeTensor: (node: ts.Expression) => boolean, tsApi: typeof ts,
): string {
  const visit = (e: ts.Expression): string => {
    if (logicalExpression(e, tsApi) || tsApi.isParenthesizedExpression(e)) {
      return spliceChildren(e, file, source, (child) => (tsApi.isExpression(child) ? visit(child) : emit(child)), tsApi);
    }
    const text = emit(e);
    return mayBeTensor(e) ? `${OPERATOR_DISPATCH}.truth(${text})` : text;
  };
  return visit(condition);
}

/** `node` when it is `a && b` or `a || b` (whose value is used where it is not a condition's). */
export function logicalExpression(node: ts.Node, tsApi: typeof ts): ts.BinaryExpression | undefined {
  if (!tsApi.isBinaryExpression(node)) return undefined;
  const op = node.operatorToken.kind;
  return op === tsApi.SyntaxKind.AmpersandAmpersandToken || op === tsApi.SyntaxKind.BarBarToken ? node : undefined;
}

/**
 * `a && b` / `a || b` (`node`) as Python's `and` / `or` on a tensor:
 * a decides by its truth, and is the value where it decides (`t && b` is t itself when t is a
 * false tensor, and no object is false in JavaScript). b is evaluated only where JavaScript
 * evaluates it. `a || b` -> `__tpuOps.orLeft(a) || b` (a false tensor is false there, a true
 * one itself); `a && b` -> `__tpuOps.and(__tpuOps.andLeft(a) && b)` (andLeft keeps an a that
 * stops it for `and`, which gives it back): a call, not a parenthesized ?:, so that a statement
 * starting with it cannot continue the line before (`f()\n(s > 0) && g()`). Where only the truth
 * of `a && b` is read, as the left of `||` (`a && b || c`, Python's `a and b or c`), a false
 * tensor may be false there: `__tpuOps.orLeft(a) && b`, one call less.
 */
export function logicalValue(node: ts.BinaryExpression, leftText: string, file: ts.SourceFile, source: string, emit: (node: ts.Node) => string, tsApi: typeof ts): string {
  const and = node.operatorToken.kind === tsApi.SyntaxKind.AmpersandAmpersandToken;
  const kept = and && !leftOfOr(node, tsApi);
  const left = `${OPERATOR_DISPATCH}.${kept ? 'andLeft' : 'orLeft'}(${leftText})`;
  const text = spliceChildren(node, file, source, (child) => (child === node.left ? left : emit(child)), tsApi);
  return kept ? `${OPERATOR_DISPATCH}.and(${text})` : text;
}

/** Whether `node` (through parentheses) is the left operand of `||`. */
function leftOfOr(node: ts.Node, tsApi: typeof ts): boolean {
  let child = node;
  while (tsApi.isParenthesizedExpression(child.parent)) child = child.parent;
  const parent = child.parent;
  return tsApi.isBinaryExpression(parent) && parent.operatorToken.kind === tsApi.SyntaxKind.BarBarToken && parent.left === child;
}

/** Whether `e` is a JavaScript boolean or primitive whatever its operands (no tensor's truth to read). */
export function surelyNotTensor(e: ts.Expression, tsApi: typeof ts): boolean {
  const K = tsApi.SyntaxKind;
  if (tsApi.isLiteralExpression(e) || e.kind === K.TrueKeyword || e.kind === K.FalseKeyword || e.kind === K.NullKeyword) return true;
  if (tsApi.isTypeOfExpression(e) || tsApi.isVoidExpression(e) || tsApi.isDeleteExpression(e)) return true;
  if (tsApi.isPrefixUnaryExpression(e) && e.operator === K.ExclamationToken) return true;
  if (!tsApi.isBinaryExpression(e)) return false;
  const op = e.operatorToken.kind;
  return op === K.EqualsEqualsEqualsToken || op === K.ExclamationEqualsEqualsToken || op === K.EqualsEqualsToken
    || op === K.ExclamationEqualsToken || op === K.InstanceOfKeyword || op === K.InKeyword;
}
