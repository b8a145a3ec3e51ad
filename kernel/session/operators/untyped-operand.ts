// Which operands of a type-checked cell may hold a tensor their type does not show, so that
// their operators are dispatched at run time (typed-operator-rewrite.ts): those typed any or
// unknown (an untyped parameter or module, `as any`), and the values of operators dispatched in
// the cell or rewritten to tensor methods, which TypeScript types from JavaScript's operators
// (`x * 2` with x any is a number, `x < 1` a boolean), where they are read: directly (`x * k + 1`), through a variable declared
// without a type (`const y = x * k; y + 1`), or from a call of a function the cell declares
// without a return type (`sq(t) + 1`). Later cells see the dispatched code, typed any.
import type ts from 'typescript';
import { logicalExpression } from './conditions.js';
import { skipParentheses } from './source-splice.js';

export function untypedOperands(file: ts.SourceFile, checker: ts.TypeChecker, tsApi: typeof ts, isRewrittenOperator: (node: ts.Node) => boolean): (operand: ts.Expression) => boolean {
  const UNTYPED = tsApi.TypeFlags.Any | tsApi.TypeFlags.Unknown;

  /** The values a function returns: its expression body, or its return statements (not those of functions in it). */
  const returned = (fn: ts.SignatureDeclaration): ts.Expression[] => {
    const body = (fn as Partial<ts.FunctionLikeDeclarationBase>).body;
    if (!body) return [];
    if (!tsApi.isBlock(body)) return [body];
    const values: ts.Expression[] = [];
    const visit = (node: ts.Node): void => {
      if (tsApi.isReturnStatement(node)) {
        if (node.expression) values.push(node.expression);
      } else if (!tsApi.isFunctionLike(node)) tsApi.forEachChild(node, visit);
    };
    tsApi.forEachChild(body, visit);
    return values;
  };

  /**
   * Whether a declaration of the cell takes its value from a rewritten operator. Only yes is kept:
   * an operator further on may not be written yet; one being answered is no (recursion).
   */
  const rewrittenValue = new Set<ts.Node>();
  const answering = new Set<ts.Node>();
  const fromDeclaration = (declaration: ts.Node | undefined): boolean => {
    if (!declaration || declaration.getSourceFile() !== file || answering.has(declaration)) return false;
    if (rewrittenValue.has(declaration)) return true;
    answering.add(declaration);
    const answer = tsApi.isVariableDeclaration(declaration)
      ? !declaration.type && declaration.initializer !== undefined && fromRewrite(declaration.initializer)
      : tsApi.isFunctionLike(declaration) && !declaration.type && returned(declaration).some(fromRewrite);
    answering.delete(declaration);
    if (answer) rewrittenValue.add(declaration);
    return answer;
  };

  /** Whether `e`'s value is a rewritten operator's (written before `e` in the cell), or may be (`a && b`: a's or b's). */
  function fromRewrite(e: ts.Expression): boolean {
    const inner = skipParentheses(e, tsApi);
    if (isRewrittenOperator(inner)) return true;
    const logical = logicalExpression(inner, tsApi);
    if (logical) return fromRewrite(logical.left) || fromRewrite(logical.right);
    if (tsApi.isIdentifier(inner)) return fromDeclaration(checker.getSymbolAtLocation(inner)?.valueDeclaration);
    if (tsApi.isCallExpression(inner)) return fromDeclaration(checker.getResolvedSignature(inner)?.declaration);
    return false;
  }

  return (operand) => (checker.getTypeAtLocation(operand).flags & UNTYPED) !== 0 || fromRewrite(operand);
}
