// The `plot` cell global: Vega-Lite specs with the data it was given (tensors read from
// the device), an SVG fallback drawn by Vega, heatmap PNGs, live curves updated in place.
import { describe, expect, it } from 'vitest';
import { decode } from 'fast-png';
import type { MimeBundle } from '../../kernel/language-session.js';
import { builtSessions } from './built-sessions.js';
import type { Recorded } from './recording-publisher.js';

const VL = 'application/vnd.vegalite.v5+json';
// Tensors come from the runtime's device thread (a real .js worker file): use the built session.
const driver = builtSessions('tpu-plot-')();

type Spec = { data: { values: Record<string, unknown>[] }; mark: { type: string }; encoding: Record<string, { field?: string; type?: string; scale?: unknown }>; title?: string };
const bundles = (outputs: Recorded[]) => outputs.flatMap((o) => (o.kind === 'display' || o.kind === 'update' ? [o.data] : []));
const last = (outputs: Recorded[]): MimeBundle => bundles(outputs).at(-1)!;

async function ok(code: string) {
  const { outcome, publisher } = await driver.run(code);
  if (outcome.status !== 'ok') throw new Error(`${outcome.ename}: ${outcome.evalue}\n${outcome.traceback.join('\n')}`);
  return publisher.outputs;
}

describe('plot', () => {
  it('line of a tensor: spec with its values at once, then the same spec with the SVG Vega draws, one display id', async () => {
    const outputs = await ok('plot.line(tpu.tensor([3, 1, 4, 1, 5]), { title: "digits", yLabel: "value" });');
    const first = outputs[0]!;
    expect(first.kind).toBe('display');
    expect(first.kind === 'display' && Object.keys(first.data)).toEqual([VL, 'text/plain']); // the SVG is not waited for
    expect(new Set(outputs.map((o) => (o as { displayId?: string }).displayId)).size).toBe(1);
    const final = last(outputs);
    const spec = final[VL] as Spec;
    expect(spec.data.values).toEqual([3, 1, 4, 1, 5].map((y, x) => ({ x, y })));
    expect(spec).toMatchObject({ $schema: 'https://vega.github.io/schema/vega-lite/v5.json', title: 'digits', mark: { type: 'line' } });
    expect(final['text/plain']).toBe('<line plot: 5 points>');
    const svg = final['image/svg+xml'] as string;
    expect(svg).toMatch(/^<svg[^>]*xmlns="http:\/\/www.w3.org\/2000\/svg"/);
    expect(svg).toContain('>digits</text>');
    expect(svg).toContain('>value</text>');
    // One line path through 5 points: a move and 4 line segments.
    const line = /<path[^>]*aria-roledescription="line mark"[^>]*d="([^"]+)"/.exec(svg) ?? /class="mark-line[^"]*"[^]*?<path[^>]* d="([^"]+)"/.exec(svg);
    expect(line?.[1]?.match(/[ML]/g)).toEqual(['M', 'L', 'L', 'L', 'L']);
  });

  it('line(x, y), several named series, and options checked by name', async () => {
    let spec = last(await ok('plot.line([0, 0.5, 1], new Float32Array([2, 4, 8]), { logY: true });'))[VL] as Spec;
    expect(spec.data.values).toEqual([{ x: 0, y: 2 }, { x: 0.5, y: 4 }, { x: 1, y: 8 }]);
    expect(spec.encoding.y!.scale).toEqual({ type: 'log' });
    spec = last(await ok('plot.line({ train: [1, 0.5], test: tpu.tensor([2, 1]) });'))[VL] as Spec;
    expect(spec.data.values).toEqual([
      { x: 0, y: 1, series: 'train' }, { x: 1, y: 0.5, series: 'train' }, { x: 0, y: 2, series: 'test' }, { x: 1, y: 1, series: 'test' },
    ]);
    expect(spec.encoding.color).toMatchObject({ field: 'series', type: 'nominal' });
    const typo = await driver.run('plot.line([1, 2], { tilte: "x" })');
    expect(typo.outcome).toMatchObject({ status: 'error', evalue: "plot.line: unknown option 'tilte' (options: title, xLabel, yLabel, width, height, logY)" });
    const lengths = await driver.run('plot.line([1, 2], [1, 2, 3])');
    expect(lengths.outcome).toMatchObject({ status: 'error', evalue: 'plot.line: x has 2 values and y 3' });
    const matrix = await driver.run('plot.line(tpu.zeros([2, 3]))');
    expect(matrix.outcome).toMatchObject({ status: 'error', evalue: 'plot.line y: expected a 1-D series, got shape [2,3]' });
  });

  it('scatter colored by labels, and hist with counts per bin (last bin closed)', async () => {
    const scatter = last(await ok('plot.scatter(tpu.tensor([1, 2, 3]), [4, 5, 6], { color: tpu.tensor([0, 1, 0], { dtype: "int32" }) });'))[VL] as Spec;
    expect(scatter.data.values).toEqual([{ x: 1, y: 4, series: '0' }, { x: 2, y: 5, series: '1' }, { x: 3, y: 6, series: '0' }]);
    expect(scatter.mark.type).toBe('point');
    const hist = last(await ok('plot.hist([0, 1, 1, 2, 2, 2, 3, 3, 3, 3, NaN], { bins: 3 });'));
    // Range [0, 3] in 3 bins of width 1: [0,1) holds 0; [1,2) holds 1,1; [2,3] holds 2,2,2,3,3,3,3. NaN is left out.
    expect((hist[VL] as Spec).data.values).toEqual([{ start: 0, end: 1, count: 1 }, { start: 1, end: 2, count: 2 }, { start: 2, end: 3, count: 7 }]);
    expect(hist['text/plain']).toBe('<histogram: 10 values in 3 bins>');
    expect((hist['image/svg+xml'] as string).match(/aria-roledescription="bar"/g)).toHaveLength(3);
  });

  it('image: a 2-D tensor as a heatmap PNG, min to max through the colormap, enlarged by whole pixels', async () => {
    const png = last(await ok('plot.image(tpu.tensor([[0, 1], [2, 4]]), { colormap: "gray", scale: 3 });'));
    expect(png['text/plain']).toBe('<image 2x2>');
    const image = decode(Buffer.from(png['image/png'] as string, 'base64'));
    expect([image.width, image.height, image.channels]).toEqual([6, 6, 4]);
    const at = (x: number, y: number) => Array.from(image.data.slice((y * 6 + x) * 4, (y * 6 + x) * 4 + 4));
    // gray maps 0..4 to 0..255: 1 -> round(255/4) = 64, 2 -> 128 (levels of 256).
    expect([at(0, 0), at(2, 2), at(3, 0), at(0, 3), at(5, 5)]).toEqual([
      [0, 0, 0, 255], [0, 0, 0, 255], [64, 64, 64, 255], [128, 128, 128, 255], [255, 255, 255, 255],
    ]);
    const viridis = decode(Buffer.from(last(await ok('plot.image([[0, 1]], { scale: 1 });'))['image/png'] as string, 'base64'));
    // Viridis runs from #440154 to #fde725.
    expect(Array.from(viridis.data)).toEqual([0x44, 0x01, 0x54, 255, 0xfd, 0xe7, 0x25, 255]);
    const bad = await driver.run('plot.image(tpu.zeros([4]))');
    expect(bad.outcome).toMatchObject({ status: 'error', evalue: 'plot.image: expected a 2-D tensor [H, W] or an image [H, W, 3 | 4], got shape [4]' });
  });

  it('a live curve in a synchronous loop: a few in-place updates, the last with every point and its SVG', async () => {
    const outputs = await ok([
      'const curve = plot.line([], { title: "loss" });',
      'const start = Date.now();',
      'let i = 0;',
      'while (Date.now() - start < 700) { curve.append(tpu.tensor([1 / (i + 1)])); i++; }',
      'console.log(i);',
    ].join('\n'));
    const printed = outputs.find((o) => o.kind === 'stream');
    const steps = Number(printed?.kind === 'stream' && printed.text);
    const updates = outputs.filter((o) => o.kind === 'update');
    // 700 ms at most every 250 ms: the loop's own updates, then the trailing one and SVGs after it.
    expect(updates.length).toBeGreaterThanOrEqual(3);
    expect(updates.length).toBeLessThan(12);
    const final = last(outputs);
    const values = (final[VL] as Spec).data.values;
    expect(values).toHaveLength(steps);
    expect(values.at(-1)).toEqual({ x: steps - 1, y: Math.fround(1 / steps) });
    expect(final['image/svg+xml']).toContain('>loss</text>');
    // During the loop, streams were not held back behind the plot.
    expect(outputs.findIndex((o) => o.kind === 'stream')).toBeLessThan(outputs.length - 1);
  });

  it('is typed for cells: tensors, arrays and records type-check, a wrong option type does not', async () => {
    await driver.run('%typecheck error');
    try {
      await ok([
        'const t = tpu.tensor([1, 2]);',
        'const c = plot.line({ train: t, test: [3, 4] }, { logY: true });',
        'c.append({ train: t.sum(), test: 2 });',
        'plot.scatter(t, new Float32Array([1, 2]), { color: ["a", "b"] }); plot.hist(t, { bins: 2 }); plot.image([[1, 2]], { colormap: "magma" });',
      ].join('\n'));
      const wrong = await driver.run('plot.hist([1], { bins: "3" })');
      expect(wrong.outcome).toMatchObject({ status: 'error', ename: 'TypeScriptError', evalue: expect.stringContaining("Type 'string' is not assignable to type 'number'") });
    } finally {
      await driver.run('%typecheck warn');
    }
  });
});
