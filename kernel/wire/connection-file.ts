// The connection file Jupyter writes for a kernel: where to bind and how to sign.
import { readFileSync } from 'node:fs';

export interface ConnectionInfo {
  transport: 'tcp' | 'ipc';
  ip: string;
  shell_port: number;
  control_port: number;
  iopub_port: number;
  stdin_port: number;
  hb_port: number;
  key: string;
  signature_scheme: string;
}

export type ChannelName = 'shell' | 'control' | 'iopub' | 'stdin' | 'hb';

export function readConnectionFile(path: string): ConnectionInfo {
  const raw = JSON.parse(readFileSync(path, 'utf8')) as Partial<ConnectionInfo>;
  const transport = raw.transport ?? 'tcp';
  if (transport !== 'tcp' && transport !== 'ipc') {
    throw new Error(`connection file ${path}: transport must be "tcp" or "ipc", got ${JSON.stringify(transport)}`);
  }
  for (const port of ['shell_port', 'control_port', 'iopub_port', 'stdin_port', 'hb_port'] as const) {
    if (!Number.isInteger(raw[port])) {
      throw new Error(`connection file ${path}: ${port} must be an integer, got ${JSON.stringify(raw[port])}`);
    }
  }
  return {
    ...(raw as ConnectionInfo),
    transport,
    ip: raw.ip ?? '127.0.0.1',
    key: raw.key ?? '',
    signature_scheme: raw.signature_scheme ?? 'hmac-sha256',
  };
}

/** ZeroMQ endpoint of one channel: tcp://IP:PORT, or ipc://IP-PORT as jupyter_client names ipc files. */
export function endpoint(info: ConnectionInfo, channel: ChannelName): string {
  const port = info[`${channel}_port` as const];
  return info.transport === 'tcp' ? `tcp://${info.ip}:${port}` : `ipc://${info.ip}-${port}`;
}
