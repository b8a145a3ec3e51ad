// The classic Notebook UI (python3-nbclassic) in headless Chromium: start the browser,
// open a notebook, Cell > Run All and wait until every cell ran, screenshot the whole page.
import { mkdirSync, mkdtempSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { chromium, type BrowserContext, type Page } from 'playwright-core';
import type { JupyterServer } from './jupyter-server.js';

const CHROMIUM_FLAGS = ['--headless', '--no-sandbox', '--disable-gpu', '--no-first-run', '--disable-background-networking', '--disable-component-update', '--disable-sync', '--disable-quic'];

/** `extraArgs`: more Chromium switches for one test. */
export function launchChromium(extraArgs: string[] = []): Promise<BrowserContext> {
  return chromium.launchPersistentContext(mkdtempSync(join(tmpdir(), 'chromium-profile-')), {
    executablePath: '/usr/bin/chromium',
    args: [...CHROMIUM_FLAGS, ...extraArgs],
    viewport: { width: 1280, height: 1000 },
  });
}

/** Opens `name` in the classic UI, runs all cells; resolves with 'done', or 'error' once an error output shows. */
export async function runAllCells(page: Page, server: JupyterServer, name: string, timeoutMs: number): Promise<string> {
  await page.goto(`${server.baseUrl}notebooks/${name}?token=${server.token}`);
  await page.waitForFunction(() => (window as any).Jupyter?.notebook?.kernel?.is_connected?.(), null, { timeout: 30_000 });
  await page.click('#menus a.dropdown-toggle:text-is("Cell")');
  await page.click('#run_all_cells a');
  const finished = await page.waitForFunction(() => {
    if (document.querySelector('.output_error')) return 'error';
    const prompts = [...document.querySelectorAll('.code_cell .input_prompt')].map((e) => e.textContent ?? '');
    return prompts.length > 0 && prompts.every((p) => /\[\d+\]/.test(p)) ? 'done' : false;
  }, null, { timeout: timeoutMs, polling: 250 });
  return (await finished.jsonValue()) as string;
}

/** A screenshot of the whole notebook (it scrolls inside #site, not the page: the viewport grows to show all of it). */
export async function screenshotNotebook(page: Page, path: string): Promise<void> {
  mkdirSync(join(path, '..'), { recursive: true });
  const height = await page.evaluate(() => document.querySelector('#header')!.clientHeight + document.querySelector('#notebook')!.scrollHeight);
  await page.setViewportSize({ width: 1280, height: Math.min(height + 40, 16_000) });
  await page.screenshot({ path, fullPage: true });
}
