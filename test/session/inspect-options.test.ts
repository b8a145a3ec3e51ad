// Shift+Tab spells out the option objects a function takes (each property, its type and
// the first line of its doc comment), and prints runtime types by name, never by an
// import path relative to where Jupyter started.
import { afterAll, describe, expect, it } from 'vitest';
import { SessionDriver } from './recording-publisher.js';

const driver = new SessionDriver();
afterAll(() => driver.shutdown());

describe('inspect: option objects and type names', () => {
  it('tpu.randn: Tensor and CreationOptions by name, the dtype option expanded', async () => {
    await driver.run('1');
    const text = await driver.inspectText('tpu.randn');
    expect(text).not.toContain('import(');
    expect(text.split('\n')[0]).toBe('function randn(shape: readonly number[], opts?: CreationOptions): Tensor (+1 overload)'); // and randn(2, 3)
    // TypeScript prints a union's members in the order it made their types: which declaration it read first decides
    const dtypes = /opts: \{\n  dtype\?: ((?:"\w+"(?: \| )?)+)\n  requiresGrad\?: boolean  \/\/ Record operations on this tensor for backward/.exec(text);
    expect(dtypes?.[1]?.split(' | ').sort()).toEqual(['"bfloat16"', '"bool"', '"float32"', '"int32"', '"int64"']);
  });

  it('cells type-check { requiresGrad: true } on creation functions', async () => {
    await driver.run('%typecheck error');
    try {
      // Defined, not called: this session has no device thread (the type check is the point).
      expect((await driver.run('const leaf = () => tpu.randn([2], { requiresGrad: true });')).outcome).toEqual({ status: 'ok' });
    } finally {
      await driver.run('%typecheck warn');
    }
  });

  it('a cell function with an options literal and doc comments, and plot.line with an intersection', async () => {
    await driver.value('function blur(image: number[], options?: {\n  /** Kernel radius in pixels. */\n  radius?: number;\n  mode: "wrap" | "clamp";\n}) { return image; }');
    expect(await driver.inspectText('blur')).toContain('options: {\n  radius?: number  // Kernel radius in pixels.\n  mode: "wrap" | "clamp"\n}');
    const line = await driver.inspectText('plot.line');
    expect(line).toContain('  width?: number  // Plot area width in pixels (default 400).\n');
    expect(line).toContain('  logY?: boolean\n}');
  });

  it('leaves functions without option objects alone', async () => {
    await driver.value('function add(a: number, b: number[]) { return a; }');
    expect(await driver.inspectText('add')).toBe('function add(a: number, b: number[]): number');
  });
});
