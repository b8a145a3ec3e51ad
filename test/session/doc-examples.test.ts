// Every @example of the public API (the members of `tpu` and Tensor's methods, read from the
// built declarations a cell sees) runs in one session, in one cell: none may throw. An
// example statement followed by a comment holding a literal (`x.shape // [3, 4]`) must give
// that value: a tensor through .array(), numbers to the digits the comment writes.
import { mkdtempSync } from 'node:fs';
import { tmpdir } from 'node:os';
import path from 'node:path';
import ts from 'typescript';
import { afterAll, describe, expect, it } from 'vitest';
import type { SessionFactory } from '../../kernel/language-session.js';
import { tpuCompilerInfo } from '../../runtime/device/pjrt/index.js';
import { publicApi } from './public-api-docs.js';
import { SessionDriver } from './recording-publisher.js';

// Examples that compile for a TPU topology need libtpu (as test/pjrt/); without it they are left out.
const libtpu = await tpuCompilerInfo();
const needsLibtpu = (example: string) => /\.compile\(\{ topology/.test(example);
if (!libtpu.available) console.warn(`doc-examples.test.ts: examples compiling for a TPU topology left out: ${libtpu.reason}`);

const built = (await import(path.resolve('dist/kernel/session/index.js'))) as { createSession: SessionFactory };
const driver = new SessionDriver(mkdtempSync(path.join(tmpdir(), 'tpu-doc-examples-')), built.createSession);
afterAll(() => driver.shutdown());

/**
 * The names examples use without defining them. Examples whose values are stated in a comment
 * make their own inputs, so that the example reads on its own where Shift+Tab shows it.
 */
const PRELUDE = `
const x = tpu.tensor([[1, -2, 3, 0.5], [-1, 4, 2, -3], [0, 1, -1, 2]]);
const y = tpu.tensor([[2, 1, 0, -1], [1, 1, 1, 1], [3, -2, 0, 4]]);
const a = tpu.tensor([[1, 2], [3, 4]]);
const b = tpu.tensor([[5, 6], [7, 8]]);
const w = tpu.randn([4, 2], { requiresGrad: true });
const logits = tpu.randn([3, 4]);
const scores = tpu.randn([3, 4]);
const mask = x.gt(0);
const idx = tpu.tensor(new Int32Array([2, 0]));
const index = tpu.tensor(new Int32Array([0, 1, 2, 0, 1, 1])).reshape([3, 2]);
const src = tpu.ones([3, 2]);
const images = tpu.randn([2, 3, 8, 8]);
const ids = tpu.tensor(new Int32Array([1, 5, 999, 0, 3, 3])).reshape([2, 3]);
const model = new tpu.nn.Sequential(new tpu.nn.Linear(4, 8), new tpu.nn.ReLU(), new tpu.nn.Linear(8, 1));
const opt = new tpu.optim.SGD(model.parameters(), { lr: 0.1 });
const lossFn = (p: Tensor) => p.square().sum();
const step = () => model.forward(x).sum().item();
await tpu.sync();
const __failures: string[] = [];
const __n = (value: number, tolerance: number) => ({ __number: value, tolerance });
// Values come from the runtime's realm, not the cell's: no instanceof Object here.
const __isObject = (v: any) => typeof v === 'object' && v !== null;
async function __plain(v: any): Promise<any> {
  v = await v;
  if (__isObject(v) && typeof v.array === 'function' && Array.isArray(v.shape)) return v.array();
  if (ArrayBuffer.isView(v)) return Array.from(v as unknown as ArrayLike<number>);
  if (Array.isArray(v)) return Promise.all(v.map(__plain));
  if (__isObject(v) && Object.getPrototypeOf(v)?.constructor?.name === 'Object') {
    return Object.fromEntries(await Promise.all(Object.entries(v).map(async ([k, e]) => [k, await __plain(e)])));
  }
  return v;
}
function __same(got: any, expected: any): boolean {
  if (__isObject(expected) && '__number' in expected) {
    const e = expected.__number;
    return typeof got === 'number' && (Number.isNaN(e) ? Number.isNaN(got) : got === e || Math.abs(got - e) <= expected.tolerance);
  }
  if (Array.isArray(expected)) return Array.isArray(got) && got.length === expected.length && expected.every((e, i) => __same(got[i], e));
  if (__isObject(expected)) {
    return __isObject(got) && Object.keys(got).length === Object.keys(expected).length && Object.keys(expected).every((k) => __same(got[k], expected[k]));
  }
  return got === expected;
}
async function __check(label: string, value: unknown, expected: unknown, written: string) {
  const got = await __plain(value);
  if (!__same(got, expected)) __failures.push(label + ': the example says ' + written + ', got ' + JSON.stringify(got));
}
`;

/** `// [2, 3]` as the cell's expected value (numbers as __n(value, tolerance)), or undefined for prose. */
function expectedValue(comment: string): string | undefined {
  const file = ts.createSourceFile('comment.ts', `(${comment})`, ts.ScriptTarget.ES2022, true);
  const statement = file.statements[0];
  if (file.statements.length !== 1 || !statement || !ts.isExpressionStatement(statement)) return undefined;
  const number = (text: string, negative: boolean): string => {
    const value = Number(text);
    const decimals = /\.(\d+)$/.exec(text)?.[1]?.length;
    // Written with decimals: to those digits; an integer: exactly, but for float32 rounding.
    const tolerance = (decimals === undefined ? 0 : 0.5 * 10 ** -decimals) + 1e-6 * Math.abs(value);
    return `__n(${negative ? '-' : ''}${text}, ${tolerance})`;
  };
  const convert = (node: ts.Expression): string | undefined => {
    if (ts.isParenthesizedExpression(node)) return convert(node.expression);
    if (ts.isNumericLiteral(node)) return number(node.getText(file), false); // as written: 1.0000 keeps its digits
    if (ts.isPrefixUnaryExpression(node) && node.operator === ts.SyntaxKind.MinusToken && ts.isNumericLiteral(node.operand)) return number(node.operand.getText(file), true);
    if (ts.isIdentifier(node) && ['NaN', 'Infinity'].includes(node.text)) return `__n(${node.text}, 0)`;
    if (ts.isPrefixUnaryExpression(node) && node.operator === ts.SyntaxKind.MinusToken && ts.isIdentifier(node.operand) && node.operand.text === 'Infinity') return '__n(-Infinity, 0)';
    if (ts.isStringLiteral(node) || node.kind === ts.SyntaxKind.TrueKeyword || node.kind === ts.SyntaxKind.FalseKeyword || node.kind === ts.SyntaxKind.NullKeyword) return node.getText(file);
    if (ts.isArrayLiteralExpression(node)) {
      const items = node.elements.map(convert);
      return items.every((i) => i !== undefined) ? `[${items.join(', ')}]` : undefined;
    }
    if (ts.isObjectLiteralExpression(node)) {
      const entries = node.properties.map((p) => {
        if (!ts.isPropertyAssignment(p)) return undefined;
        const value = convert(p.initializer);
        return value === undefined ? undefined : `${p.name.getText(file)}: ${value}`;
      });
      return entries.every((e) => e !== undefined) ? `{ ${entries.join(', ')} }` : undefined;
    }
    return undefined;
  };
  return convert(statement.expression);
}

/** The example as cell code: each statement with a literal result comment becomes a check of its value. */
function checkedExample(label: string, code: string): { code: string; checks: number; problems: string[] } {
  const file = ts.createSourceFile('example.ts', code, ts.ScriptTarget.ES2022, true);
  const edits: { start: number; end: number; text: string }[] = [];
  const problems: string[] = [];
  for (const statement of file.statements) {
    const comment = ts.getTrailingCommentRanges(code, statement.end)?.find((c) => c.kind === ts.SyntaxKind.SingleLineCommentTrivia);
    if (!comment) continue;
    const written = code.slice(comment.pos + 2, comment.end).trim();
    const expected = expectedValue(written);
    if (expected === undefined) continue;
    if (!ts.isExpressionStatement(statement)) {
      problems.push(`${label}: the result comment // ${written} follows a statement that is not an expression`);
      continue;
    }
    const expression = statement.expression;
    edits.push({
      start: expression.getStart(file),
      end: expression.end,
      text: `await __check(${JSON.stringify(label)}, ${expression.getText(file)}, ${expected}, ${JSON.stringify(written)})`,
    });
  }
  let out = code;
  for (const edit of edits.reverse()) out = out.slice(0, edit.start) + edit.text + out.slice(edit.end);
  return { code: out, checks: edits.length, problems };
}

describe('the @example of every public function', () => {
  it('runs in one session without throwing, and gives the values its comments state', async () => {
    // One entry per distinct example (tpu.exp and x.exp share theirs), labelled with every name showing it.
    const byText = new Map<string, string[]>();
    for (const member of publicApi()) {
      for (const example of member.examples) {
        if (libtpu.available || !needsLibtpu(example)) byText.set(example, [...(byText.get(example) ?? []), member.name]);
      }
    }
    // Examples that reset the session run last: they free every tensor of the prelude.
    const examples = [...byText].sort(([a], [b]) => Number(/tpu\.reset\(/.test(a)) - Number(/tpu\.reset\(/.test(b)));
    expect(examples.length).toBeGreaterThan(200);

    let checks = 0;
    const problems: string[] = [];
    const blocks = examples.map(([text, names]) => {
      const label = names.join(', ');
      const checked = checkedExample(label, text);
      checks += checked.checks;
      problems.push(...checked.problems);
      return `{\n  try {\n${checked.code}\n  } catch (error) {\n    __failures.push(${JSON.stringify(label)} + ': ' + String(error));\n  }\n}`;
    });
    expect(problems).toEqual([]);
    expect(checks).toBeGreaterThan(80);
    // Files the examples write (tpu.save, exportTrace) go to the session's folder, as in a notebook's.
    const cwd = process.cwd();
    process.chdir(driver.cwd);
    try {
      await driver.value(PRELUDE);
      await driver.value(blocks.join('\n'));
      expect(await driver.value('__failures')).toBe('[]');
    } finally {
      process.chdir(cwd);
    }
  }, 120_000);
});
