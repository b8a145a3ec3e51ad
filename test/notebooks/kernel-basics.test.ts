// Executes notebooks/00-kernel-basics.ipynb headless with nbconvert through the
// installed kernelspec. The notebook asserts its own results (its `check`
// throws on a wrong value); here we also check what a reader of the executed
// notebook sees: results, rich displays updated in place, mapped tracebacks.
import { spawnSync } from 'node:child_process';
import { mkdtempSync, readFileSync, rmSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { afterAll, expect, it } from 'vitest';
import { KERNEL_CLI } from '../support/kernel-client.mjs';

interface Output { output_type: string; name?: string; text?: string; data?: Record<string, unknown>; ename?: string; traceback?: string[] }
interface Cell { cell_type: string; source: string; metadata: { tags?: string[] }; outputs?: Output[] }

const prefix = mkdtempSync(join(tmpdir(), 'tpu-kernel-notebook-'));
afterAll(() => rmSync(prefix, { recursive: true, force: true }));

it('executes notebooks/00-kernel-basics.ipynb with nbconvert', () => {
  const install = spawnSync(process.execPath, [KERNEL_CLI, 'install', '--prefix', prefix], { encoding: 'utf8' });
  expect(install.status, install.stderr).toBe(0);
  const run = spawnSync('/usr/bin/jupyter', [
    'nbconvert', '--to', 'notebook', '--execute', 'notebooks/00-kernel-basics.ipynb',
    '--output-dir', prefix, '--output', 'executed.ipynb', '--ExecutePreprocessor.timeout=120',
  ], { encoding: 'utf8', env: { ...process.env, JUPYTER_PATH: join(prefix, 'share', 'jupyter'), JUPYTER_DATA_DIR: join(prefix, 'data') }, timeout: 150_000 });
  expect(run.status, `${run.stdout}\n${run.stderr}`).toBe(0);

  const cells = (JSON.parse(readFileSync(join(prefix, 'executed.ipynb'), 'utf8')) as { cells: Cell[] }).cells.filter((c) => c.cell_type === 'code');
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

  const thrown = cell('const ratio').outputs![0];
  expect(thrown.ename).toBe('RangeError');
  expect(thrown.traceback!.join('\n')).toMatch(/at divide \(cell-\d+\.ts:2:22\)/);
  const syntax = cell('const broken').outputs![0];
  expect(syntax.ename).toBe('SyntaxError');
  expect(syntax.traceback!.join('\n')).toContain('1 | const broken = (1 + ;');

  expect(text(cell('%lsmagic').outputs![0])).toMatch(/^Available line magics:/);
  const tensor = cell('const m = tpu.tensor').outputs!.find((o) => o.output_type === 'execute_result')!;
  expect(joined(tensor.data!['text/html'])).toMatch(/<table/);
}, 160_000);
