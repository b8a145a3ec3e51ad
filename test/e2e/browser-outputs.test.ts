// The outputs cells make with `plot`, `progress` and a 2-D tensor, as the classic Notebook
// UI in headless Chromium draws them: the plot's SVG fallback (the classic Notebook has no
// Vega-Lite renderer), a finished progress bar updated in place, the tensor image view.
// Screenshot in test/output/e2e/outputs.png.
import { mkdtempSync, writeFileSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join, resolve } from 'node:path';
import type { BrowserContext, Page } from 'playwright-core';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { installKernelspec } from '../support/kernelspec.js';
import { startJupyterServer, type JupyterServer } from '../support/jupyter-server.js';
import { launchChromium, runAllCells, screenshotNotebook } from '../support/notebook-browser.js';
import { printLogOnFailure } from '../support/print-log-on-failure.js';

const OUTPUT = resolve('test/output/e2e');

const CELLS = [
  'const losses = tpu.tensor([2.3, 1.1, 0.7, 0.5, 0.42, 0.4]);\nplot.line(losses, { title: "loss", xLabel: "step" });',
  'const curve = plot.line([], { title: "live" });\nfor (const i of progress(50, { label: "train" })) { curve.append(1 / (i + 1)); await new Promise((r) => setTimeout(r, 5)); }',
  'plot.hist(tpu.randn([2000]), { bins: 20 });',
  'tpu.tensor([[0, 0.5, 1], [1, 0.5, 0]])',
  'tpu.tensor([[1], [2]])',
];

function notebook(): string {
  return JSON.stringify({
    nbformat: 4, nbformat_minor: 5,
    metadata: { kernelspec: { name: 'tpu-ts', display_name: 'TypeScript (TPU)', language: 'typescript' } },
    cells: CELLS.map((source, i) => ({ cell_type: 'code', id: `c${i}`, metadata: {}, execution_count: null, outputs: [], source })),
  });
}

describe('plots, progress and tensor image view in the classic Notebook UI', () => {
  let server: JupyterServer | undefined;
  let browser: BrowserContext | undefined;
  let page: Page;
  printLogOnFailure('jupyter server', () => server?.logPath);

  beforeAll(async () => {
    const spec = installKernelspec();
    const root = mkdtempSync(join(tmpdir(), 'notebook-outputs-'));
    writeFileSync(join(root, 'outputs.ipynb'), notebook());
    server = await startJupyterServer({ jupyterPath: [spec.jupyterPath], rootDir: root, logPath: join(OUTPUT, 'browser-outputs-server.log') });
    browser = await launchChromium();
    page = await browser.newPage();
  }, 60_000);

  afterAll(async () => {
    await browser?.close();
    await server?.stop();
  });

  it('draws them', async () => {
    const state = await runAllCells(page, server!, 'outputs.ipynb', 120_000);
    const errors = await page.locator('.output_error').allInnerTexts();
    expect({ state, errors }).toEqual({ state: 'done', errors: [] });
    const cells = page.locator('#notebook-container > .cell');

    // Plots: one output each, the SVG Vega drew (title, a line through 6 points, 20 bars).
    const line = cells.nth(0).locator('.output_area');
    await expect(line.count()).resolves.toBe(1);
    const lineSvg = await line.locator('svg').first().innerHTML();
    expect(lineSvg).toContain('>loss</text>');
    const live = cells.nth(1).locator('.output_area');
    // The live curve and the progress bar: two outputs, each updated in place.
    await expect(live.count()).resolves.toBe(2);
    expect(await live.nth(0).locator('svg').first().innerHTML()).toContain('>live</text>');
    const bar = live.nth(1).locator('progress');
    await expect(bar.getAttribute('value')).resolves.toBe('50');
    await expect(bar.getAttribute('max')).resolves.toBe('50');
    expect(await live.nth(1).innerText()).toMatch(/train\s+100%/);
    expect((await cells.nth(2).locator('svg').first().innerHTML()).match(/aria-roledescription="bar"/g)).toHaveLength(20);

    // A one-column tensor: its caption stays on one line.
    const caption = cells.nth(4).locator('.output_html caption');
    // Lines of text in the caption: its content height over its line height. The same caption
    // allowed to wrap breaks into several lines over this narrow table.
    const lines = (wrap: boolean) => caption.evaluate((c, wrap) => {
      c.style.whiteSpace = wrap ? 'normal' : 'nowrap';
      const s = getComputedStyle(c);
      return Math.round((c.clientHeight - parseFloat(s.paddingTop) - parseFloat(s.paddingBottom)) / parseFloat(s.lineHeight));
    }, wrap);
    await expect(lines(true)).resolves.toBeGreaterThan(1);
    await expect(lines(false)).resolves.toBe(1);

    // A 2-D float tensor: the image view once opened.
    const tensor = cells.nth(3).locator('.output_html');
    await tensor.locator('details summary').click();
    const img = tensor.locator('details img');
    await expect(img.evaluate((e: HTMLImageElement) => e.complete && e.naturalWidth)).resolves.toBe(255); // 3 columns x 85 pixels

    await screenshotNotebook(page, join(OUTPUT, 'outputs.png'));
  }, 180_000);
});
