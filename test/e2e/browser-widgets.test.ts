// Widgets in a real browser: the widget manager classes JupyterLab 4 uses for ipywidgets 8
// (@jupyter-widgets/base-manager, controls), bundled by esbuild into a small page
// (test/support/widget-frontend.ts) that runs cells on Jupyter Server through
// @jupyterlab/services, in headless Chromium. A slider and a dropdown are drawn from the
// kernel's comm_open; moving the slider with the keyboard and by a click on its track, and
// picking a dropdown option, run the cell's onChange handlers, whose tensor results reach the
// page as display updates. Screenshot in test/output/e2e/widgets.png. (Debian's own widget front end for the classic Notebook is
// ipywidgets 6's and draws none of ipywidgets 8's models: see docs/testing.md.)
import { mkdirSync, mkdtempSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join, resolve } from 'node:path';
import { build } from 'esbuild';
import type { BrowserContext, Page } from 'playwright-core';
import { afterAll, afterEach, beforeAll, describe, expect, it } from 'vitest';
import { installKernelspec } from '../support/kernelspec.js';
import { startJupyterServer, type JupyterServer } from '../support/jupyter-server.js';
import { launchChromium } from '../support/notebook-browser.js';
import { printLogOnFailure } from '../support/print-log-on-failure.js';

const OUTPUT = resolve('test/output/e2e');
const PAGE = '<!doctype html><html><head><meta charset="utf-8"><link rel="stylesheet" href="page.css"></head><body><div id="out"></div><script src="page.js"></script></body></html>';

/** The frontend as one script and one stylesheet (fonts inlined). */
async function bundleFrontend(): Promise<Record<string, { type: string; body: Uint8Array }>> {
  const result = await build({
    entryPoints: [resolve('test/support/widget-frontend.ts')],
    bundle: true, format: 'iife', write: false, outdir: 'bundle', logLevel: 'error',
    loader: { '.woff': 'dataurl', '.woff2': 'dataurl', '.ttf': 'dataurl', '.eot': 'dataurl', '.svg': 'dataurl', '.png': 'dataurl' },
    define: { 'process.env.NODE_ENV': '"production"' },
  });
  const file = (ext: string) => result.outputFiles.find((f) => f.path.endsWith(ext))!.contents;
  return {
    'page.html': { type: 'text/html', body: new TextEncoder().encode(PAGE) },
    'page.js': { type: 'text/javascript', body: file('.js') },
    'page.css': { type: 'text/css', body: file('.css') },
  };
}

describe('widgets in Chromium with the ipywidgets 8 widget manager', () => {
  let server: JupyterServer | undefined;
  let browser: BrowserContext | undefined;
  let page: Page;
  const consoleLines: string[] = [];
  printLogOnFailure('jupyter server', () => server?.logPath);
  afterEach(({ task }) => {
    if (task.result?.state === 'fail') console.error(`----- browser console -----\n${consoleLines.join('\n')}`);
  });

  const execute = (code: string) => page.evaluate((c) => (window as any).execute(c), code);
  const shown = (displayText: string) => page.waitForFunction((text) =>
    [...document.querySelectorAll('pre[data-display-id]')].some((e) => e.textContent === text), displayText, { timeout: 15_000 });

  beforeAll(async () => {
    const files = await bundleFrontend();
    const spec = installKernelspec();
    server = await startJupyterServer({ jupyterPath: [spec.jupyterPath], rootDir: mkdtempSync(join(tmpdir(), 'widgets-ui-')), logPath: join(OUTPUT, 'browser-widgets-server.log') });
    // The page is served at the server's own origin; Chromium then treats it as a page of no
    // known address, whose WebSocket to 127.0.0.1 its local network checks would block.
    browser = await launchChromium(['--disable-features=LocalNetworkAccessChecks,BlockInsecurePrivateNetworkRequests,PrivateNetworkAccessSendPreflights']);
    page = await browser.newPage();
    page.on('console', (msg) => consoleLines.push(msg.text()));
    page.on('pageerror', (error) => consoleLines.push(`page error: ${error.message}`));
    await page.route('**/widget-test/*', (route) => {
      const file = files[new URL(route.request().url()).pathname.split('/').pop()!];
      return file ? route.fulfill({ contentType: file.type, body: Buffer.from(file.body) }) : route.fulfill({ status: 404 });
    });
    await page.goto(`${server.baseUrl}widget-test/page.html?token=${server.token}`);
    await page.waitForFunction(() => (window as any).ready || (window as any).failed, null, { timeout: 30_000 });
    expect(await page.evaluate(() => (window as any).failed)).toBeUndefined();
  }, 90_000);

  afterAll(async () => {
    await browser?.close();
    await server?.stop();
  });

  it('draws a slider; moving it runs the cell\'s handler, whose tensor result updates a display', async () => {
    expect(await execute([
      'const n = widgets.slider({ min: 1, max: 8, value: 2, description: "n" });',
      'const total = display.text(`sum ${tpu.ones([n.value]).mul(3).sum().item()}`);',
      'n.onChange((v) => total.update(`sum ${tpu.ones([v]).mul(3).sum().item()}`));',
      'n',
    ].join('\n'))).toBe('ok');
    await shown('sum 6'); // 2 × 3
    const handle = page.locator('.widget-slider .noUi-handle');
    await expect(handle.getAttribute('aria-valuenow')).resolves.toBe('2.0');
    await expect(page.locator('.widget-slider .widget-label').innerText()).resolves.toBe('n');

    await handle.focus();
    await page.keyboard.press('ArrowRight');
    await shown('sum 9'); // 3 × 3

    // A click at the right end of the track moves the handle there (behavior 'drag-tap'): the max.
    const track = await page.locator('.widget-slider .noUi-base').boundingBox();
    await page.mouse.click(track!.x + track!.width - 1, track!.y + track!.height / 2);
    await shown('sum 24'); // 8 × 3
    await expect(execute('if (n.value !== 8) throw new Error(`n.value is ${n.value}`);')).resolves.toBe('ok');
  });

  it('draws a dropdown; picking an option runs the handler with the option\'s value', async () => {
    expect(await execute([
      'const scale = widgets.dropdown({ options: [["one", 1], ["ten", 10], ["hundred", 100]], value: 1 });',
      'const scaled = display.text(`scaled ${tpu.tensor([1, 2]).mul(scale.value).sum().item()}`);',
      'scale.onChange((v) => scaled.update(`scaled ${tpu.tensor([1, 2]).mul(v).sum().item()}`));',
      'scale',
    ].join('\n'))).toBe('ok');
    await shown('scaled 3');
    await page.locator('.widget-dropdown select').selectOption({ label: 'hundred' });
    await shown('scaled 300');
    await expect(execute('if (scale.index !== 2) throw new Error(`index ${scale.index}`);')).resolves.toBe('ok');
    mkdirSync(OUTPUT, { recursive: true });
    await page.screenshot({ path: join(OUTPUT, 'widgets.png'), fullPage: true });
  });
});
