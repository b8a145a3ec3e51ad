// The folder of the tpu-kernel package, from source (kernel/session) or built (dist/kernel/session) code alike.
import { existsSync, readFileSync } from 'node:fs';
import path from 'node:path';
import { fileURLToPath } from 'node:url';

export function packageRoot(): string {
  for (let dir = path.dirname(fileURLToPath(import.meta.url)); path.dirname(dir) !== dir; dir = path.dirname(dir)) {
    const manifest = path.join(dir, 'package.json');
    if (existsSync(manifest) && (JSON.parse(readFileSync(manifest, 'utf8')) as { name?: string }).name === 'tpu-kernel') return dir;
  }
  throw new Error(`tpu-kernel: no package.json named tpu-kernel above ${fileURLToPath(import.meta.url)}`);
}
