// PyTorch habits in cells: operators on expressions the language service types as Tensor
// become tensor methods before the cell compiles (`x + 1` -> `x.add(1)`, `-x` -> `x.neg()`,
// `x % 3` -> `x.remainder(3)`: Python's % on torch tensors, the sign of the divisor,
// `x[0][1]` -> `x.at(0).at(1)`, `x[i, ':']` -> `x.at(i, ':')`, `y *= 2` -> `y.mul_(2)`, in place as in Python).
// What has no method, or cannot be rewritten without changing what runs, is an error naming
// the method to use. An operand typed any or unknown (an untyped parameter or module, `as any`)
// may hold a tensor the types cannot show: its operator is dispatched at run time, as the
// dispatched rewrite writes it (dispatch-emitter.ts), and a condition on it reads a tensor's
// truth. Operands of other types keep JavaScript's operators, with no run-time cost.
import type ts from 'typescript';
import { indexItems, parses, skipParentheses, spliceChildren } from './source-splice.js';
import { COMPOUND, EQUALITY_METHODS, METHODS, MIRRORED, SLICE_STRING, operatorMessages } from './operator-table.js';
import { conditionOf, logicalExpression, logicalValue, truthOf } from './conditions.js';
import { createDispatchEmitter } from './dispatch-emitter.js';
import { untypedOperands } from './untyped-operand.js';

export interface RewriteError {
  offset: number;
  message: string;
}

export type RewriteResult = { code: string; changed: boolean } | { error: RewriteError };

/** The runtime's tensor types: Tensor, and BoolTensor (what comparisons and logical ops return). */
const TENSOR_TYPES: ReadonlySet<string> = new Set(['Tensor', 'BoolTensor']);

class CannotRewrite extends Error {
  constructor(readonly offset: number, message: string) {
    super(message);
  }
}

/**
 * `cell` with its tensor operators rewritten, or the first operator that cannot be. `file`
 * holds the cell at the same offsets (magic lines blanked, then a suffix).
 */
export function rewriteOperators({ file, checker }: { file: ts.SourceFile; checker: ts.TypeChecker }, cell: string, tsApi: typeof ts): RewriteResult {
  const source = cell;
  const cellLength = cell.length;
  const emitted = new Map<ts.Node, string>();
  const K = tsApi.SyntaxKind;
  /** Nodes whose rewritten form is a tensor (the type checker sees `x[0]` on a Tensor as any). */
  const madeTensors = new Set<ts.Node>();
  let changed = false;

  const isTensorType = (type: ts.Type): boolean => TENSOR_TYPES.has(type.getSymbol()?.name ?? '') || TENSOR_TYPES.has(type.aliasSymbol?.name ?? '');
  const isTensor = (node: ts.Node): boolean => {
    if (madeTensors.has(node)) return true;
    const inner = tsApi.isParenthesizedExpression(node) ? node.expression : node;
    if (inner !== node && madeTensors.has(inner)) return true;
    return isTensorType(checker.getTypeAtLocation(node));
  };
  const orTensor = (type: ts.Type): boolean => type.isUnion() && type.types.some(isTensorType);
  const operand = (text: string, node: ts.Node) =>
    tsApi.isIdentifier(node) || tsApi.isPropertyAccessExpression(node) || tsApi.isCallExpression(node) || tsApi.isElementAccessExpression(node) || tsApi.isParenthesizedExpression(node) || madeTensors.has(node)
      ? text : `(${text})`;
  const fail = (node: ts.Node, message: string): never => {
    throw new CannotRewrite(node.getStart(file), message);
  };

  const emitChildren = (node: ts.Node): string => spliceChildren(node, file, source, emit, tsApi);
  const dispatcher = createDispatchEmitter(file, source, tsApi, emit);
  // a value the cell's rewrite makes a tensor (`const done = loss < tol`) is typed from JavaScript's operator too
  const isUntyped = untypedOperands(file, checker, tsApi, (node) => dispatcher.isCall(node) || madeTensors.has(node));
  /**
   * `node` dispatched at run time where an operand that decides it is untyped or typed a tensor
   * or something else (`p.grad * lr`, p.grad a Tensor | null), else as written (its children rewritten).
   */
  const dispatchedOrChildren = (node: ts.Node): string =>
    dispatcher.emit(node, (e) => isUntyped(e) || orTensor(checker.getTypeAtLocation(e))) ?? emitChildren(node);

  /** A callee that JavaScript cannot call but PyTorch would: a module (its type has forward() and no call signature). */
  const isModuleCall = (callee: ts.Expression): boolean => {
    const type = checker.getTypeAtLocation(callee);
    if (type.flags & (tsApi.TypeFlags.Any | tsApi.TypeFlags.Unknown) || type.getCallSignatures().length > 0) return false;
    const forward = type.getProperty('forward');
    return forward !== undefined && checker.getTypeOfSymbolAtLocation(forward, callee).getCallSignatures().length > 0;
  };
  /** What `x === v` of a tensor x can never equal. */
  const PRIMITIVE_VALUE = tsApi.TypeFlags.NumberLike | tsApi.TypeFlags.BooleanLike | tsApi.TypeFlags.BigIntLike;
  /** Index types that make x[...] a view: numbers, slice strings, null (a new dim). */
  const VIEW_INDEX = tsApi.TypeFlags.NumberLike | tsApi.TypeFlags.StringLike | tsApi.TypeFlags.Null | tsApi.TypeFlags.Undefined;
  const viewIndex = (t: ts.Type): boolean => (t.isUnion() ? t.types.every(viewIndex) : (t.flags & VIEW_INDEX) !== 0);
  /** In a chain of subscripts ending at `node`, the first index that makes a copy (a tensor, a list), or null. */
  const indexedCopy = (node: ts.Expression): ts.Expression | null => {
    for (let e = node; ; e = e.expression) {
      while (tsApi.isParenthesizedExpression(e)) e = e.expression;
      if (!tsApi.isElementAccessExpression(e)) return null;
      const copying = indexItems(e, tsApi).find((item) => !viewIndex(checker.getTypeAtLocation(item)));
      if (copying) return copying;
    }
  };

  const tensorCall = (node: ts.Node, text: string): string => {
    madeTensors.add(node);
    changed = true;
    return text;
  };

  function emit(node: ts.Node): string {
    let text = emitted.get(node);
    if (text === undefined) emitted.set(node, (text = emitOnce(node)));
    return text;
  }

  /**
   * A value whose truth is read (a condition, the left of `&&`): a tensor, a tensor or nothing
   * (`p.grad`: Tensor | null), untyped, or `a && b` / `a || b` of such an operand (either may be the value).
   */
  const mayBeTensor = (e: ts.Expression): boolean => {
    const logical = logicalExpression(skipParentheses(e, tsApi), tsApi);
    if (logical) return mayBeTensor(logical.left) || mayBeTensor(logical.right);
    return isTensor(e) || orTensor(checker.getTypeAtLocation(e)) || isUntyped(e);
  };

  function emitOnce(node: ts.Node): string {
    const condition = conditionOf(node, tsApi);
    if (condition) {
      // null stays false, a tensor is its value
      const truthRead = (e: ts.Expression) => mayBeTensor(e) && (changed = true);
      return spliceChildren(node, file, source, (child) => (child === condition ? truthOf(condition, file, source, emit, truthRead, tsApi) : emit(child)), tsApi);
    }
    const logical = logicalExpression(node, tsApi);
    if (logical) {
      const text = emit(logical.left); // first: a tensor it makes is known to mayBeTensor
      if (mayBeTensor(logical.left)) {
        changed = true;
        return logicalValue(logical, text, file, source, emit, tsApi);
      }
    }
    if (tsApi.isBinaryExpression(node)) {
      const op = node.operatorToken.kind;
      const left = emit(node.left), right = emit(node.right);
      const leftTensor = isTensor(node.left), rightTensor = isTensor(node.right);
      const opText = tsApi.tokenToString(op) ?? '';
      const compound = COMPOUND.exec(opText);
      if (compound && leftTensor) {
        // In place, as Python's `y += 1` on a torch tensor (iadd): views of y, and other names
        // for it (a module's weight, a list's element), see the new value; `x[0] += 1` and
        // `m.w -= g` write x and m.w. The dtype and shape stay y's (int y /= 2 is PyTorch's error).
        const method = METHODS[compound[1]!]!; // every compound operator has one
        const target = skipParentheses(node.left, tsApi);
        // x[idx] OP= v with index tensors or lists: x[idx] = x[idx] OP v, as Python's, at run time
        // (operator-dispatch.ts). A tensor or list index further in (`x[idx][0] += 1`) would write
        // into a copy; an index typed any further in is left to run time, as PyTorch's.
        if (tsApi.isElementAccessExpression(target)) {
          const inner = indexedCopy(target.expression);
          const innerType = inner && checker.getTypeAtLocation(inner);
          const typedList = innerType && !(innerType.flags & (tsApi.TypeFlags.Any | tsApi.TypeFlags.Unknown)) && checker.isArrayLikeType(innerType);
          if (inner && (isTensor(inner) || typedList)) {
            fail(node, operatorMessages.copyingIndex(node.left.getText(file), opText, inner.getText(file)));
          }
          if (inner || indexedCopy(target)) return dispatcher.emit(node, mayBeTensor) ?? emitChildren(node);
        }
        return tensorCall(node, `${operand(left, node.left)}.${method}_(${right})`);
      }
      // `x[0] = v`: written into the view at run time, as the dispatched rewrite writes it (an index
      // that copies is found when it runs: a tensor index may be a bool mask, `x[x < 0] = 0`)
      if (op === K.EqualsToken && tsApi.isElementAccessExpression(node.left) && isTensor(node.left.expression)) {
        return dispatcher.emit(node, mayBeTensor) ?? emitChildren(node);
      }
      const method = METHODS[opText];
      const equality = opText === '==' || opText === '!=' || opText === '===' || opText === '!==';
      // No Tensor operand, or an operator no tensor method answers (`acc += x` with acc no Tensor, `t[0] = x`): dispatched where untyped
      if (!(leftTensor || rightTensor) || !(method || equality)) return dispatchedOrChildren(node);
      if (equality) {
        const nullish = (e: ts.Expression) => e.kind === K.NullKeyword || (tsApi.isIdentifier(e) && e.text === 'undefined');
        if (nullish(node.left) || nullish(node.right)) return emitChildren(node); // identity, as the dispatched rewrite leaves it
        // typed a number, and no tensor's: `(t && 1) === t` may be true (t a false tensor)
        const primitive = (e: ts.Expression) => (checker.getTypeAtLocation(e).flags & PRIMITIVE_VALUE) !== 0 && !mayBeTensor(e);
        if (opText.length === 2) {
          // element-wise, as PyTorch's; an operand that may be null at run time is tested there
          const other = leftTensor ? node.right : node.left;
          if (!(isTensor(other) || primitive(other))) return dispatcher.emit(node, () => true)!;
          return tensorCall(node, leftTensor ? `${operand(left, node.left)}.${EQUALITY_METHODS[opText]}(${right})` : `${operand(right, node.right)}.${EQUALITY_METHODS[opText]}(${left})`);
        }
        if ((leftTensor && primitive(node.right)) || (rightTensor && primitive(node.left))) fail(node, operatorMessages.strictEquality());
        return emitChildren(node);
      }
      if (leftTensor) return tensorCall(node, `${operand(left, node.left)}.${method}(${right})`);
      if (opText === '-') return tensorCall(node, `${operand(right, node.right)}.neg().add(${left})`);
      const mirrored = MIRRORED[opText];
      if (mirrored) return tensorCall(node, `${operand(right, node.right)}.${mirrored}(${left})`);
      // `1 / x`: tpu's function at run time, which takes the number first (operator-dispatch.ts)
      return tensorCall(node, dispatcher.emit(node, () => true)!);
    }
    // `model(x)`, PyTorch's call of a module: an object with forward() and no call signature
    if (tsApi.isCallExpression(node) && !node.questionDotToken && isModuleCall(node.expression)) {
      const callee = node.expression;
      changed = true;
      return spliceChildren(node, file, source, (child) => (child === callee ? `${operand(emit(callee), callee)}.forward` : emit(child)), tsApi);
    }
    if (tsApi.isPrefixUnaryExpression(node) && (node.operator === K.MinusToken || node.operator === K.PlusToken || node.operator === K.TildeToken)) {
      const inner = emit(node.operand);
      if (!isTensor(node.operand)) return dispatchedOrChildren(node);
      if (node.operator === K.PlusToken) fail(node, operatorMessages.unaryPlus());
      return tensorCall(node, `${operand(inner, node.operand)}.${node.operator === K.TildeToken ? 'bitwiseNot' : 'neg'}()`);
    }
    if (tsApi.isElementAccessExpression(node) && !node.questionDotToken) {
      const target = emit(node.expression);
      if (!isTensor(node.expression)) return dispatchedOrChildren(node);
      const items = indexItems(node, tsApi);
      if (items.length === 1 && tsApi.isStringLiteral(items[0]!) && !SLICE_STRING.test(items[0].text)) return emitChildren(node); // x['shape']
      return tensorCall(node, `${operand(target, node.expression)}.at(${items.map(emit).join(', ')})`);
    }
    return dispatchedOrChildren(node);
  }

  if (!parses(file, tsApi)) return { code: cell, changed: false };
  try {
    const statements = file.statements.filter((s) => s.getStart(file) < cellLength);
    let code = '';
    let pos = 0;
    for (const statement of statements) {
      const start = statement.getStart(file);
      code += source.slice(pos, start) + emit(statement);
      pos = statement.end;
    }
    code += source.slice(pos, cellLength);
    return { code, changed: changed || dispatcher.called };
  } catch (error) {
    if (error instanceof CannotRewrite) return { error: { offset: error.offset, message: error.message } };
    throw error;
  }
}
