// The addons' builds never fail an install: without a toolchain each prints one line, exits 0.
import { describe, expect, it } from 'vitest';
import { spawnSync } from 'node:child_process';
import { cpSync, existsSync, mkdirSync, mkdtempSync, rmSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { fileURLToPath } from 'node:url';

const device = fileURLToPath(new URL('../../runtime/device/', import.meta.url));

describe.each([
  { area: 'pjrt', addon: 'pjrt', line: /^pjrt addon not built \(TPU compiler off\): \S.*\n$/ },
  { area: 'onnx', addon: 'ortc', line: /^ortc addon not built \(ONNX Runtime through onnxruntime-node\): \S.*\n$/ },
])('runtime/device/$area/native/build.mjs', ({ area, addon, line }) => {
  it('without python/make/g++ on PATH: one line, exit 0, no addon', () => {
    // A copy (node-gyp's rebuild starts by deleting the build folder), with the shared build script beside it as in the tree.
    const root = mkdtempSync(join(tmpdir(), `${addon}-native-`));
    try {
      const native = join(device, area, 'native');
      const built = join(native, 'build');
      const dir = join(root, area, 'native');
      mkdirSync(dir, { recursive: true });
      cpSync(native, dir, { recursive: true, filter: (src) => src !== built && !src.startsWith(`${built}/`) });
      cpSync(join(device, 'build-addon.mjs'), join(root, 'build-addon.mjs'));
      const r = spawnSync(process.execPath, [join(dir, 'build.mjs')], { env: { PATH: '' }, encoding: 'utf8', timeout: 60_000 });
      expect(r.status).toBe(0);
      expect(r.stdout).toMatch(line);
      expect(existsSync(join(dir, 'build', 'Release', `${addon}.node`))).toBe(false);
    } finally {
      rmSync(root, { recursive: true, force: true });
    }
  });
});
