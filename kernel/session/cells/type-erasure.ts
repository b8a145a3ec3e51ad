// The edits that turn a TypeScript cell into the JavaScript TypeScript's emit would make, where
// that is only erasing: annotations, type parameters and arguments, `as`/`satisfies`/`!`,
// interfaces, type aliases, `declare`, overloads and TypeScript's class modifiers are blanked
// where they stand. Within the cell's top level (outside functions and classes), `await e`
// becomes `(yield e)` for the cell generator (top-level-rewrite.ts), and `import(m)` becomes the
// cell importer's call everywhere. What TypeScript's emit would lower instead (enums,
// namespaces, parameter properties, decorators, `accessor`, `using`, `import x =`, `export =`,
// `<T>e` assertions) throws NotErasable: the cell goes through the emit.
import type ts from 'typescript';
import { typescript } from '../typescript.js';
import { blank, type Edit } from './spliced-text.js';
import { IMPORT_FUNCTION } from './top-level-rewrite.js';

export class NotErasable extends Error {}

/** The parts of a node that may be erased, whatever its kind. */
interface ErasableParts {
  type?: ts.TypeNode;
  typeParameters?: ts.NodeArray<ts.TypeParameterDeclaration>;
  typeArguments?: ts.NodeArray<ts.TypeNode>;
  questionToken?: ts.Node;
  exclamationToken?: ts.Node;
}

/** Tokens that continue an expression across a line break in JavaScript but not after a type: `a as T⏎(b)` is two statements in TypeScript. */
const CONTINUES_AFTER_TYPE = /^[([`]/;

export class TypeErasure {
  readonly edits: Edit[] = [];
  /** Statements and members erased whole (what TypeScript's emit leaves out). */
  readonly erased = new Set<ts.Node>();
  /** Where the expression statements visited so far start. */
  private readonly statementStarts = new Set<number>();
  private readonly ts = typescript();
  /** TransformFlags that mean TypeScript's emit lowers something in the subtree (TypeScript's own per-node facts, set by the parser). */
  private readonly lowered: number;

  constructor(private readonly file: ts.SourceFile, private readonly steppable: boolean) {
    const flags = (this.ts as unknown as { TransformFlags?: Record<string, number> }).TransformFlags;
    const need = ['ContainsTypeScriptClassSyntax', 'ContainsDecorators', 'ContainsESNext', 'ContainsJsx'];
    if (!flags || need.some((name) => typeof flags[name] !== 'number')) throw new NotErasable('TypeScript without TransformFlags');
    this.lowered = need.reduce((all, name) => all | flags[name]!, 0);
  }

  /** Records the edits of `node` and everything in it; `topLevel`: outside the cell's functions and classes. */
  visit(node: ts.Node, topLevel: boolean): void {
    const ts = this.ts;
    const flags = (node as unknown as { transformFlags: number }).transformFlags;
    if (flags & this.lowered) throw new NotErasable(ts.SyntaxKind[node.kind]);
    if (this.erasesStatement(node)) return;
    switch (node.kind) {
      case ts.SyntaxKind.EnumDeclaration:
      case ts.SyntaxKind.ModuleDeclaration:
      case ts.SyntaxKind.ImportEqualsDeclaration:
      case ts.SyntaxKind.TypeAssertionExpression:
        throw new NotErasable(ts.SyntaxKind[node.kind]);
      case ts.SyntaxKind.MetaProperty:
        if ((node as ts.MetaProperty).keywordToken === ts.SyntaxKind.ImportKeyword) throw new NotErasable('import.meta');
        break;
      case ts.SyntaxKind.ExportAssignment:
        if ((node as ts.ExportAssignment).isExportEquals) throw new NotErasable('export =');
        break;
      case ts.SyntaxKind.AsExpression:
      case ts.SyntaxKind.SatisfiesExpression: {
        const expression = (node as ts.AsExpression).expression;
        this.blankInExpression(expression.end, node.end);
        return this.visit(expression, topLevel);
      }
      case ts.SyntaxKind.NonNullExpression:
        // `x!` is a left-hand side as `x` is: what follows it joins it alike
        this.blank(node.end - 1, node.end);
        return this.visit((node as ts.NonNullExpression).expression, topLevel);
      case ts.SyntaxKind.ExpressionStatement:
        this.statementStarts.add(node.getStart(this.file));
        break;
      case ts.SyntaxKind.AwaitExpression:
        if (topLevel && this.steppable) {
          const start = node.getStart(this.file);
          // `await a⏎await b` is two statements; `(yield a)⏎(yield b)` would be one call
          if (this.statementStarts.has(start)) this.edits.push({ start, end: start, text: ';' });
          this.edits.push({ start, end: start + 'await'.length, text: '(yield' }, { start: node.end, end: node.end, text: ')' });
        }
        break;
      case ts.SyntaxKind.CallExpression: {
        const call = node as ts.CallExpression;
        if (call.expression.kind === ts.SyntaxKind.ImportKeyword) {
          this.edits.push({ start: call.expression.getStart(this.file), end: call.expression.end, text: IMPORT_FUNCTION });
        }
        break;
      }
      case ts.SyntaxKind.HeritageClause:
        if ((node as ts.HeritageClause).token === ts.SyntaxKind.ImplementsKeyword) return this.blank(node.getStart(this.file), node.end);
        break;
      case ts.SyntaxKind.PropertyDeclaration:
        // `x: number` without a semicolon: the blanked type must not let the next member join it (`x⏎(){}` is a method).
        if (!this.file.text.slice(0, node.end).endsWith(';')) this.edits.push({ start: node.end, end: node.end, text: ';' });
        break;
    }
    this.eraseModifiers(node);
    this.eraseParts(node);
    const nested = topLevel && (ts.isFunctionLike(node) || ts.isClassLike(node));
    const skip = this.erasedChildren(node);
    ts.forEachChild(node, (child) => {
      if (!skip.has(child)) this.visit(child, topLevel && !nested);
    }, (children) => {
      if (skip.has(children)) return;
      for (const child of children) if (!skip.has(child)) this.visit(child, topLevel && !nested);
    });
  }

  /** Interfaces, type aliases, `declare` statements, overloads and abstract or `declare` members: blanked, a `;` in their place (what came before must not join what comes after). */
  private erasesStatement(node: ts.Node): boolean {
    const ts = this.ts;
    const typeOnly = ts.isInterfaceDeclaration(node) || ts.isTypeAliasDeclaration(node) || ts.isIndexSignatureDeclaration(node)
      || hasModifier(ts, node, ts.SyntaxKind.DeclareKeyword) || hasModifier(ts, node, ts.SyntaxKind.AbstractKeyword) && !ts.isClassLike(node)
      || ((ts.isFunctionDeclaration(node) || ts.isMethodDeclaration(node) || ts.isConstructorDeclaration(node)) && !node.body)
      || ((ts.isImportDeclaration(node) && node.importClause?.isTypeOnly) || (ts.isExportDeclaration(node) && node.isTypeOnly));
    if (!typeOnly) return false;
    this.erased.add(node);
    const start = node.getStart(this.file);
    this.edits.push({ start, end: node.end, text: `;${blank(this.file.text.slice(start + 1, node.end))}` });
    return true;
  }

  private eraseModifiers(node: ts.Node): void {
    const ts = this.ts;
    for (const modifier of ts.canHaveModifiers(node) ? node.modifiers ?? [] : []) {
      switch (modifier.kind) {
        case ts.SyntaxKind.PublicKeyword:
        case ts.SyntaxKind.PrivateKeyword:
        case ts.SyntaxKind.ProtectedKeyword:
        case ts.SyntaxKind.ReadonlyKeyword:
        case ts.SyntaxKind.OverrideKeyword:
        case ts.SyntaxKind.AbstractKeyword:
          if (ts.isParameter(node)) throw new NotErasable('a parameter property');
          this.blank(modifier.getStart(this.file), modifier.end);
          break;
        case ts.SyntaxKind.AccessorKeyword:
        case ts.SyntaxKind.Decorator:
          throw new NotErasable(ts.SyntaxKind[modifier.kind]);
        case ts.SyntaxKind.InKeyword:
        case ts.SyntaxKind.OutKeyword:
        case ts.SyntaxKind.ConstKeyword:
          break; // variance and const of type parameters: blanked with their list
      }
    }
  }

  /** Annotations, `?` and `!` of declarations, type parameter and argument lists. */
  private eraseParts(node: ts.Node): void {
    const ts = this.ts;
    const n = node as ErasableParts;
    if (n.typeParameters) this.blankList(n.typeParameters);
    if (n.typeArguments) this.blankList(n.typeArguments, true);
    if ((ts.isParameter(node) || ts.isPropertyDeclaration(node) || ts.isMethodDeclaration(node)) && n.questionToken) this.blank(n.questionToken.pos, n.questionToken.end);
    if ((ts.isVariableDeclaration(node) || ts.isPropertyDeclaration(node)) && n.exclamationToken) this.blank(n.exclamationToken.pos, n.exclamationToken.end);
    const type = n.type;
    if (!type || !(ts.isParameter(node) || ts.isVariableDeclaration(node) || ts.isPropertyDeclaration(node) || ts.isFunctionLike(node))) return;
    // A node's pos is the end of the token before it: here the `:`.
    const colon = type.pos - 1;
    if (this.file.text[colon] !== ':') throw new NotErasable(`no ':' before a type at ${colon}`);
    // `(a): {⏎ x: T } => a`: a line break left before `=>` is a syntax error in JavaScript.
    if (ts.isArrowFunction(node) && this.file.text.slice(colon, node.equalsGreaterThanToken.getStart(this.file)).includes('\n')) throw new NotErasable('a return type over lines');
    this.blank(colon, type.end);
  }

  /** The children erased whole, not visited: types (blanked with their annotation) and a `this` parameter. */
  private erasedChildren(node: ts.Node): Set<unknown> {
    const n = node as ErasableParts;
    const skip = new Set<unknown>();
    if (n.type) skip.add(n.type);
    if (n.typeParameters) skip.add(n.typeParameters);
    if (n.typeArguments) skip.add(n.typeArguments);
    if (this.ts.isAsExpression(node) || this.ts.isSatisfiesExpression(node)) skip.add(node.type);
    const self = this.thisParameter(node);
    if (self) skip.add(self);
    return skip;
  }

  /** `<...>`: the list's pos follows `<`; `>` follows its end, past a trailing comma. */
  private blankList(list: ts.NodeArray<ts.Node>, inExpression = false): void {
    const open = list.pos - 1;
    const close = tokenAfter(this.file.text, list.end, '>');
    if (this.file.text[open] !== '<' || close < 0) throw new NotErasable('a type list without its brackets');
    if (inExpression) this.blankInExpression(open, close + 1);
    else this.blank(open, close + 1);
  }

  /** An erased piece of an expression: followed on the next line by `(`, `[` or a template, JavaScript would join what TypeScript kept apart. */
  private blankInExpression(start: number, end: number): void {
    const rest = this.file.text.slice(end);
    const next = rest.search(/\S/);
    if (next > 0 && rest.slice(0, next).includes('\n') && CONTINUES_AFTER_TYPE.test(rest.slice(next))) throw new NotErasable('an erased type before a line that would continue it');
    this.blank(start, end);
  }

  /** `function f(this: T, a)`: TypeScript's `this` parameter, erased with the comma after it. */
  private thisParameter(node: ts.Node): ts.ParameterDeclaration | undefined {
    if (!this.ts.isFunctionLike(node)) return undefined;
    const first = node.parameters[0];
    if (!first || !this.ts.isIdentifier(first.name) || first.name.escapedText !== 'this') return undefined;
    const next = node.parameters[1];
    this.blank(first.getStart(this.file), next ? next.getStart(this.file) : first.end);
    return first;
  }

  private blank(start: number, end: number): void {
    if (end > start) this.edits.push({ start, end });
  }
}

export function hasModifier(ts: typeof import('typescript'), node: ts.Node, kind: ts.SyntaxKind): boolean {
  return ts.canHaveModifiers(node) && (node.modifiers?.some((m) => m.kind === kind) ?? false);
}

/** The position of `char` after `from`, past whitespace, comments and one comma; -1 if something else comes first. */
export function tokenAfter(text: string, from: number, char: string): number {
  let i = from;
  let commaSeen = false;
  while (i < text.length) {
    const c = text[i]!;
    if (c === char) return i;
    if (/\s/.test(c)) i++;
    else if (text.startsWith('//', i)) i = text.indexOf('\n', i) < 0 ? text.length : text.indexOf('\n', i);
    else if (text.startsWith('/*', i)) i = text.indexOf('*/', i) < 0 ? text.length : text.indexOf('*/', i) + 2;
    else if (c === ',' && !commaSeen) (commaSeen = true), i++;
    else return -1;
  }
  return -1;
}
