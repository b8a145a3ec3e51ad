// What a reader of an executed notebooks/00-kernel-basics.ipynb sees: results,
// rich displays updated in place, mapped tracebacks. The notebook asserts its
// own values (its `check` throws); test/e2e/notebooks.test.ts applies these
// checks to its nbconvert and `tpu-kernel run` outputs alike.
import { readFileSync } from 'node:fs';
import { expect } from 'vitest';

interface Output { output_type: string; name?: string; text?: string; data?: Record<string, unknown>; ename?: string; traceback?: string[] }
interface Cell { cell_type: string; source: string; metadata: { tags?: string[] }; outputs?: Output[] }

export function checkKernelBasics(executedPath: string): void {
  const cells = (JSON.parse(readFileSync(executedPath, 'utf8')) as { cells: Cell[] }).cells.filter((c) => c.cell_type === 'code');
  const source = (c: Cell) => (Array.isArray(c.source) ? c.source.join('') : c.source);
  const cell = (start: string) => cells.find((c) => source(c).startsWith(start))!;
  // nbformat stores multi-line strings as arrays of lines.
  const joined = (v: unknown) => (Array.isArray(v) ? v.join('') : v) as string | undefined;
  const text = (o: Output | undefined) => joined(o?.data?.['text/plain'] ?? o?.text);

  // Errors only where the notebook expects them.
  for (const c of cells) {
    const errors = (c.outputs ?? []).filter((o) => o.output_type === 'error');
    expect(errors.length, source(c)).toBe(c.metadata.tags?.includes('raises-exception') ? 1 : 0);
  }
  expect(text(cell('/** Throws when').outputs!.find((o) => o.output_type === 'execute_result'))).toBe('42');

  const rich = cell("console.log('stdout line'").outputs!;
  expect(rich.map((o) => o.output_type)).toEqual(['stream', 'stream', 'display_data', 'display_data', 'display_data', 'execute_result']);
  expect(joined(rich[2].data!['text/html'])).toBe('<b>done</b>'); // the handle's update replaced it in place
  expect(rich[4].data!['application/json']).toEqual({ shape: [2, 3] });

  // The error output (a type-check warning on stderr may come first, depending on
  // whether the language service has loaded yet).
  const errorOf = (c: Cell) => c.outputs!.find((o) => o.output_type === 'error')!;
  const thrown = errorOf(cell('const ratio'));
  expect(thrown.ename).toBe('RangeError');
  expect(thrown.traceback!.join('\n')).toMatch(/at divide \(cell-\d+\.ts:2:22\)/);
  const syntax = errorOf(cell('const broken'));
  expect(syntax.ename).toBe('SyntaxError');
  expect(syntax.traceback!.join('\n')).toContain('1 | const broken = (1 + ;');

  expect(text(cell('%lsmagic').outputs![0])).toMatch(/^Available line magics:/);
  const tensor = cell('const m = tpu.tensor').outputs!.find((o) => o.output_type === 'execute_result')!;
  expect(joined(tensor.data!['text/html'])).toMatch(/<table/);
}
