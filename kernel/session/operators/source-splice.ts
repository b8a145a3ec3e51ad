// What both operator rewrites do to a cell's text: replace some nodes, keep every other
// character (comments, spacing) where it was.
import type ts from 'typescript';

/** `node`'s text from `source`, with each child replaced by `emit(child)`. */
export function spliceChildren(node: ts.Node, file: ts.SourceFile, source: string, emit: (child: ts.Node) => string, tsApi: typeof ts): string {
  let out = '';
  let pos = node.getStart(file);
  tsApi.forEachChild(node, (child) => {
    out += source.slice(pos, child.getStart(file)) + emit(child);
    pos = child.end;
  });
  return out + source.slice(pos, node.end);
}

/** `e` inside any parentheses around it. */
export function skipParentheses(e: ts.Expression, tsApi: typeof ts): ts.Expression {
  return tsApi.isParenthesizedExpression(e) ? skipParentheses(e.expression, tsApi) : e;
}

/** The items of `x[i, ':']` (a comma expression in JS): one per dimension on a tensor. */
export function indexItems(node: ts.ElementAccessExpression, tsApi: typeof ts): ts.Expression[] {
  const items: ts.Expression[] = [];
  const flatten = (e: ts.Expression): void => {
    if (tsApi.isBinaryExpression(e) && e.operatorToken.kind === tsApi.SyntaxKind.CommaToken) (flatten(e.left), flatten(e.right));
    else items.push(e);
  };
  flatten(node.argumentExpression);
  return items;
}

/**
 * Whether `file` parsed without error. A cell that does not is left as written: it runs nothing,
 * and its syntax error is reported where it was typed (`1 + ;` as `__tpuOps.add(1, )`, or `x[]`
 * as `x.at()`, would parse).
 */
export function parses(file: ts.SourceFile, tsApi: typeof ts): boolean {
  const hasError = (node: ts.Node): boolean => (node.flags & tsApi.NodeFlags.ThisNodeHasError) !== 0 || tsApi.forEachChild(node, hasError) === true;
  return !hasError(file);
}
