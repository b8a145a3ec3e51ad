// A kernel whose ports are taken exits with a clear error (exit code 1), not an abort
// inside zeromq's addon: the IO thread closes its sockets before it reports the failure.
import { spawnSync } from 'node:child_process';
import { mkdtempSync, rmSync, writeFileSync } from 'node:fs';
import net from 'node:net';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { afterAll, expect, it } from 'vitest';
import { freePorts } from '../support/free-ports.mjs';
import { KERNEL_CLI } from '../support/kernel-client.mjs';

const dir = mkdtempSync(join(tmpdir(), 'tpu-kernel-port-'));
afterAll(() => rmSync(dir, { recursive: true, force: true }));

it('exits with a clear error when the control port is already in use', async () => {
  const taken = net.createServer();
  await new Promise<void>((resolve) => taken.listen(0, '127.0.0.1', resolve));
  try {
    const [shell, iopub, stdin, hb] = await freePorts('127.0.0.1', 4);
    const control = (taken.address() as net.AddressInfo).port;
    const file = join(dir, 'connection.json');
    writeFileSync(file, JSON.stringify({
      transport: 'tcp', ip: '127.0.0.1', key: 'k', signature_scheme: 'hmac-sha256',
      shell_port: shell, iopub_port: iopub, stdin_port: stdin, control_port: control, hb_port: hb,
    }));
    const run = spawnSync(process.execPath, [KERNEL_CLI, '--connection-file', file], { encoding: 'utf8', timeout: 20_000 });
    expect(run.signal).toBeNull();
    expect(run.status).toBe(1);
    expect(run.stderr).toContain('binding heartbeat/control/iopub failed: Address already in use');
    expect(run.stderr).not.toContain('Napi::Error');
  } finally {
    taken.close();
  }
});
