// TypeScript cells in one persistent context: declarations persist and may be
// redefined, top-level await, imports, last-expression results.
import { mkdirSync, writeFileSync } from 'node:fs';
import path from 'node:path';
import { afterAll, describe, expect, it } from 'vitest';
import { SessionDriver } from './recording-publisher.js';

const driver = new SessionDriver();
afterAll(() => driver.shutdown());

describe('TypeScript cells', () => {
  it('keeps const, let, function, class, enum and type declarations across cells', async () => {
    await driver.value([
      'const a: number = 2;',
      'let b = a * 10;',
      'function square(x: number): number { return x * x; }',
      'class Point { constructor(public x: number, public y: number) {} norm2() { return square(this.x) + square(this.y); } }',
      'enum Color { Red, Green = 5 }',
      'interface Named { name: string }',
      'type Pair = [number, number];',
    ].join('\n'));
    expect(await driver.value('const n: Named = { name: "n" }; const p: Pair = [a, b]; `${n.name} ${p[1]} ${new Point(3, 4).norm2()} ${Color.Green}`'))
      .toBe("'n 20 25 5'");
  });

  it('re-runs a cell and redefines names without "already declared"', async () => {
    const cell = 'const twice = (x: number) => 2 * x;\nclass Box { v = 1 }\nenum E { A }\nlet counter = 0;\ntwice(21)';
    expect(await driver.value(cell)).toBe('42');
    expect(await driver.value(cell)).toBe('42');
    expect(await driver.value('const twice = "now a string"; twice')).toBe("'now a string'");
    expect(await driver.value('enum E { B = 7 }\nE.B')).toBe('7');
  });

  it('shares mutable state with functions of earlier cells', async () => {
    await driver.value('let total = 0;\nfunction addToTotal(x: number) { total += x; return total; }');
    await driver.value('addToTotal(5); addToTotal(6)');
    expect(await driver.value('total')).toBe('11');
  });

  it('supports top-level await and destructuring declarations', async () => {
    expect(await driver.value('const { q, r: [s, t = 9], ...rest } = await Promise.resolve({ q: 1, r: [2], u: 3 });\nq + s + t + rest.u')).toBe('15');
    expect(await driver.value('const [first, , third] = [1, 2, 3]; first + third')).toBe('4');
  });

  it('reads `await (x)` at the top level as an await, not a call of a function named await', async () => {
    await driver.value('const response = Promise.resolve({ json: async () => ({ a: 41 }) });\nconst shout = async (s: string) => s.toUpperCase();');
    expect(await driver.value('(await (await response).json()).a + 1')).toBe('42');
    expect(await driver.value("await (shout)('x')")).toBe("'X'");
    expect(await driver.value('const awaited = await (Promise.resolve(7)); awaited * 2')).toBe('14');
  });

  it('runs cells with a top-level for await, and awaits inside nested functions', async () => {
    expect(await driver.value([
      'async function* numbers() { yield 1; await null; yield 2; }',
      'let sum = 0;',
      'for await (const n of numbers()) sum += n;',
      'const later = async () => { await null; return sum * 10; };',
      'await later()',
    ].join('\n'))).toBe('30');
  });

  it('calls functions declared later in the same cell (hoisting)', async () => {
    expect(await driver.value('hoisted(4)\nfunction hoisted(x: number) { return x + 1 }')).toBe('5');
  });

  it('shows no result for declarations or statements, and inspects values as text', async () => {
    expect(await driver.value('const quiet = 1;')).toBeUndefined();
    expect(await driver.value('undefined')).toBeUndefined();
    expect(await driver.value('({ k: [1, 2], s: "x" })')).toBe("{ k: [ 1, 2 ], s: 'x' }");
    expect(await driver.value('"text"')).toBe("'text'");
  });

  it('leaves earlier definitions intact when a cell throws part-way', async () => {
    await driver.value('const keep = 123;');
    const { outcome } = await driver.run('const before = 1;\nthrow new RangeError("stop");\nconst keep = 0;');
    expect(outcome.status).toBe('error');
    expect(await driver.value('keep + before')).toBe('124');
  });

  it('imports node: built-ins statically and dynamically', async () => {
    expect(await driver.value('import { join } from "node:path";\nimport * as os from "node:os";\njoin("a", "b")')).toBe("'a/b'");
    expect(await driver.value('typeof os.cpus')).toBe("'function'");
    expect(await driver.value('const { posix } = await import("node:path"); posix.basename("/x/y.ts")')).toBe("'y.ts'");
  });

  it('imports ESM and CommonJS packages from the notebook folder', async () => {
    const modules = path.join(driver.cwd, 'node_modules');
    mkdirSync(path.join(modules, 'esm-only'), { recursive: true });
    writeFileSync(path.join(modules, 'esm-only', 'package.json'), JSON.stringify({
      name: 'esm-only', type: 'module', exports: { '.': { import: './main.js' }, './extra': './extra.js' },
    }));
    writeFileSync(path.join(modules, 'esm-only', 'main.js'), 'export const triple = (x) => 3 * x;\nexport default "esm default";\n');
    writeFileSync(path.join(modules, 'esm-only', 'extra.js'), 'export const extra = 7;\n');
    mkdirSync(path.join(modules, 'old-cjs'), { recursive: true });
    writeFileSync(path.join(modules, 'old-cjs', 'package.json'), JSON.stringify({ name: 'old-cjs', main: 'lib.js' }));
    writeFileSync(path.join(modules, 'old-cjs', 'lib.js'), 'exports.half = (x) => x / 2;\n');
    writeFileSync(path.join(driver.cwd, 'local.mjs'), 'export const local = "here";\n');

    expect(await driver.value('import esmDefault, { triple } from "esm-only";\nimport { extra } from "esm-only/extra";\n`${esmDefault} ${triple(extra)}`'))
      .toBe("'esm default 21'");
    expect(await driver.value('import cjs, { half } from "old-cjs";\n[half(9), cjs.half(1)]')).toBe('[ 4.5, 0.5 ]');
    expect(await driver.value('(await import("old-cjs")).half(3) + (await import("./local.mjs")).local')).toBe("'1.5here'");
    const missing = await driver.run('import { nope } from "not-installed-anywhere";');
    expect(missing.outcome.status).toBe('error');
    if (missing.outcome.status === 'error') expect(missing.outcome.evalue).toContain("Cannot find package 'not-installed-anywhere'");
  });

  it('imports local TypeScript files, with their own imports, and names their lines in stack frames', async () => {
    mkdirSync(path.join(driver.cwd, 'lib'), { recursive: true });
    writeFileSync(path.join(driver.cwd, 'lib', 'scale.ts'), 'type Factor = number;\nexport const factor: Factor = 2;\n');
    writeFileSync(path.join(driver.cwd, 'geometry.ts'), [
      "import { factor } from './lib/scale.js';", // TypeScript's convention: scale.js means scale.ts
      'export interface Point { x: number; y: number }',
      'export enum Axis { X = 1, Y = 2 }',
      'export function scaledNorm(p: Point): number {',
      '  return Math.hypot(p.x, p.y) * factor;',
      '}',
      'export function fail(reason: string): never {',
      '  throw new RangeError(reason);',
      '}',
    ].join('\n'));
    expect(await driver.value("import { scaledNorm, Axis } from './geometry.ts';\nconst p: import('./geometry.ts').Point = { x: 3, y: 4 };\n[scaledNorm(p), Axis.Y]")).toBe('[ 10, 2 ]');
    expect(await driver.value("(await import('./geometry')).scaledNorm({ x: 6, y: 8 })")).toBe('20');
    const failed = await driver.run("import { fail } from './geometry.ts';\nfail('too far');");
    expect(failed.outcome.status).toBe('error');
    if (failed.outcome.status === 'error') {
      expect(failed.outcome.evalue).toBe('too far');
      expect(failed.outcome.traceback.join('\n')).toMatch(/geometry\.ts:8:9/);
    }
  });

  it('evaluates user_expressions', async () => {
    await driver.value('const ux = 6;');
    const results = await driver.session.evaluateExpressions({ good: 'ux * 7', bad: 'missingName + 1' });
    expect(results.good).toEqual({ status: 'ok', data: { 'text/plain': '42' }, metadata: {} });
    expect(results.bad.status).toBe('error');
    if (results.bad.status === 'error') expect(results.bad.ename).toBe('ReferenceError');
  });

  it('shares host typed arrays with cells', async () => {
    expect(await driver.value('new Float32Array([1, 2]) instanceof Float32Array && Buffer.from("a").length === 1')).toBe('true');
  });
});
