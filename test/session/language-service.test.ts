// Completion, inspection and type diagnostics from the TypeScript language
// service, over the earlier cells and the cell globals.
import { mkdirSync, writeFileSync } from 'node:fs';
import { createRequire } from 'node:module';
import path from 'node:path';
import { afterAll, beforeAll, describe, expect, it, vi } from 'vitest';
import { SessionDriver } from './recording-publisher.js';

const require = createRequire(import.meta.url);
const driver = new SessionDriver();
afterAll(() => driver.shutdown());

beforeAll(async () => {
  await driver.value([
    '/** Scales a vector.',
    ' * @param factor how much */',
    'function scaleBy(values: number[], factor: number): number[] { return values.map((v) => v * factor); }',
    'const settings = { learningRate: 0.1, layers: 3, label: "mlp" };',
    'import { basename } from "node:path";',
  ].join('\n'));
  await driver.value('const settings = { learningRate: 0.5, momentum: 0.9 };'); // redefined: the later type wins
});

describe('completion', () => {
  it('completes members of values declared in earlier cells', async () => {
    const code = 'settings.';
    const result = await driver.session.complete(code, code.length);
    expect(result.matches).toEqual(['learningRate', 'momentum']);
    expect([result.cursorStart, result.cursorEnd]).toEqual([9, 9]);
  });

  it('completes a prefix and replaces only the typed word', async () => {
    const code = 'const v = scale';
    const result = await driver.session.complete(code, code.length);
    expect(result.matches[0]).toBe('scaleBy');
    expect([result.cursorStart, result.cursorEnd]).toEqual([10, 15]);
  });

  it('completes at a cursor in the middle of a multi-line cell, counting code points', async () => {
    const code = 'const emoji = "😀😀";\nsettings.mom\nconst after = 1;';
    const cursor = [...'const emoji = "😀😀";\nsettings.mom'].length;
    const result = await driver.session.complete(code, cursor);
    expect(result.matches).toEqual(['momentum']);
    expect([result.cursorStart, result.cursorEnd]).toEqual([cursor - 3, cursor]);
  });

  it('completes the cell globals and imported names', async () => {
    expect((await driver.session.complete('display.ma', 10)).matches).toEqual(['markdown']);
    expect((await driver.session.complete('basen', 5)).matches).toEqual(['basename']);
    expect((await driver.session.complete('clearOut', 8)).matches).toEqual(['clearOutput']);
  });

  it('completes magic names after %', async () => {
    expect(await driver.session.complete('x;\n%ti', 6)).toEqual({ matches: ['%time', '%timeit'], cursorStart: 3, cursorEnd: 6 });
  });

  it('completes code in the args of %time', async () => {
    const code = '%time settings.learn';
    expect((await driver.session.complete(code, code.length)).matches).toEqual(['learningRate']);
  });
});

describe('inspect', () => {
  it('shows the signature and doc comment of a function from an earlier cell', async () => {
    const result = await driver.session.inspect('scaleBy([1], 2)', 3, 0);
    expect(result.found).toBe(true);
    expect(result.data['text/plain']).toBe('function scaleBy(values: number[], factor: number): number[]\n\nScales a vector.\n\n@param factor how much');
  });

  it('inspects at the end of a name and reports nothing on blank space', async () => {
    expect((await driver.session.inspect('settings', 8, 0)).data['text/plain']).toBe('const settings: {\n    learningRate: number;\n    momentum: number;\n}');
    expect(await driver.session.inspect('   ', 1, 0)).toEqual({ found: false, data: {} });
  });

  it('types the lib of the target (es2023) and names the lib file a global is defined in', async () => {
    await driver.session.complete('Ma', 2); // the service is built: the cell is checked
    // Array.prototype.findLast is in lib.es2023.array.d.ts: number | undefined, not a string.
    const { publisher } = await driver.run('const lastBig: string = [1, 5, 2].findLast((x) => x > 1);');
    expect(publisher.text('stderr')).toBe(`cell-${driver.count}.ts:1:7 - warning TS2322: Type 'number | undefined' is not assignable to type 'string'.\n  Type 'undefined' is not assignable to type 'string'.\n`);
    const libDir = path.dirname(require.resolve('typescript/lib/lib.es5.d.ts'));
    const max = await driver.session.inspect('Math.max(1, 2)', 6, 1);
    expect(max.data['text/plain']).toContain(`Defined in ${path.join(libDir, 'lib.es5.d.ts')}`);
  });

  it('shows the help of a magic', async () => {
    const result = await driver.session.inspect('%typecheck warn', 3, 0);
    expect(result.data['text/plain']).toMatch(/^%typecheck \[off\|warn\|error\]\n/);
  });
});

describe('help cells (name?)', () => {
  it('answers `name?` with a page payload holding the inspect text, and runs nothing', async () => {
    const { outcome, publisher } = await driver.run('scaleBy?');
    expect(outcome).toMatchObject({ status: 'ok', payload: [{ source: 'page', start: 0 }] });
    const page = outcome.status === 'ok' ? (outcome.payload![0].data as Record<string, string>) : {};
    expect(page['text/plain']).toMatch(/^function scaleBy\(values: number\[\], factor: number\): number\[\]\n\nScales a vector\./);
    expect(publisher.outputs).toEqual([]);
    const magic = await driver.run('%timeit?');
    expect(magic.outcome.status === 'ok' && (magic.outcome.payload![0].data as Record<string, string>)['text/plain']).toMatch(/^%timeit \[-n LOOPS\]/);
    const unknown = await driver.run('noSuchName?');
    expect(unknown.outcome).toMatchObject({ status: 'ok', payload: [{ source: 'page', data: { 'text/plain': 'No information about noSuchName' } }] });
  });
});

describe('type diagnostics', () => {
  it('warns on stderr with the line and column, and still runs the cell (warn)', async () => {
    const { outcome, publisher } = await driver.run('const total: number = 1;\nconst name: string = scaleBy([1], 2);\ntotal');
    expect(outcome).toEqual({ status: 'ok', result: { data: { 'text/plain': '1' } } });
    expect(publisher.text('stderr')).toBe(`cell-${driver.count}.ts:2:7 - warning TS2322: Type 'number[]' is not assignable to type 'string'.\n`);
  });

  it('checks against the latest definition of a name and allows redeclaring earlier names', async () => {
    const { publisher } = await driver.run('const a1: number = settings.momentum;');
    expect(publisher.text('stderr')).toBe('');
    const redeclared = await driver.run('const settings = "now text";\nconst a2: string = settings.toUpperCase();');
    expect(redeclared.publisher.text('stderr')).toBe('');
    const later = await driver.run('const a3: number = settings;');
    expect(later.publisher.text('stderr')).toBe(`cell-${driver.count}.ts:1:7 - warning TS2322: Type 'string' is not assignable to type 'number'.\n`);
  });

  it('sees declarations of early cells after a long history (several history files), and their redefinitions', async () => {
    await driver.run('type EarlyShape = { sides: number };\nconst early: EarlyShape = { sides: 4 };\nconst redefined = 1;');
    // ~40 KB of declarations in later cells: the history spans more than one file.
    const filler = (i: number) => `/** Filler ${i}. ${'x'.repeat(1000)} */\nconst filler${i}: { index: number } = { index: ${i} };`;
    for (let i = 0; i < 40; i++) await driver.run(filler(i));
    await driver.run('const redefined = "text";');
    const { publisher } = await driver.run('const s: string = early.sides;\nconst t: number = redefined;\nconst f: string = filler3.index;\nconst ok: number = filler39.index + early.sides;');
    expect(publisher.text('stderr')).toBe([
      `cell-${driver.count}.ts:1:7 - warning TS2322: Type 'number' is not assignable to type 'string'.`,
      `cell-${driver.count}.ts:2:7 - warning TS2322: Type 'string' is not assignable to type 'number'.`,
      `cell-${driver.count}.ts:3:7 - warning TS2322: Type 'number' is not assignable to type 'string'.`,
      '',
    ].join('\n'));
    expect((await driver.session.complete('early.si', 8)).matches).toEqual(['sides']);
  });

  it('finds a package installed while the session runs (disk lookups are redone for a cell that imports)', async () => {
    const missing = await driver.run("import { lateValue } from 'late-package';");
    expect(missing.publisher.text('stderr')).toContain("Cannot find module 'late-package'");
    const dir = path.join(driver.cwd, 'node_modules', 'late-package');
    mkdirSync(dir, { recursive: true });
    writeFileSync(path.join(dir, 'package.json'), JSON.stringify({ name: 'late-package', type: 'module', main: 'index.js', types: 'index.d.ts' }));
    writeFileSync(path.join(dir, 'index.js'), 'export const lateValue = 7;\n');
    writeFileSync(path.join(dir, 'index.d.ts'), 'export declare const lateValue: number;\n');
    const found = await driver.run("import { lateValue } from 'late-package';\nconst late: string = lateValue;\nlateValue");
    expect(found.publisher.text('stderr')).toBe(`cell-${driver.count}.ts:2:7 - warning TS2322: Type 'number' is not assignable to type 'string'.\n`);
    expect(found.outcome).toEqual({ status: 'ok', result: { data: { 'text/plain': '7' } } });
  });

  it('checks against the types of an imported local TypeScript file', async () => {
    writeFileSync(path.join(driver.cwd, 'shapes.ts'), 'export interface Square { side: number }\nexport const area = (s: Square): number => s.side ** 2;\n');
    const ok = await driver.run("import { area, type Square } from './shapes.ts';\nconst sq: Square = { side: 3 };\narea(sq)");
    expect(ok.publisher.text('stderr')).toBe('');
    expect(ok.outcome).toEqual({ status: 'ok', result: { data: { 'text/plain': '9' } } });
    const wrong = await driver.run("const bad: string = area({ side: 2 });");
    expect(wrong.publisher.text('stderr')).toBe(`cell-${driver.count}.ts:1:7 - warning TS2322: Type 'number' is not assignable to type 'string'.\n`);
  });

  it('fails the cell without running it in error mode, and stays quiet in off mode', async () => {
    await driver.run('%typecheck error');
    await driver.value('let ran = false;');
    const { outcome } = await driver.run('ran = true;\nconst wrong: boolean = "no";');
    expect(outcome).toMatchObject({ status: 'error', ename: 'TypeScriptError', evalue: `Type 'string' is not assignable to type 'boolean'. (cell-${driver.count}.ts:2:7)` });
    expect(await driver.value('ran')).toBe('false');
    await driver.run('%typecheck off');
    const off = await driver.run('const wrong: boolean = "no" as any as number as any;\nconst w2: string = 1 as any as number;');
    expect(off.publisher.text('stderr')).toBe('');
    await driver.run('%typecheck warn');
  });

  it('keeps the first cell off the service (warn mode) and warms it up in the background when idle', async () => {
    const fresh = new SessionDriver();
    try {
      const first = await fresh.run('const early: string = 1;');
      expect(first.publisher.text('stderr')).toBe(''); // not checked: the service was not built yet
      // The warm-up runs after 500 quiet ms (later on a loaded machine): wait until the service is built.
      const service = (fresh.session as unknown as { languageService: { ready: boolean } }).languageService;
      await vi.waitFor(() => expect(service.ready).toBe(true), { timeout: 30_000, interval: 50 });
      const second = await fresh.run('const late: string = 2;');
      expect(second.publisher.text('stderr')).toBe("cell-2.ts:1:7 - warning TS2322: Type 'number' is not assignable to type 'string'.\n");
    } finally {
      await fresh.shutdown();
    }
  });

  it('with backgroundWarmUp: false, builds the service only for a request that needs it', async () => {
    const fresh = new SessionDriver(undefined, undefined, { backgroundWarmUp: false });
    try {
      await fresh.run('const early: string = 1;');
      const service = (fresh.session as unknown as { languageService: { ready: boolean } }).languageService;
      await new Promise((resolve) => setTimeout(resolve, 1500)); // three quiet spells
      expect(service.ready).toBe(false);
      expect((await fresh.session.complete('ear', 3)).matches).toContain('early');
      expect(service.ready).toBe(true);
    } finally {
      await fresh.shutdown();
    }
  });

  it('honours a tsconfig.json in the notebook folder', async () => {
    const strictDriver = new SessionDriver();
    const looseDriver = new SessionDriver();
    // The loose notebook also picks an older lib: Array.prototype.findLast (ES2023) is not in it.
    writeFileSync(`${looseDriver.cwd}/tsconfig.json`, JSON.stringify({ compilerOptions: { strict: false, lib: ['es2020'] } }));
    try {
      for (const d of [strictDriver, looseDriver]) await d.session.complete('', 0); // build the service
      const implicitAny = 'function f(x) { return x; }';
      expect((await strictDriver.run(implicitAny)).publisher.text('stderr')).toMatch(/warning TS7006: Parameter 'x' implicitly has an 'any' type/);
      expect((await looseDriver.run(implicitAny)).publisher.text('stderr')).toBe('');
      const findLast = 'const last = [1, 2].findLast((x) => x > 1);';
      expect((await strictDriver.run(findLast)).publisher.text('stderr')).toBe('');
      expect((await looseDriver.run(findLast)).publisher.text('stderr')).toMatch(/^cell-2\.ts:1:21 - warning TS2550: Property 'findLast' does not exist on type 'number\[\]'\. Do you need to change your target library\?/);
    } finally {
      await strictDriver.shutdown();
      await looseDriver.shutdown();
    }
  });
});
