// The addon's build never fails an install: without a toolchain it prints one line, exits 0.
import { describe, expect, it } from 'vitest';
import { spawnSync } from 'node:child_process';
import { cpSync, existsSync, mkdtempSync, rmSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { fileURLToPath } from 'node:url';

const native = fileURLToPath(new URL('../../runtime/device/pjrt/native/', import.meta.url));

describe('runtime/device/pjrt/native/build.mjs', () => {
  it('without python/make/g++ on PATH: one line, exit 0, no addon', () => {
    // A copy: node-gyp's rebuild starts by deleting the build folder.
    const dir = mkdtempSync(join(tmpdir(), 'pjrt-native-'));
    try {
      const built = join(native, 'build');
      cpSync(native, dir, { recursive: true, filter: (src) => src !== built && !src.startsWith(`${built}/`) });
      const r = spawnSync(process.execPath, [join(dir, 'build.mjs')], { env: { PATH: '' }, encoding: 'utf8', timeout: 60_000 });
      expect(r.status).toBe(0);
      expect(r.stdout).toMatch(/^pjrt addon not built \(TPU compiler off\): \S.*\n$/);
      expect(existsSync(join(dir, 'build', 'Release', 'pjrt.node'))).toBe(false);
    } finally {
      rmSync(dir, { recursive: true, force: true });
    }
  });
});
