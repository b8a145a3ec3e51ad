// The classic Notebook UI (python3-nbclassic) in headless Chromium: open the
// quickstart, Cell > Run All, wait until every cell ran, check that tensor
// HTML and the profile display render, and keep a screenshot.
import { copyFileSync, mkdtempSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join, resolve } from 'node:path';
import type { BrowserContext, Page } from 'playwright-core';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { installKernelspec } from '../support/kernelspec.js';
import { startJupyterServer, type JupyterServer } from '../support/jupyter-server.js';
import { launchChromium, runAllCells, screenshotNotebook } from '../support/notebook-browser.js';
import { printLogOnFailure } from '../support/print-log-on-failure.js';

const OUTPUT = resolve('test/output/e2e');

/** The output area of the first cell whose first line is `firstLine`. */
async function outputOf(page: Page, firstLine: string) {
  const index = await page.evaluate((line) =>
    (window as any).Jupyter.notebook.get_cells().findIndex((cell: any) => cell.get_text().split('\n')[0] === line), firstLine);
  expect(index, `a cell starting with ${firstLine}`).toBeGreaterThanOrEqual(0);
  return page.locator('#notebook-container > .cell').nth(index).locator('.output_area');
}

describe('classic Notebook UI in Chromium', () => {
  let server: JupyterServer | undefined;
  let browser: BrowserContext | undefined;
  let page: Page;
  const consoleLines: string[] = [];
  printLogOnFailure('jupyter server', () => server?.logPath);

  beforeAll(async () => {
    const spec = installKernelspec();
    const root = mkdtempSync(join(tmpdir(), 'notebook-ui-'));
    copyFileSync('notebooks/01-quickstart.ipynb', join(root, '01-quickstart.ipynb'));
    server = await startJupyterServer({ jupyterPath: [spec.jupyterPath], rootDir: root, logPath: join(OUTPUT, 'browser-server.log') });
    browser = await launchChromium();
    page = await browser.newPage();
    page.on('console', (msg) => consoleLines.push(msg.text()));
  }, 60_000);

  afterAll(async () => {
    await browser?.close();
    await server?.stop();
  });

  it('runs all cells of the quickstart and renders tensors and the profile', async () => {
    const state = await runAllCells(page, server!, '01-quickstart.ipynb', 240_000);
    await screenshotNotebook(page, join(OUTPUT, 'quickstart.png'));
    const errors = await page.locator('.output_error').allInnerTexts();
    expect({ state, errors }).toEqual({ state: 'done', errors: [] });

    // The cell `c` shows the float32 product [[20., 23.], [44., 51.]] as an HTML table.
    const tensorTable = (await outputOf(page, 'c')).locator('.output_html table');
    await expect(tensorTable.count()).resolves.toBe(1);
    const cellTexts = await tensorTable.locator('td').allInnerTexts();
    expect(cellTexts.map((t) => t.trim())).toEqual(expect.arrayContaining(['20.', '23.', '44.', '51.']));

    // The profiled workload cell (after `%profile summary`) ends with the profile display in HTML.
    const profiled = (await outputOf(page, '// Twenty tanh(z @ w) steps in fused mode: recorded, then compiled and run as one program at the sync point.')).locator('.output_html');
    await expect(profiled.count()).resolves.toBeGreaterThan(0);
    expect((await profiled.last().innerText()).toLowerCase()).toMatch(/fused[\s\S]*(compile|program)/);
  }, 300_000);
});
