// Starts Debian's Jupyter Server (python3-jupyter-server, plus the classic
// Notebook UI when python3-nbclassic is installed) for a test: loopback only,
// a random free port, a random token, an isolated Jupyter config/data/runtime
// and a JUPYTER_PATH that holds the kernelspecs under test. Its log goes to a
// file under test/output/ so that a failing test can print it.
import { spawn, type ChildProcess } from 'node:child_process';
import { randomBytes } from 'node:crypto';
import { closeSync, mkdirSync, mkdtempSync, openSync, readFileSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { dirname, join } from 'node:path';
import { ServerConnection } from '@jupyterlab/services';
import WebSocket from 'ws';
import { freePorts } from './free-ports.mjs';

export interface JupyterServer {
  baseUrl: string;
  token: string;
  /** Settings for @jupyterlab/services clients (KernelManager, SessionManager, ...). */
  settings: ServerConnection.ISettings;
  logPath: string;
  /** The server's log so far. */
  log(): string;
  stop(): Promise<void>;
}

export interface JupyterServerOptions {
  /** Folders put on JUPYTER_PATH (each holds kernels/<name>/kernel.json). */
  jupyterPath: string[];
  /** Where the server log is written (its folder is created). */
  logPath: string;
  /** The server's root folder (notebooks are opened relative to it). */
  rootDir: string;
  /** Extra environment for the server and the kernels it starts. */
  env?: Record<string, string>;
}

function waitForExit(child: ChildProcess, ms: number): Promise<boolean> {
  if (child.exitCode !== null || child.signalCode !== null) return Promise.resolve(true);
  return new Promise((resolve) => {
    const timer = setTimeout(() => resolve(false), ms);
    child.once('exit', () => {
      clearTimeout(timer);
      resolve(true);
    });
  });
}

export async function startJupyterServer(options: JupyterServerOptions): Promise<JupyterServer> {
  const [port] = await freePorts();
  const token = randomBytes(24).toString('hex');
  const home = mkdtempSync(join(tmpdir(), 'jupyter-home-'));
  mkdirSync(dirname(options.logPath), { recursive: true });
  const logFd = openSync(options.logPath, 'w');
  const child = spawn('/usr/bin/python3', [
    '-m', 'jupyter_server',
    '--ServerApp.ip=127.0.0.1',
    `--ServerApp.port=${port}`,
    '--ServerApp.port_retries=0',
    `--ServerApp.token=${token}`,
    '--ServerApp.open_browser=False',
    `--ServerApp.root_dir=${options.rootDir}`,
    ...(process.getuid?.() === 0 ? ['--ServerApp.allow_root=True'] : []),
  ], {
    env: {
      ...process.env,
      JUPYTER_PATH: options.jupyterPath.join(':'),
      JUPYTER_CONFIG_DIR: join(home, 'config'),
      JUPYTER_DATA_DIR: join(home, 'data'),
      JUPYTER_RUNTIME_DIR: join(home, 'runtime'),
      PYDEVD_DISABLE_FILE_VALIDATION: '1',
      ...options.env,
    },
    stdio: ['ignore', logFd, logFd],
  });
  closeSync(logFd);
  const baseUrl = `http://127.0.0.1:${port}/`;
  const log = () => readFileSync(options.logPath, 'utf8');
  const stop = async () => {
    if (child.exitCode !== null || child.signalCode !== null) return;
    child.kill('SIGTERM'); // jupyter_server shuts its kernels down on SIGTERM
    if (!(await waitForExit(child, 10_000))) {
      child.kill('SIGKILL');
      await waitForExit(child, 5_000);
    }
  };

  const deadline = Date.now() + 30_000;
  for (;;) {
    if (child.exitCode !== null) throw new Error(`jupyter server exited with code ${child.exitCode} before answering:\n${log()}`);
    try {
      const res = await fetch(`${baseUrl}api/status`, { headers: { Authorization: `token ${token}` } });
      if (res.ok) break;
    } catch {
      // not listening yet
    }
    if (Date.now() > deadline) {
      await stop();
      throw new Error(`jupyter server did not answer on ${baseUrl} within 30 s:\n${log()}`);
    }
    await new Promise((r) => setTimeout(r, 200));
  }

  const settings = ServerConnection.makeSettings({
    baseUrl,
    wsUrl: `ws://127.0.0.1:${port}/`,
    token,
    appendToken: true,
    WebSocket: WebSocket as unknown as typeof globalThis.WebSocket,
    fetch: globalThis.fetch.bind(globalThis),
  });
  return { baseUrl, token, settings, logPath: options.logPath, log, stop };
}
