// A cell's JavaScript made by editing its text instead of TypeScript's emit: types are erased
// where they stand (type-erasure.ts) and the top level is rewritten as top-level-rewrite.ts
// rewrites TypeScript's output (the same statements, names and wrapper), from pieces of the
// source and a few inserted words. No transformer, printer or source map generator runs:
// TypeScript's emit set those up for every cell, about 0.5 ms and most of a small cell's
// garbage. A cell with what TypeScript's emit lowers (NotErasable) goes through the emit.
// test/session/splice-emit.test.ts compares both outputs' syntax trees over the notebooks, the
// docs and a syntax catalogue.
import type ts from 'typescript';
import { OPERATOR_DISPATCH } from '../operators/operator-dispatch.js';
import { typescript } from '../typescript.js';
import type { CompiledCell } from './compiled-cell.js';
import { SplicedText } from './spliced-text.js';
import { hasTopLevelForAwait, IMPORT_FUNCTION } from './top-level-rewrite.js';
import { hasModifier, NotErasable, TypeErasure } from './type-erasure.js';

/** The cell parsed as the emit parses it; undefined when it does not parse (the emit words the error). */
export type CellParser = (source: string) => ts.SourceFile | undefined;

/** The cell's JavaScript, or undefined when it needs TypeScript's emit. */
export function emitBySplicing(source: string, parse: CellParser): CompiledCell | undefined {
  const file = parse(source);
  if (!file) return undefined;
  try {
    return new TopLevel(file).emit();
  } catch (error) {
    if (error instanceof NotErasable) return undefined;
    throw error;
  }
}

/** How one top-level statement comes out. */
type Piece =
  | { kind: 'copy'; statement: ts.Statement }
  | { kind: 'erased'; statement: ts.Statement }
  | { kind: 'generated'; statement: ts.Statement; emit: (out: SplicedText) => void }
  | { kind: 'hoisted'; statement: ts.FunctionDeclaration; from: number };

class TopLevel {
  private readonly ts = typescript();
  private readonly declared = new Set<string>();
  private readonly steppable: boolean;
  private readonly erasure: TypeErasure;

  constructor(private readonly file: ts.SourceFile) {
    this.steppable = !hasTopLevelForAwait(file);
    this.erasure = new TypeErasure(file, this.steppable);
  }

  emit(): CompiledCell {
    const ts = this.ts;
    const pieces = this.file.statements.map((statement) => {
      this.erasure.visit(statement, true);
      return this.piece(statement);
    });
    const edits = this.erasure.edits.sort((a, b) => a.start - b.start || a.end - b.end);
    for (let i = 1; i < edits.length; i++) if (edits[i]!.start < edits[i - 1]!.end) throw new NotErasable('overlapping edits');
    const out = new SplicedText(this.file.text, edits);
    const dispatch = this.file.text.includes(OPERATOR_DISPATCH);
    out.insert(`${dispatch ? `((${OPERATOR_DISPATCH}) => ` : ''}${this.steppable ? '(function* () {' : '(async () => {'}"use strict";`, 0);
    for (const piece of pieces) {
      if (piece.kind !== 'hoisted') continue;
      const name = piece.statement.name!.text;
      out.insert(`${name} = `, piece.from);
      out.copy(piece.from, piece.statement.end);
      out.insert(';', piece.statement.end);
    }
    const last = pieces.findLast((piece) => piece.kind === 'copy' || piece.kind === 'generated');
    let position = 0;
    for (const piece of pieces) {
      const statement = piece.statement;
      const start = statement.getStart(this.file);
      out.copy(position, start); // leading comments and line breaks
      position = statement.end;
      if (piece.kind === 'hoisted' || piece.kind === 'erased') {
        // an empty statement in its place: what came before must not join what comes after (`f()⏎type T = 1⏎(x)`)
        out.insert(';', start);
        out.skip(start, statement.end);
      } else if (piece.kind === 'generated') piece.emit(out);
      else if (piece === last && ts.isExpressionStatement(statement)) {
        out.insert('return (', start);
        out.copy(start, statement.expression.end);
        out.insert(');', statement.expression.end);
        out.skip(statement.expression.end, statement.end);
      } else out.copy(start, statement.end);
    }
    out.copy(position, this.file.text.length);
    out.insert(`\n})${this.steppable ? '' : '()'}${dispatch ? `)(${OPERATOR_DISPATCH})` : ''}`, this.file.text.length);
    const javascript = out.text();
    return { javascript, positions: out.positions(javascript), declaredNames: [...this.declared], steppable: this.steppable };
  }

  private piece(statement: ts.Statement): Piece {
    const ts = this.ts;
    if (this.erasure.erased.has(statement)) return { kind: 'erased', statement };
    if (ts.isExpressionStatement(statement) && ts.isStringLiteral(statement.expression) && statement.expression.text === 'use strict') return { kind: 'erased', statement };
    if (ts.isImportDeclaration(statement)) return this.importPiece(statement);
    if (ts.isExportDeclaration(statement)) return { kind: 'erased', statement };
    if (ts.isExportAssignment(statement) || hasModifier(ts, statement, ts.SyntaxKind.DefaultKeyword)) throw new NotErasable('export default');
    if (ts.isVariableStatement(statement)) return this.variablesPiece(statement);
    if (ts.isFunctionDeclaration(statement) && statement.body) {
      if (!statement.name) throw new NotErasable('an anonymous function declaration');
      this.declared.add(statement.name.text);
      const keyword = statement.modifiers?.find((m) => m.kind === ts.SyntaxKind.AsyncKeyword);
      return { kind: 'hoisted', statement, from: keyword ? keyword.getStart(this.file) : functionKeyword(this.file.text, statement, this.file) };
    }
    if (ts.isClassDeclaration(statement)) {
      if (!statement.name) throw new NotErasable('an anonymous class declaration');
      const name = statement.name.text;
      this.declared.add(name);
      const from = statement.modifiers?.length ? classKeyword(this.file.text, statement.modifiers.end) : statement.getStart(this.file);
      return {
        kind: 'generated', statement, emit: (out) => {
          out.insert(`${name} = `, from);
          out.copy(from, statement.end);
          out.insert(';', statement.end);
        },
      };
    }
    return { kind: 'copy', statement };
  }

  /** `import d, { a, b as c } from 'm'` -> `({ default: d, a, b: c } = (yield __tpu_import('m')));`, as top-level-rewrite.ts's rewriteImport. */
  private importPiece(statement: ts.ImportDeclaration): Piece {
    const ts = this.ts;
    if (statement.attributes) throw new NotErasable('import attributes');
    const text = this.file.text;
    const specifier = text.slice(statement.moduleSpecifier.getStart(this.file), statement.moduleSpecifier.end);
    const load = this.steppable ? `(yield ${IMPORT_FUNCTION}(${specifier}))` : `await ${IMPORT_FUNCTION}(${specifier})`;
    const clause = statement.importClause;
    const properties: string[] = [];
    const lines: string[] = [];
    if (!clause) lines.push(`;${load};`);
    else {
      if (clause.name) {
        this.declared.add(clause.name.text);
        properties.push(`default: ${clause.name.text}`);
      }
      const bindings = clause.namedBindings;
      if (bindings && ts.isNamespaceImport(bindings)) {
        this.declared.add(bindings.name.text);
        lines.push(`${bindings.name.text} = ${load};`);
        if (properties.length) lines.push(`;({ ${properties.join(', ')} } = ${bindings.name.text});`);
      } else {
        for (const element of bindings?.elements ?? []) {
          if (element.isTypeOnly) continue;
          this.declared.add(element.name.text);
          const imported = element.propertyName ? text.slice(element.propertyName.getStart(this.file), element.propertyName.end) : undefined;
          properties.push(imported ? `${imported}: ${element.name.text}` : element.name.text);
        }
        lines.push(`;({ ${properties.join(', ')} } = ${load});`);
      }
    }
    return {
      kind: 'generated', statement, emit: (out) => {
        const start = statement.getStart(this.file);
        out.insert(lines.join(' '), start);
        out.skip(start, statement.end);
      },
    };
  }

  /** `const { a } = o, b = 1;` -> `;({ a } = o); b = 1;`, as top-level-rewrite.ts's rewriteVariables. */
  private variablesPiece(statement: ts.VariableStatement): Piece {
    const ts = this.ts;
    const isVar = (statement.declarationList.flags & ts.NodeFlags.BlockScoped) === 0;
    for (const declaration of statement.declarationList.declarations) this.collectNames(declaration.name);
    const kept = statement.declarationList.declarations.filter((declaration) => declaration.initializer || !isVar);
    return {
      kind: kept.length ? 'generated' : 'erased', statement, emit: (out) => {
        let position = statement.getStart(this.file);
        for (const declaration of kept) {
          const start = declaration.name.getStart(this.file);
          out.skip(position, start);
          const pattern = !ts.isIdentifier(declaration.name);
          if (pattern) out.insert(';(', start);
          out.copy(start, declaration.end);
          if (!declaration.initializer) out.insert(' = void 0', declaration.end);
          out.insert(pattern ? ');' : ';', declaration.end);
          position = declaration.end;
        }
        out.skip(position, statement.end);
      },
    };
  }

  private collectNames(name: ts.BindingName): void {
    if (this.ts.isIdentifier(name)) this.declared.add(name.text);
    else for (const element of name.elements) if (!this.ts.isOmittedExpression(element)) this.collectNames(element.name);
  }
}

/** Where `function` starts in a declaration after its modifiers (`export`). */
function functionKeyword(text: string, statement: ts.FunctionDeclaration, file: ts.SourceFile): number {
  const from = statement.modifiers?.length ? statement.modifiers.end : statement.getStart(file);
  const at = text.indexOf('function', from);
  if (at < 0 || text.slice(from, at).trim() !== '') throw new NotErasable('a function declaration without its keyword in place');
  return at;
}

/** Where `class` starts after a class's modifiers (`export`, `abstract`). */
function classKeyword(text: string, modifiersEnd: number): number {
  const at = text.indexOf('class', modifiersEnd);
  if (at < 0 || text.slice(modifiersEnd, at).trim() !== '') throw new NotErasable('a class declaration without its keyword in place');
  return at;
}
