// Earlier cells as global script text for the language service, one text per
// cell (the service groups them into files, language-service-host.ts), so types
// flow from cell to cell. Only declarations are kept; a declaration whose names a
// later cell declares again is dropped (the later cell wins, as at run time),
// so redefinitions never clash. Imports become global declarations
// (`declare const a: typeof import('m').a; type a = import('m').a;`) because an
// import statement would make the script a module and hide its names.
// A cell that declares only fresh names (no earlier declaration mentions them) changes the
// type of no earlier declaration: later cells may be checked without a new program (cell-chain.ts).
import type ts from 'typescript';
import { typescript } from '../typescript.js';

/** Identifier-like words (in strings and comments too: a word too many only costs a new program). */
const WORDS = /[\p{ID_Start}$_][\p{ID_Continue}$\u200c\u200d]*/gu;

interface HistoryDeclaration {
  names: string[];
  text: string;
}

export class CellHistory {
  private readonly cells: HistoryDeclaration[][] = [];
  /** What each cell contributes, kept up to date as cells come (not rebuilt: a long notebook has hundreds). */
  private readonly cellTexts: string[] = [];
  /** The last cell that declares each name. */
  private readonly lastDeclarer = new Map<string, number>();
  private changed = new Set<number>();
  /** Every word of the declarations kept so far: a later declaration of one may change their types. */
  private readonly mentioned = new Set<string>();

  /**
   * Adds an executed cell; true when it declares only names no earlier declaration mentions.
   * `parsed`: the cell's syntax tree, when one was made (text after the cell is ignored).
   */
  add(source: string, parsed?: ts.SourceFile): boolean {
    const ts = typescript();
    // A statement that runs on into the text after the cell (the cell ends mid-statement) needs the cell alone.
    const reusable = parsed?.statements.every((s) => s.end <= source.length || s.pos >= source.length);
    const file = reusable ? parsed! : ts.createSourceFile('cell.ts', source, ts.ScriptTarget.ES2022, true);
    const declarations = file.statements.filter((s) => s.end <= source.length).flatMap((statement) => declarationsOf(statement, file));
    const index = this.cells.length;
    this.cells.push(declarations);
    // Only the cells that last declared one of the new cell's names may lose a declaration.
    const redeclared = new Set<number>();
    const fresh = declarations.every((d) => d.names.every((name) => !this.mentioned.has(name)));
    for (const d of declarations) for (const word of d.text.match(WORDS) ?? []) this.mentioned.add(word);
    for (const d of declarations) {
      for (const name of d.names) {
        const before = this.lastDeclarer.get(name);
        if (before !== undefined && before !== index) redeclared.add(before);
        this.lastDeclarer.set(name, index);
      }
    }
    this.cellTexts.push(this.textOf(index));
    this.changed.add(index);
    for (const i of redeclared) {
      const text = this.textOf(i);
      if (text !== this.cellTexts[i]) (this.cellTexts[i] = text), this.changed.add(i);
    }
    return fresh;
  }

  /** The declarations each earlier cell still contributes, one text per cell in order. */
  get texts(): readonly string[] {
    return this.cellTexts;
  }

  /** Which cells' texts changed (or came) since the last call. */
  takeChanged(): number[] {
    const changed = [...this.changed];
    this.changed.clear();
    return changed;
  }

  /** Cell i's declarations that no later cell declares again (the later cell wins, as at run time). */
  private textOf(i: number): string {
    return this.cells[i]!.filter((d) => d.names.some((n) => this.lastDeclarer.get(n) === i)).map((d) => d.text).join('\n');
  }
}

function declarationsOf(statement: ts.Statement, file: ts.SourceFile): HistoryDeclaration[] {
  const ts = typescript();
  // Keep the doc comment: inspect shows it for names of earlier cells.
  const docStart = statement.getStart(file, true);
  const text = file.text.slice(docStart, statement.getStart(file)) + withoutExport(statement.getText(file));
  if (ts.isVariableStatement(statement)) {
    return [{ names: statement.declarationList.declarations.flatMap((d) => bindingNames(d.name)), text }];
  }
  if (ts.isFunctionDeclaration(statement) || ts.isClassDeclaration(statement) || ts.isInterfaceDeclaration(statement)
    || ts.isTypeAliasDeclaration(statement) || ts.isEnumDeclaration(statement) || ts.isModuleDeclaration(statement)) {
    return statement.name && ts.isIdentifier(statement.name) ? [{ names: [statement.name.text], text }] : [];
  }
  if (ts.isImportDeclaration(statement) && ts.isStringLiteral(statement.moduleSpecifier)) return importDeclarations(statement, file);
  return [];
}

function importDeclarations(statement: ts.ImportDeclaration, file: ts.SourceFile): HistoryDeclaration[] {
  const ts = typescript();
  const module = JSON.stringify((statement.moduleSpecifier as ts.StringLiteral).text);
  const clause = statement.importClause;
  if (!clause) return [];
  const binding = (local: string, exported: string, typeOnly: boolean): HistoryDeclaration => ({
    names: [local],
    text: (typeOnly ? '' : `declare const ${local}: typeof import(${module}).${exported}; `) + `type ${local} = import(${module}).${exported};`,
  });
  const result: HistoryDeclaration[] = [];
  if (clause.name) result.push(binding(clause.name.text, 'default', clause.isTypeOnly));
  const named = clause.namedBindings;
  if (named && ts.isNamespaceImport(named)) {
    result.push({ names: [named.name.text], text: `declare const ${named.name.text}: typeof import(${module});` });
  } else if (named) {
    for (const element of named.elements) {
      result.push(binding(element.name.text, (element.propertyName ?? element.name).getText(file), clause.isTypeOnly || element.isTypeOnly));
    }
  }
  return result;
}

function bindingNames(name: ts.BindingName): string[] {
  const ts = typescript();
  if (ts.isIdentifier(name)) return [name.text];
  return name.elements.flatMap((e) => (ts.isOmittedExpression(e) ? [] : bindingNames(e.name)));
}

function withoutExport(text: string): string {
  return text.replace(/^export\s+(default\s+)?/, '');
}
