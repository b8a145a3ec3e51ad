// Colab-style hosting: the service writes the connection file (another
// loopback address, tcp or ipc), starts the kernel as a non-root user with
// its settings in the environment or the kernelspec's env block, and talks
// to it with jupyter_client.
import { userInfo } from 'node:os';
import { join, resolve } from 'node:path';
import { describe, expect, it } from 'vitest';
import { installKernelspec, KERNEL_NAME } from '../support/kernelspec.js';
import { launchKernel, nonRootDir, runCells, runsAsRoot, writeConnectionFile } from '../support/kernel-process.js';
import { printLogOnFailure } from '../support/print-log-on-failure.js';

// The user the kernel runs as: nobody when the tests run as root.
const KERNEL_USER = runsAsRoot ? 'nobody' : userInfo().username;

// A cell that prints the settings the kernel runs with, and its user.
const SETTINGS_CELL = [
  'const device = tpu.device();',
  "console.log([tpu.mode(), device.chip, tpu.memory().capacityBytes, device.threads, (await import('node:os')).userInfo().username].join(' '));",
].join('\n');
const settingsLine = (mode: string, chip: string, capacityBytes: number, threads: number) => `${mode} ${chip} ${capacityBytes} ${threads} ${KERNEL_USER}\n`;

describe('Colab-style hosting', () => {
  let logPath: string | undefined;
  printLogOnFailure('kernel', () => logPath);

  for (const [transport, describeIp] of [
    ['tcp', () => '127.0.0.2'],
    ['ipc', (dir: string) => join(dir, 'kernel-ipc')],
  ] as const) {
    it(`serves a connection file with ${transport} transport, as a non-root user, with settings from the environment`, async () => {
      const dir = nonRootDir(`tpu-hosting-${transport}-`);
      const connectionFile = await writeConnectionFile(dir, transport, describeIp(dir));
      logPath = resolve(`test/output/e2e/hosting-${transport}.log`);
      const kernel = launchKernel(connectionFile, {
        TPU_KERNEL_MODE: 'debug', TPU_KERNEL_CHIP: 'v6e', TPU_KERNEL_HBM_BYTES: String(3 * 2 ** 30), TPU_KERNEL_THREADS: '1', TPU_KERNEL_PROFILE: 'summary',
      }, logPath);
      try {
        const run = runCells({ connectionFile }, [SETTINGS_CELL, '%profile', 'const kept = tpu.arange(5).sum();', 'await kept.item()'], { nonRoot: true });
        expect(run.implementation).toBe('tpu-kernel');
        expect(run.cells[0]).toMatchObject({ status: 'ok', stdout: settingsLine('debug', 'v6e', 3 * 2 ** 30, 1) });
        expect(run.cells[1]).toMatchObject({ status: 'ok', stdout: 'profile: summary\n' });
        expect(run.cells[3]).toMatchObject({ status: 'ok', text: '10' }); // 0+1+2+3+4
        expect(await kernel.exited).toBe(0); // run_cells.py ends with shutdown_request
      } finally {
        kernel.kill();
      }
    });
  }

  it('takes its settings from the kernelspec env block when jupyter_client launches it', () => {
    const spec = installKernelspec({ TPU_KERNEL_MODE: 'fused', TPU_KERNEL_CHIP: 'v4', TPU_KERNEL_THREADS: '2', TPU_KERNEL_PROFILE: 'live' });
    const runtimeDir = nonRootDir('tpu-hosting-runtime-');
    const run = runCells(
      { kernelName: KERNEL_NAME, env: { JUPYTER_PATH: spec.jupyterPath, JUPYTER_RUNTIME_DIR: runtimeDir, HOME: runtimeDir } },
      [SETTINGS_CELL, '%profile'],
      { nonRoot: true },
    );
    // v4: 32 GiB of HBM per chip
    expect(run.cells[0]).toMatchObject({ status: 'ok', stdout: settingsLine('fused', 'v4', 32 * 2 ** 30, 2) });
    expect(run.cells[1]).toMatchObject({ status: 'ok', stdout: 'profile: live\n' });
  });
});
