// Shift+Tab shows a doc comment and an example for the public API: the members of `tpu`
// (walked at run time) checked against the built declarations a cell sees (dist/runtime).
import path from 'node:path';
import ts from 'typescript';
import { afterAll, describe, expect, it } from 'vitest';
import { tpu } from '../../runtime/index.js';
import { SessionDriver } from './recording-publisher.js';

const driver = new SessionDriver();
afterAll(() => driver.shutdown());

describe('inspect: doc comments and examples', () => {
  it.each([
    ['tpu.randn(', 'Standard normal', 'tpu.randn([2, 3])'],
    ['tpu.compile(', 'torch.compile', 'tpu.compile('],
    ['const x = tpu.ones([2]); x.sum(', 'Sum of elements', 'x.sum('],
    ['tpu.nn.Linear', 'torch.nn.Linear', 'new tpu.nn.Linear('],
    ['tpu.optim.AdamW', 'torch.optim.AdamW', 'new tpu.optim.AdamW('],
  ])('%s shows its doc and an example', async (code, doc, example) => {
    await driver.run('1');
    const text = await driver.inspectText(code);
    expect(text).toContain(doc);
    expect(text).toMatch(new RegExp(`@example [^]*${example.replace(/[.()[\]]/g, '\\$&')}`));
  });
});

/** Every own member of `value` (and of its namespaces: nn, nn.functional, optim, profiler), dotted. */
function members(value: object, prefix: string): string[] {
  return Object.keys(value).flatMap((name) => {
    const member = (value as Record<string, unknown>)[name];
    const dotted = `${prefix}.${name}`;
    const nested = member !== null && typeof member === 'object' && !ArrayBuffer.isView(member) && !(member instanceof SharedArrayBuffer);
    return nested ? [dotted, ...members(member, dotted)] : [dotted];
  });
}

describe('doc coverage of the tpu namespace', () => {
  it('every member of tpu has a doc comment in the emitted declarations', () => {
    const runtime = path.resolve('dist/runtime/index.d.ts');
    const probe = path.resolve('dist/runtime/doc-coverage-probe.ts');
    const source = `import { tpu } from ${JSON.stringify(runtime.replace(/\.d\.ts$/, '.js'))};\nexport const t = tpu;\n`;
    const host = ts.createCompilerHost({ strict: true, module: ts.ModuleKind.NodeNext, moduleResolution: ts.ModuleResolutionKind.NodeNext });
    const readFile = host.readFile.bind(host);
    host.readFile = (f) => (path.resolve(f) === probe ? source : readFile(f));
    const fileExists = host.fileExists.bind(host);
    host.fileExists = (f) => path.resolve(f) === probe || fileExists(f);
    const program = ts.createProgram([probe], { strict: true, module: ts.ModuleKind.NodeNext, moduleResolution: ts.ModuleResolutionKind.NodeNext, noEmit: true }, host);
    const checker = program.getTypeChecker();
    const decl = program.getSourceFile(probe)!.statements[1] as ts.VariableStatement;
    const tpuType = checker.getTypeAtLocation(decl.declarationList.declarations[0].name);

    const undocumented = members(tpu, 'tpu').filter((dotted) => {
      let type = tpuType;
      let symbol: ts.Symbol | undefined;
      for (const name of dotted.split('.').slice(1)) {
        symbol = type.getProperty(name);
        if (!symbol) return true;
        if (symbol.flags & ts.SymbolFlags.Alias) symbol = checker.getAliasedSymbol(symbol); // export { X } from
        type = checker.getTypeOfSymbol(symbol);
      }
      return ts.displayPartsToString(symbol!.getDocumentationComment(checker)).trim() === '';
    });
    expect(undocumented).toEqual([]);
  });
});
