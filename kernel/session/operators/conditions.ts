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
  const K = tsApi.SyntaxKind;
  const visit = (e: ts.Expression): string => {
    const logical = tsApi.isBinaryExpression(e) && (e.operatorToken.kind === K.AmpersandAmpersandToken || e.operatorToken.kind === K.BarBarToken);
    if (logical || tsApi.isParenthesizedExpression(e)) {
      return spliceChildren(e, file, source, (child) => (tsApi.isExpression(child) ? visit(child) : emit(child)), tsApi);
    }
    const text = emit(e);
    return mayBeTensor(e) ? `${OPERATOR_DISPATCH}.truth(${text})` : text;
  };
  return visit(condition);
}

/**
 * The left operand of `a && b` or `a || b` whose value is used (not a condition's): it decides by
 * its truth and may be the result (`__tpuOps.logical`: a false tensor gives false, as no object
 * is false in JavaScript).
 */
export function logicalLeft(node: ts.Node, tsApi: typeof ts): ts.Expression | undefined {
  if (!tsApi.isBinaryExpression(node)) return undefined;
  const op = node.operatorToken.kind;
  return op === tsApi.SyntaxKind.AmpersandAmpersandToken || op === tsApi.SyntaxKind.BarBarToken ? node.left : undefined;
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
