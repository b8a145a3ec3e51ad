// Shift+Tab on a function shows the option objects it takes spelled out: every
// property with its type and doc comment (`opts?: CreationOptions` alone says little).
// Also: types from the runtime print as `import("<path>").Tensor`, a path relative to
// the notebook's folder; inspect text drops that qualifier.
import type ts from 'typescript';

const MAX_PROPERTIES = 24;

/** `import("../../x/dist/runtime").Tensor` -> `Tensor`. */
export function withoutImportPaths(text: string): string {
  return text.replace(/import\("[^"]*"\)\./g, '');
}

function nodeAt(file: ts.SourceFile, offset: number, tsApi: typeof ts): ts.Node | undefined {
  let found: ts.Node | undefined;
  const visit = (node: ts.Node): void => {
    if (offset < node.getStart(file) || offset > node.getEnd()) return;
    found = node;
    tsApi.forEachChild(node, visit);
  };
  visit(file);
  return found;
}

/** Option objects: named `...Options`, or written as a type literal, with a few properties. */
function isOptionObject(type: ts.Type, checker: ts.TypeChecker, tsApi: typeof ts): boolean {
  if (!(type.flags & (tsApi.TypeFlags.Object | tsApi.TypeFlags.Intersection))) return false;
  if (checker.isArrayType(type) || type.getCallSignatures().length > 0) return false;
  const name = type.aliasSymbol?.name ?? type.getSymbol()?.name ?? '';
  const properties = type.getProperties().length;
  const optionLike = name.endsWith('Options') || name === '__type' || Boolean(type.flags & tsApi.TypeFlags.Intersection);
  return optionLike && properties > 0 && properties <= MAX_PROPERTIES;
}

/** One block per option-object parameter of the function at `offset`: `opts: { dtype?: ... }` with each property's doc. */
export function optionDetails(program: ts.Program, fileName: string, offset: number, tsApi: typeof ts): string[] {
  const file = program.getSourceFile(fileName);
  const node = file && nodeAt(file, offset, tsApi);
  if (!node) return [];
  const checker = program.getTypeChecker();
  const blocks: string[] = [];
  const seen = new Set<string>();
  for (const signature of checker.getTypeAtLocation(node).getCallSignatures()) {
    for (const parameter of signature.getParameters()) {
      const type = checker.getNonNullableType(checker.getTypeOfSymbol(parameter));
      if (!isOptionObject(type, checker, tsApi)) continue;
      const lines = type.getProperties().map((property) => {
        const optional = property.flags & tsApi.SymbolFlags.Optional ? '?' : '';
        const propertyType = checker.getNonNullableType(checker.getTypeOfSymbol(property));
        const typeText = checker.typeToString(propertyType, node, tsApi.TypeFormatFlags.InTypeAlias | tsApi.TypeFormatFlags.NoTruncation);
        const doc = tsApi.displayPartsToString(property.getDocumentationComment(checker)).split('\n')[0];
        return `  ${property.name}${optional}: ${withoutImportPaths(typeText)}${doc ? `  // ${doc}` : ''}`;
      });
      const block = `${parameter.name}: {\n${lines.join('\n')}\n}`;
      if (!seen.has(block)) blocks.push(block), seen.add(block);
    }
  }
  return blocks;
}
