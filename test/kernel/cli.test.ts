// `tpu-kernel install` writes a kernelspec Jupyter can use; bad options exit 2 with usage.
import { spawnSync } from 'node:child_process';
import { mkdtempSync, readFileSync, rmSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { inflateSync } from 'node:zlib';
import { afterAll, expect, it } from 'vitest';
import { KERNEL_CLI } from '../support/kernel-client.mjs';

const prefix = mkdtempSync(join(tmpdir(), 'tpu-kernel-cli-'));
afterAll(() => rmSync(prefix, { recursive: true, force: true }));
const cli = (...args: string[]) => spawnSync(process.execPath, [KERNEL_CLI, ...args], { encoding: 'utf8' });

/** Width, height and the raw scanlines of an 8-bit RGBA PNG, decoded by hand. */
function decodePng(png: Buffer) {
  expect(png.subarray(0, 8)).toEqual(Buffer.from([0x89, 0x50, 0x4e, 0x47, 0x0d, 0x0a, 0x1a, 0x0a]));
  const idat: Buffer[] = [];
  let width = 0;
  let height = 0;
  for (let at = 8; at < png.length; ) {
    const length = png.readUInt32BE(at);
    const type = png.toString('ascii', at + 4, at + 8);
    const data = png.subarray(at + 8, at + 8 + length);
    if (type === 'IHDR') [width, height] = [data.readUInt32BE(0), data.readUInt32BE(4)];
    if (type === 'IDAT') idat.push(data);
    at += 12 + length;
  }
  return { width, height, rows: inflateSync(Buffer.concat(idat)) };
}

it('installs the tpu-ts kernelspec with logos and env settings', () => {
  const run = cli('install', '--prefix', prefix, '--env', 'TPU_PROFILE=summary');
  expect(run.status, run.stderr).toBe(0);
  const dir = join(prefix, 'share', 'jupyter', 'kernels', 'tpu-ts');
  expect(run.stdout).toContain(dir);
  const spec = JSON.parse(readFileSync(join(dir, 'kernel.json'), 'utf8'));
  expect(spec).toEqual({
    argv: [process.execPath, KERNEL_CLI, '--connection-file', '{connection_file}'],
    display_name: 'TypeScript (TPU)',
    language: 'typescript',
    interrupt_mode: 'message',
    env: { NODE_NO_WARNINGS: '1', TPU_PROFILE: 'summary' },
    metadata: { debugger: false },
  });
  for (const size of [32, 64]) {
    const { width, height, rows } = decodePng(readFileSync(join(dir, `logo-${size}x${size}.png`)));
    expect([width, height, rows.length]).toEqual([size, size, size * (1 + 4 * size)]);
  }
});

it('rejects unknown commands and options with usage', () => {
  const unknown = cli('frobnicate');
  expect(unknown.status).toBe(2);
  expect(unknown.stderr).toContain('tpu-kernel: unknown command "frobnicate"');
  expect(unknown.stderr).toContain('tpu-kernel install [--user | --sys-prefix | --prefix DIR]');
  const badEnv = cli('install', '--prefix', prefix, '--env', 'NOEQUALS');
  expect(badEnv.status).toBe(2);
  expect(badEnv.stderr).toContain('--env expects KEY=VALUE, got "NOEQUALS"');
  const missing = cli('--connection-file');
  expect(missing.status).toBe(2);
  expect(missing.stderr).toContain('expected --connection-file FILE');
});
