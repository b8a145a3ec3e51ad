// Environment variables set the session defaults (read when the runtime loads).
import { describe, expect, it } from 'vitest';
import { execFileSync } from 'node:child_process';

function runWithEnv(env: Record<string, string>, code: string): string {
  return execFileSync(process.execPath, ['--input-type=module', '-e', code], {
    env: { ...process.env, ...env }, encoding: 'utf8', stdio: ['ignore', 'pipe', 'pipe'],
  }).trim();
}

const PROBE = `import { tpu } from 'tpu-kernel/runtime';
const d = tpu.device();
console.log(JSON.stringify({ chip: d.chip, cap: tpu.memory().capacityBytes, mode: tpu.mode(), threads: d.threads, v: tpu.ones([2]).add(1).sum().item() }));`;

describe('environment variables', () => {
  it('TPU_KERNEL_CHIP, TPU_KERNEL_HBM_BYTES, TPU_KERNEL_MODE, TPU_KERNEL_THREADS', () => {
    expect(JSON.parse(runWithEnv({ TPU_KERNEL_CHIP: 'v5p', TPU_KERNEL_MODE: 'fused', TPU_KERNEL_THREADS: '1' }, PROBE))).toEqual({
      chip: 'v5p', cap: 95e9, mode: 'fused', threads: 1, v: 4,
    });
    expect(JSON.parse(runWithEnv({ TPU_KERNEL_HBM_BYTES: '1000000', TPU_KERNEL_MODE: 'debug' }, PROBE))).toMatchObject({
      chip: 'v5e', cap: 1e6, mode: 'debug', v: 4,
    });
  });

  it('rejects bad values with the variable named', () => {
    expect(() => runWithEnv({ TPU_KERNEL_CHIP: 'v3' }, PROBE)).toThrow(/TPU_KERNEL_CHIP: chip must be one of v4, v5e, v5p, v6e; got "v3"/);
    expect(() => runWithEnv({ TPU_KERNEL_MODE: 'lazy' }, PROBE)).toThrow(/TPU_KERNEL_MODE: mode must be one of debug, strict, fused; got "lazy"/);
    expect(() => runWithEnv({ TPU_KERNEL_THREADS: '0' }, PROBE)).toThrow(/TPU_KERNEL_THREADS must be a positive integer; got "0"/);
    expect(() => runWithEnv({ TPU_KERNEL_INTERRUPT_BUDGET: 'fast' }, PROBE)).toThrow(/TPU_KERNEL_INTERRUPT_BUDGET must be a whole number of bytecode units \(0: V8's default\); got "fast"/);
  });

  it("TPU_KERNEL_INTERRUPT_BUDGET: V8's tier-up budget (0: V8's default), results unchanged", () => {
    for (const budget of ['0', '16384']) expect(JSON.parse(runWithEnv({ TPU_KERNEL_INTERRUPT_BUDGET: budget }, PROBE))).toMatchObject({ v: 4 });
  });
});
