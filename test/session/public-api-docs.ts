// The public API as a cell sees it: the members of `tpu` (walked at run time, with its
// namespaces nn, nn.functional, optim, profiler) and the public methods of Tensor, each with
// the doc comment and the @example texts of its declaration in the built declarations
// (dist/runtime, what the language service of a cell reads).
import ts from 'typescript';
import { Tensor, tpu } from '../../runtime/index.js';
import { BUILT_RUNTIME, probeProgram } from '../support/built-declarations.js';

export interface ApiMember {
  /** Dotted name: `tpu.nn.functional.gelu`, `Tensor.add`. */
  name: string;
  isFunction: boolean;
  /** False when the declarations have no such member. */
  declared: boolean;
  doc: string;
  examples: string[];
}

function declarationsChecker() {
  const source = `import { tpu, Tensor } from ${JSON.stringify(BUILT_RUNTIME)};\nexport const t = tpu;\nexport declare const x: Tensor;\n`;
  const { checker, file } = probeProgram(source);
  const [, tpuDecl, tensorDecl] = file.statements as unknown as ts.VariableStatement[];
  const typeOf = (s: ts.VariableStatement) => checker.getTypeAtLocation(s.declarationList.declarations[0]!.name);
  return { checker, tpuType: typeOf(tpuDecl!), tensorType: typeOf(tensorDecl!) };
}

const tagText = (tag: ts.JSDocTagInfo) => ts.displayPartsToString(tag.text).trim();

/** The doc and examples of a symbol: its own tags and those of its call and construct signatures (overloads). */
function docsOf(checker: ts.TypeChecker, symbol: ts.Symbol): Pick<ApiMember, 'doc' | 'examples'> {
  const type = checker.getTypeOfSymbol(symbol);
  const tags = [
    ...symbol.getJsDocTags(checker),
    ...[...type.getCallSignatures(), ...type.getConstructSignatures()].flatMap((s) => s.getJsDocTags()),
  ];
  const examples = [...new Set(tags.filter((t) => t.name === 'example').map(tagText))];
  return { doc: ts.displayPartsToString(symbol.getDocumentationComment(checker)).trim(), examples };
}

const isNamespace = (value: unknown): value is object =>
  value !== null && typeof value === 'object' && !ArrayBuffer.isView(value) && !(value instanceof SharedArrayBuffer);

export function publicApi(): ApiMember[] {
  const { checker, tpuType, tensorType } = declarationsChecker();
  const members: ApiMember[] = [];
  const walk = (value: object, type: ts.Type, prefix: string) => {
    for (const name of Object.keys(value)) {
      const member = (value as Record<string, unknown>)[name];
      const dotted = `${prefix}.${name}`;
      let symbol = type.getProperty(name);
      if (symbol && symbol.flags & ts.SymbolFlags.Alias) symbol = checker.getAliasedSymbol(symbol); // export { X } from
      members.push({ name: dotted, isFunction: typeof member === 'function', declared: Boolean(symbol), ...(symbol ? docsOf(checker, symbol) : { doc: '', examples: [] }) });
      if (symbol && isNamespace(member)) walk(member, checker.getTypeOfSymbol(symbol), dotted);
    }
  };
  walk(tpu, tpuType, 'tpu');

  const methods = new Set<string>();
  for (let proto = Tensor.prototype; proto !== Object.prototype; proto = Object.getPrototypeOf(proto)) {
    for (const name of Object.getOwnPropertyNames(proto)) {
      const descriptor = Object.getOwnPropertyDescriptor(proto, name)!;
      if (name !== 'constructor' && !name.startsWith('_') && typeof descriptor.value === 'function') methods.add(name);
    }
  }
  for (const name of [...methods].sort()) {
    const symbol = tensorType.getProperty(name);
    const isPrivate = symbol?.declarations?.some((d) => ts.getCombinedModifierFlags(d) & (ts.ModifierFlags.Private | ts.ModifierFlags.Protected));
    if (isPrivate) continue;
    members.push({ name: `Tensor.${name}`, isFunction: true, declared: Boolean(symbol), ...(symbol ? docsOf(checker, symbol) : { doc: '', examples: [] }) });
  }
  return members;
}
