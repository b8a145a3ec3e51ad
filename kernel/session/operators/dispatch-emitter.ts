// One operator as the dispatched rewrite writes it: a call that finds a tensor operand at run
// time (operator-dispatch.ts): `a * 2` -> `__tpuOps.mul(a, 2)`, `x[0]` -> `__tpuOps.at(x, 0)`,
// `y += v` -> in place when y is a tensor. Both rewrites use it: the dispatched one for every
// operator, the typed one where an operand's type (any, unknown) cannot tell whether it is a tensor.
import type ts from 'typescript';
import { indexItems, skipParentheses } from './source-splice.js';
import { COMPOUND, METHODS } from './operator-table.js';
import { OPERATOR_DISPATCH } from './operator-dispatch.js';

/**
 * `==` with a tensor operand is element-wise, as PyTorch's (operator-dispatch.ts). `===` stays
 * JavaScript's: a call there would move every comparison's column in a trace (typed cells reject `t === 3`).
 */
const EQUALITY: Readonly<Record<string, string>> = { '==': 'looseEq', '!=': 'looseNe' };

export interface DispatchEmitter {
  /**
   * `node` as a dispatch call when it is an operator the dispatch takes and `mayHoldTensor`
   * accepts an operand that decides it (for `y OP= v` the target, for `x[k]` the object); as
   * written where no operator runs (types, enums, declarations); else undefined, for the caller.
   */
  emit(node: ts.Node, mayHoldTensor: (operand: ts.Expression) => boolean): string | undefined;
  /** Whether `node` was written as a dispatch call: its value may be a tensor whatever TypeScript types it. */
  isCall(node: ts.Node): boolean;
  /** Whether a dispatch call was written: the cell then calls `__tpuOps`. */
  readonly called: boolean;
}

/** `source` is the cell's text at `file`'s offsets; `emitChild` gives a child's text as the calling rewrite writes it. */
export function createDispatchEmitter(file: ts.SourceFile, source: string, tsApi: typeof ts, emitChild: (node: ts.Node) => string): DispatchEmitter {
  const K = tsApi.SyntaxKind;
  const calls = new Set<ts.Node>();
  const call = (node: ts.Node, name: string, args: string[]): string => (calls.add(node), `${OPERATOR_DISPATCH}.${name}(${args.join(', ')})`);

  const original = (node: ts.Node): string => source.slice(node.getStart(file), node.end);

  const isLiteral = (e: ts.Expression): boolean =>
    tsApi.isNumericLiteral(e) || tsApi.isBigIntLiteral(e) || tsApi.isStringLiteral(e) || tsApi.isNoSubstitutionTemplateLiteral(e) || tsApi.isTemplateExpression(e)
    || e.kind === K.TrueKeyword || e.kind === K.FalseKeyword || e.kind === K.NullKeyword;
  const isStringy = (e: ts.Expression): boolean => tsApi.isStringLiteral(e) || tsApi.isNoSubstitutionTemplateLiteral(e) || tsApi.isTemplateExpression(e);
  const skipParens = (e: ts.Expression): ts.Expression => skipParentheses(e, tsApi);

  /** An element access a call may replace: not `x?.[k]`, `a?.b[k]` (the chain short-circuits) or `super[k]`. */
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
   * Other targets (this.#p, super.p) stay as written: no tensor is kept there by a cell's habit.
   */
  const compound = (node: ts.BinaryExpression, op: string, method: string): string | undefined => {
    const target = skipParens(node.left);
    const value = emitChild(node.right);
    const opText = JSON.stringify(op);
    // not a tensor: y = y OP v through the dispatch, so a number y meeting a tensor v becomes one (Python's `acc += t`)
    if (tsApi.isIdentifier(target)) return `${call(node, 'isTensor', [target.text])} ? ${target.text}.${method}_(${value}) : (${target.text} = ${OPERATOR_DISPATCH}.${method}(${target.text}, ${value}))`;
    if (plainAccess(target)) return `${call(node, 'refAt', [opText, emitChild(target.expression), ...indexItems(target, tsApi).map(emitChild)])}.apply(${value})`;
    const named = tsApi.isPropertyAccessExpression(target) && tsApi.isIdentifier(target.name) && !(target.flags & tsApi.NodeFlags.OptionalChain) && target.expression.kind !== K.SuperKeyword;
    if (named) return `${call(node, 'refProp', [opText, emitChild(target.expression), JSON.stringify(target.name.text)])}.apply(${value})`;
    return undefined;
  };

  const binary = (node: ts.BinaryExpression, mayHoldTensor: (operand: ts.Expression) => boolean): string | undefined => {
    const opText = tsApi.tokenToString(node.operatorToken.kind) ?? '';
    const compoundOp = COMPOUND.exec(opText);
    if (compoundOp) return mayHoldTensor(skipParens(node.left)) ? compound(node, opText, METHODS[compoundOp[1]!]!) : undefined;
    if (node.operatorToken.kind === K.EqualsToken && plainAccess(skipParens(node.left)) && !isPatternTarget(node)) {
      const target = skipParens(node.left) as ts.ElementAccessExpression;
      if (!mayHoldTensor(target.expression)) return undefined;
      const items = indexItems(target, tsApi);
      if (items.length === 1) return call(node, 'setAt', [emitChild(target.expression), emitChild(items[0]!), emitChild(node.right)]);
      return call(node, 'setAtItems', [emitChild(target.expression), ...items.map(emitChild), emitChild(node.right)]);
    }
    const method = METHODS[opText];
    const equality = EQUALITY[opText];
    if (!(method || equality) || (isLiteral(node.left) && isLiteral(node.right))) return undefined;
    // `x == null`: a test for null or undefined, whatever x holds
    if (equality && [node.left, node.right].some((e) => e.kind === K.NullKeyword || (tsApi.isIdentifier(e) && e.text === 'undefined'))) return undefined;
    // String building is never tensor arithmetic; a tensor there still fails (its coercion error).
    if (opText === '+' && (isStringy(node.left) || isStringy(node.right))) return undefined;
    if (!mayHoldTensor(node.left) && !mayHoldTensor(node.right)) return undefined;
    return call(node, method ?? equality!, [emitChild(node.left), emitChild(node.right)]);
  };

  function emit(node: ts.Node, mayHoldTensor: (operand: ts.Expression) => boolean): string | undefined {
    // Enum members must stay constant expressions; types and ambient declarations do not run.
    if (tsApi.isEnumDeclaration(node) || tsApi.isTypeNode(node) || tsApi.isInterfaceDeclaration(node) || tsApi.isTypeAliasDeclaration(node)) return original(node);
    if (tsApi.canHaveModifiers(node) && tsApi.getModifiers(node)?.some((m) => m.kind === K.DeclareKeyword)) return original(node);
    if (tsApi.isBinaryExpression(node)) return binary(node, mayHoldTensor);
    if (tsApi.isPrefixUnaryExpression(node) && (node.operator === K.MinusToken || node.operator === K.PlusToken || node.operator === K.TildeToken)) {
      if (isLiteral(node.operand) || !mayHoldTensor(node.operand)) return undefined;
      return call(node, node.operator === K.MinusToken ? 'neg' : node.operator === K.TildeToken ? 'bitwiseNot' : 'plus', [emitChild(node.operand)]);
    }
    if (plainAccess(node) && isRead(node) && mayHoldTensor(node.expression)) {
      const items = indexItems(node, tsApi);
      return items.length === 1 ? call(node, 'at', [emitChild(node.expression), emitChild(items[0]!)]) : call(node, 'atItems', [emitChild(node.expression), ...items.map(emitChild)]);
    }
    return undefined;
  }

  return {
    emit,
    isCall: (node) => calls.has(node),
    get called() {
      return calls.size > 0;
    },
  };
}
