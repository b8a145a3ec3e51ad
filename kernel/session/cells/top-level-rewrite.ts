// Rewrites the top level of a transpiled cell (plain JavaScript AST, after
// TypeScript erased types and lowered enums) so that every declaration lives on
// the persistent context's global object instead of in a lexical scope:
//   const x = 1         -> x = 1            (never "already declared" on re-run)
//   const { a, b } = o  -> ({ a, b } = o)
//   function f() {}     -> f = function f() {}   (hoisted to the top, as JS does)
//   class C {}          -> C = class C {}
//   import d, { a } from 'm' -> ({ default: d, a } = await __tpu_import('m'))
//   import('m')         -> __tpu_import('m')     (resolved from the notebook folder)
// and wraps the cell in a generator function whose top-level `await e` become
// `yield e`: the session drives it step by step, each step inside vm's
// breakOnSigint scope, so a synchronous loop after an await is still stopped
// by SIGINT (a cell with a top-level `for await` is wrapped in an async arrow
// instead). The value of a last expression statement is returned. Rewritten
// nodes keep the text range of the node they replace, so the emitted source
// map still points at user code.
import type ts from 'typescript';
import { typescript } from '../typescript.js';
import { OPERATOR_DISPATCH } from '../operators/operator-dispatch.js';

/** Name of the context global that imports a module for a cell. */
export const IMPORT_FUNCTION = '__tpu_import';

export interface TopLevelNames {
  /** Names the cell declares; the session defines them on the global before running. */
  declared: Set<string>;
  /** Enum / namespace names: TypeScript lowers them to `var E; (E || (E = {}))`; reset so a redefinition replaces. */
  resetOnVar: Set<string>;
  /**
   * Set by the rewrite: true when the script evaluates to a generator function
   * to drive step by step (yielded values are awaited); false when it evaluates
   * to the promise of an async arrow (cells with a top-level `for await`).
   */
  steppable?: boolean;
}

/** Does the top level of the file (outside functions and classes) contain a `for await`? */
export function hasTopLevelForAwait(node: ts.Node): boolean {
  const ts = typescript();
  if (ts.isFunctionLike(node) || ts.isClassLike(node)) return false;
  if (ts.isForOfStatement(node) && node.awaitModifier) return true;
  return ts.forEachChild(node, hasTopLevelForAwait) ?? false;
}

export function topLevelRewriter(names: TopLevelNames): ts.TransformerFactory<ts.SourceFile> {
  const ts = typescript();
  return (context) => (file) => {
    const f = context.factory;
    const keepRange = <T extends ts.Node>(node: T, original: ts.Node): T => ts.setOriginalNode(ts.setTextRange(node, original), original);
    const assign = (target: ts.Expression, value: ts.Expression, original: ts.Node) =>
      keepRange(f.createExpressionStatement(f.createAssignment(target, value)), original);

    const steppable = !hasTopLevelForAwait(file);
    names.steppable = steppable;
    const suspend = (value: ts.Expression) => (steppable ? f.createParenthesizedExpression(f.createYieldExpression(undefined, value)) : f.createAwaitExpression(value));
    // Dynamic imports anywhere, and (when steppable) awaits outside nested functions and classes.
    const visit = (node: ts.Node, topLevel: boolean): ts.Node => {
      if (ts.isCallExpression(node) && node.expression.kind === ts.SyntaxKind.ImportKeyword) {
        return f.updateCallExpression(node, f.createIdentifier(IMPORT_FUNCTION), undefined, ts.visitNodes(node.arguments, (n) => visit(n, topLevel), ts.isExpression));
      }
      const nested = topLevel && (ts.isFunctionLike(node) || ts.isClassLike(node));
      if (topLevel && steppable && ts.isAwaitExpression(node)) return keepRange(suspend(ts.visitNode(node.expression, (n) => visit(n, true)) as ts.Expression), node);
      return ts.visitEachChild(node, (n) => visit(n, topLevel && !nested), context);
    };

    const hoisted: ts.Statement[] = [];
    const body: ts.Statement[] = [];
    const expressionStatements = new Set<ts.Statement>();
    for (const original of file.statements) {
      // TypeScript adds a "use strict" prologue to files without imports (alwaysStrict); the wrapper has its own.
      if (ts.isExpressionStatement(original) && ts.isStringLiteral(original.expression) && original.expression.text === 'use strict') continue;
      const statement = visit(original, true) as ts.Statement;
      if (ts.isImportDeclaration(statement)) body.push(...rewriteImport(statement));
      else if (ts.isExportDeclaration(statement)) continue;
      else if (ts.isExportAssignment(statement)) body.push(keepRange(f.createExpressionStatement(statement.expression), statement));
      else if (ts.isVariableStatement(statement)) body.push(...rewriteVariables(statement));
      else if (ts.isFunctionDeclaration(statement) && statement.body) {
        const expression = f.createFunctionExpression(
          statement.modifiers?.filter((m) => m.kind === ts.SyntaxKind.AsyncKeyword) as ts.Modifier[] | undefined,
          statement.asteriskToken, statement.name, undefined, statement.parameters, undefined, statement.body);
        if (statement.name) {
          names.declared.add(statement.name.text);
          hoisted.push(assign(f.createIdentifier(statement.name.text), expression, statement));
        } else body.push(keepRange(f.createExpressionStatement(expression), statement));
      } else if (ts.isClassDeclaration(statement)) {
        const modifiers = statement.modifiers?.filter((m) => m.kind === ts.SyntaxKind.Decorator);
        const expression = keepRange(f.createClassExpression(modifiers, statement.name, undefined, statement.heritageClauses, statement.members), statement);
        if (statement.name) {
          names.declared.add(statement.name.text);
          body.push(assign(f.createIdentifier(statement.name.text), expression, statement));
        } else body.push(keepRange(f.createExpressionStatement(expression), statement));
      } else {
        body.push(statement);
        if (ts.isExpressionStatement(statement)) expressionStatements.add(statement);
      }
    }

    const last = body.at(-1);
    if (last && expressionStatements.has(last) && ts.isExpressionStatement(last)) {
      body[body.length - 1] = keepRange(f.createReturnStatement(last.expression), last);
    }
    const block = f.createBlock([f.createExpressionStatement(f.createStringLiteral('use strict')), ...hoisted, ...body], true);
    const wrapper = steppable
      ? f.createParenthesizedExpression(f.createFunctionExpression(undefined, f.createToken(ts.SyntaxKind.AsteriskToken), undefined, undefined, [], undefined, block))
      : f.createCallExpression(f.createParenthesizedExpression(f.createArrowFunction([f.createModifier(ts.SyntaxKind.AsyncKeyword)], undefined, [], undefined,
        f.createToken(ts.SyntaxKind.EqualsGreaterThanToken), block)), undefined, []);
    return f.updateSourceFile(file, [f.createExpressionStatement(file.text.includes(OPERATOR_DISPATCH) ? withOperatorDispatch(wrapper) : wrapper)]);

    /**
     * `((__tpuOps) => wrapper)(__tpuOps)`: the cell's dispatched operators (and the functions it
     * defines, called later) reach the dispatch through a parameter, not the context's global,
     * whose every read goes through vm's interceptor (a loop of `data[i] = raw[i] / 255` ran 23x
     * slower than typed).
     */
    function withOperatorDispatch(inner: ts.Expression): ts.Expression {
      const parameter = f.createParameterDeclaration(undefined, undefined, OPERATOR_DISPATCH);
      const bind = f.createArrowFunction(undefined, undefined, [parameter], undefined, f.createToken(ts.SyntaxKind.EqualsGreaterThanToken), inner);
      return f.createCallExpression(f.createParenthesizedExpression(bind), undefined, [f.createIdentifier(OPERATOR_DISPATCH)]);
    }

    function rewriteImport(statement: ts.ImportDeclaration): ts.Statement[] {
      const load = suspend(f.createCallExpression(f.createIdentifier(IMPORT_FUNCTION), undefined, [statement.moduleSpecifier]));
      const clause = statement.importClause;
      if (!clause) return [keepRange(f.createExpressionStatement(load), statement)];
      const properties: ts.ObjectLiteralElementLike[] = [];
      const statements: ts.Statement[] = [];
      if (clause.name) {
        names.declared.add(clause.name.text);
        properties.push(f.createPropertyAssignment('default', f.createIdentifier(clause.name.text)));
      }
      const bindings = clause.namedBindings;
      if (bindings && ts.isNamespaceImport(bindings)) {
        names.declared.add(bindings.name.text);
        statements.push(assign(f.createIdentifier(bindings.name.text), load, statement));
        if (properties.length) statements.push(assign(f.createObjectLiteralExpression(properties), f.createIdentifier(bindings.name.text), statement));
        return statements;
      }
      for (const element of bindings?.elements ?? []) {
        if (element.isTypeOnly) continue;
        names.declared.add(element.name.text);
        properties.push(element.propertyName
          ? f.createPropertyAssignment(element.propertyName, f.createIdentifier(element.name.text))
          : f.createShorthandPropertyAssignment(element.name.text));
      }
      return [assign(f.createObjectLiteralExpression(properties), load, statement)];
    }

    function rewriteVariables(statement: ts.VariableStatement): ts.Statement[] {
      const isVar = (statement.declarationList.flags & ts.NodeFlags.BlockScoped) === 0;
      const statements: ts.Statement[] = [];
      for (const declaration of statement.declarationList.declarations) {
        collectNames(declaration.name);
        const resets = ts.isIdentifier(declaration.name) && names.resetOnVar.has(declaration.name.text);
        if (!declaration.initializer && isVar && !resets) continue; // `var x;` keeps the value, as in JS
        const value = declaration.initializer ?? f.createVoidZero();
        statements.push(assign(toAssignmentTarget(declaration.name), value, declaration));
      }
      return statements;
    }

    function collectNames(name: ts.BindingName): void {
      if (ts.isIdentifier(name)) names.declared.add(name.text);
      else for (const element of name.elements) if (!ts.isOmittedExpression(element)) collectNames(element.name);
    }

    /** A binding pattern (`{ a, b: [c] = d }`) as the equivalent assignment pattern. */
    function toAssignmentTarget(name: ts.BindingName): ts.Expression {
      if (ts.isIdentifier(name)) return f.createIdentifier(name.text);
      if (ts.isArrayBindingPattern(name)) {
        return f.createArrayLiteralExpression(name.elements.map((element) => {
          if (ts.isOmittedExpression(element)) return element;
          const target = toAssignmentTarget(element.name);
          if (element.dotDotDotToken) return f.createSpreadElement(target);
          return element.initializer ? f.createAssignment(target, element.initializer) : target;
        }));
      }
      return f.createObjectLiteralExpression(name.elements.map((element) => {
        const target = toAssignmentTarget(element.name);
        if (element.dotDotDotToken) return f.createSpreadAssignment(target);
        if (!element.propertyName && ts.isIdentifier(element.name)) {
          return f.createShorthandPropertyAssignment(element.name.text, element.initializer);
        }
        const key = element.propertyName ?? (element.name as ts.Identifier);
        return f.createPropertyAssignment(key as ts.PropertyName, element.initializer ? f.createAssignment(target, element.initializer) : target);
      }));
    }
  };
}
