// `tpu-kernel run` as a user types it: outputs written into the notebook,
// text echoed to the terminal, the failing cell reported with a non-zero exit,
// --output and --mode honoured, bad arguments refused with exit code 2.
import { spawn, spawnSync } from 'node:child_process';
import { mkdtempSync, readFileSync, writeFileSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { describe, expect, it } from 'vitest';
import { CLI } from '../support/kernelspec.js';

/** Code cells, and markdown cells given as `{ markdown }`. */
function notebookFile(cells: (string | { markdown: string })[], dir = mkdtempSync(join(tmpdir(), 'tpu-run-'))): string {
  const path = join(dir, 'nb.ipynb');
  writeFileSync(path, JSON.stringify({
    nbformat: 4, nbformat_minor: 5, metadata: { kernelspec: { name: 'tpu-ts', display_name: 'TypeScript (TPU)', language: 'typescript' } },
    cells: cells.map((source, i) => typeof source === 'string'
      ? { cell_type: 'code', id: `c${i}`, source, metadata: {}, execution_count: null, outputs: [] }
      : { cell_type: 'markdown', id: `c${i}`, source: source.markdown, metadata: {} }),
  }));
  return path;
}

const runCli = (...args: string[]) => runCliWith({}, ...args);
const runCliWith = (env: Record<string, string>, ...args: string[]) =>
  spawnSync(process.execPath, [CLI, 'run', ...args], { encoding: 'utf8', timeout: 120_000, env: { ...process.env, ...env } });
const read = (path: string) => JSON.parse(readFileSync(path, 'utf8'));

describe('tpu-kernel run', () => {
  it('writes outputs into the notebook in place and echoes them', () => {
    const path = notebookFile(["console.log('sum', 2 + 3)", '6 * 7']);
    const run = runCli(path);
    expect(run.status, run.stderr).toBe(0);
    expect(run.stdout).toBe('sum 5\nOut[2]: 42\n');
    const [first, second] = read(path).cells;
    expect(first).toMatchObject({ execution_count: 1, outputs: [{ output_type: 'stream', name: 'stdout', text: ['sum 5\n'] }] });
    expect(second).toMatchObject({ execution_count: 2, outputs: [{ output_type: 'execute_result', execution_count: 2, data: { 'text/plain': ['42'] } }] });
  });

  it('echoes a display again in its final state when it was updated, and the profile summary', () => {
    const path = notebookFile([
      "console.log('working');\nconst progress = display.text('step 0');\nawait progress.update('step 2');",
      "tpu.mode('strict');\nconsole.log(await tpu.ones([2, 3]).mul(4).sum().item());",
    ]);
    const run = runCliWith({ TPU_KERNEL_PROFILE: 'summary' }, path);
    expect(run.status, run.stderr).toBe(0);
    const [first, ...rest] = run.stdout.split('TPU profile');
    expect(first).toBe('working\nstep 0\nstep 2\n24\n'); // 2 x 3 x 4
    expect(rest.length).toBe(1); // one profile: the first cell never touched the device
    expect(rest[0]).toMatch(/strict mode · final/);
    const cells = read(path).cells;
    expect(cells[0].outputs).toMatchObject([{ output_type: 'stream', text: ['working\n'] }, { output_type: 'display_data', data: { 'text/plain': ['step 2'] } }]);
    expect(cells[1].outputs.map((o: { output_type: string }) => o.output_type)).toEqual(['stream', 'display_data']);
  });

  it('echoes a plot once: its SVG fallback is an update that leaves the text as it was', () => {
    const path = notebookFile([
      'plot.line([1, 2, 3]);',
      "const curve = plot.line([], { title: 'loss' });\nfor (let i = 0; i < 3; i++) curve.append(i);",
    ]);
    const run = runCli(path);
    expect(run.status, run.stderr).toBe(0);
    expect(run.stdout).toBe('<line plot: 3 points>\n<line plot: 0 points>\n<line plot: 3 points>\n'); // a live curve: first and final state
    const cells = read(path).cells;
    for (const cell of cells) {
      expect(cell.outputs.length).toBe(1);
      expect(cell.outputs[0].data['image/svg+xml']).toBeDefined(); // the update that used to be echoed again
    }
  });

  it('stops at the failing cell: exit 1, the cell numbered as the user sees it, source and error on stderr', () => {
    const path = notebookFile([{ markdown: '# intro' }, "console.log('ran')", "throw new TypeError('no such tensor: w')", "console.log('never')"]);
    const run = runCli(path);
    expect(run.status).toBe(1);
    expect(run.stdout).toBe('ran\n');
    // The third cell of the notebook, the second code cell run: In [2], whose frames say cell-2.ts.
    expect(run.stderr).toContain(`tpu-kernel run: ${path}: cell 3 (In [2]) failed:\n    throw new TypeError('no such tensor: w')\n`);
    expect(run.stderr).toContain('cell-2.ts:1:7');
    expect(run.stderr).toContain("throw new TypeError('no such tensor: w')");
    expect(run.stderr).toContain('TypeError');
    expect(run.stderr).toContain('no such tensor: w');
    const cells = read(path).cells;
    expect(cells[2].outputs.at(-1)).toMatchObject({ output_type: 'error', ename: 'TypeError', evalue: 'no such tensor: w' });
    expect(cells[3]).toMatchObject({ execution_count: null, outputs: [] });
  });

  it('exits 1, never aborting, when the failing cell leaves device work queued (every mode)', () => {
    for (const mode of ['debug', 'strict', 'fused']) {
      for (let run = 0; run < 2; run++) {
        const r = runCli(notebookFile([
          `tpu.mode('${mode}');\nconst x = tpu.ones([64, 64]);\nconsole.log(x.matmul(x).sum().item());`,
          "for (let i = 0; i < 50; i++) x.matmul(x).data().catch(() => {});\nthrow new Error('cell failed');",
        ]));
        expect(r.status, `${mode}: ${r.stderr}`).toBe(1);
        expect(r.stdout).toBe(`${64 * 64 * 64}\n`); // every entry of ones·ones is 64
        expect(r.stderr).toContain('cell 2 (In [2]) failed');
      }
    }
    // Six runs, each building the language service for the `i < 50` cell after a tensor cell
    // (its operators may meet a tensor): 16-19 s a run at load 11, against 8-10 before.
  }, 180_000);

  it('writes to --output and leaves the input untouched', () => {
    const path = notebookFile(["console.log('x')"]);
    const before = readFileSync(path, 'utf8');
    const output = join(mkdtempSync(join(tmpdir(), 'tpu-run-out-')), 'out.ipynb');
    expect(runCli(path, '--output', output).status).toBe(0);
    expect(readFileSync(path, 'utf8')).toBe(before);
    expect(read(output).cells[0].outputs[0].text).toEqual(['x\n']);
  });

  it('sets the mode before the first cell with --mode', () => {
    for (const mode of ['debug', 'strict', 'fused']) {
      const run = runCli(notebookFile(['console.log(tpu.mode())']), '--mode', mode);
      expect(run.stdout, run.stderr).toBe(`${mode}\n`);
    }
  });

  it('stops at Ctrl-C: the running cell is interrupted, outputs written, exit code 130', async () => {
    const path = notebookFile(["console.log('spinning');\nwhile (true) {}", "console.log('never')"]);
    const child = spawn(process.execPath, [CLI, 'run', path], { stdio: ['ignore', 'pipe', 'pipe'] });
    let stdout = '';
    let stderr = '';
    child.stdout.on('data', (chunk) => {
      stdout += chunk;
      if (stdout.includes('spinning')) child.kill('SIGINT');
    });
    child.stderr.on('data', (chunk) => (stderr += chunk));
    const code = await new Promise((resolve) => child.once('exit', resolve));
    expect(code, stderr).toBe(130);
    expect(stdout).toBe('spinning\n');
    expect(stderr).toContain('cell 1 (In [1]) was interrupted');
    const cells = read(path).cells;
    expect(cells[0].outputs.map((o: { output_type: string }) => o.output_type)).toEqual(['stream', 'error']);
    expect(cells[1]).toMatchObject({ execution_count: null, outputs: [] });
  });

  it('refuses bad arguments with exit code 2 and a clear message', () => {
    const path = notebookFile(['1']);
    const cases: [string[], string][] = [
      [[], 'expected one notebook path, got 0'],
      [[path, '--mode', 'turbo'], "--mode: expected one of debug, strict, fused, got 'turbo'"],
      [[path, '--output'], '--output: expected a value, got nothing'],
      [[path, '--colour'], 'unknown option --colour'],
      [['/nonexistent/nb.ipynb'], '/nonexistent/nb.ipynb'],
    ];
    for (const [args, message] of cases) {
      const run = runCli(...args);
      expect(run.status, args.join(' ')).toBe(2);
      expect(run.stderr).toContain(message);
    }
  });
});
