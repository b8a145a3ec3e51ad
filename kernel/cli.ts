#!/usr/bin/env node
// tpu-kernel's command line: one table of subcommands, each in its own module.
import { resolve } from 'node:path';
import { heapLimitFlag, relaunchWith } from './heap-limit.js';
import { setKernelJitFlags } from './jit-flags.js';
import type { InstallTarget } from './install/kernelspec.js';
import { startKernel } from './kernel.js';

interface Command {
  usage: string;
  run(args: string[]): Promise<void> | void;
}

function takeValue(args: string[], i: number, flag: string): string {
  const value = args[i + 1];
  if (value === undefined || value.startsWith('--')) throw new UsageError(`${flag} needs a value`);
  return value;
}

class UsageError extends Error {}

async function install(args: string[]): Promise<void> {
  let target: InstallTarget = { kind: 'user' };
  const env: Record<string, string> = {};
  for (let i = 0; i < args.length; i++) {
    const arg = args[i]!;
    if (arg === '--user') target = { kind: 'user' };
    else if (arg === '--sys-prefix') target = { kind: 'sys-prefix' };
    else if (arg === '--prefix') target = { kind: 'prefix', dir: resolve(takeValue(args, i++, arg)) };
    else if (arg === '--env') {
      const pair = takeValue(args, i++, arg);
      const eq = pair.indexOf('=');
      if (eq <= 0) throw new UsageError(`--env expects KEY=VALUE, got ${JSON.stringify(pair)}`);
      env[pair.slice(0, eq)] = pair.slice(eq + 1);
    } else throw new UsageError(`install: unknown option ${JSON.stringify(arg)}`);
  }
  // loaded here: the kernel's own start does not need it
  const { installKernelspec } = await import('./install/kernelspec.js');
  console.log(`Installed kernelspec tpu-ts in ${installKernelspec({ target, env })}`);
}

async function launch(args: string[]): Promise<void> {
  if (args.length !== 1) throw new UsageError('expected --connection-file FILE');
  const heapFlag = heapLimitFlag(process.env, process.execArgv);
  if (heapFlag) process.exit(await relaunchWith(heapFlag));
  await startKernel({ connectionFile: args[0]!, setJitFlags: setKernelJitFlags });
}

async function runNotebook(args: string[]): Promise<void> {
  setKernelJitFlags();
  process.exit(await (await import('./notebook/index.js')).runCommand(args));
}

const commands: Record<string, Command> = {
  install: { usage: 'install [--user | --sys-prefix | --prefix DIR] [--env KEY=VALUE ...]', run: install },
  '--connection-file': { usage: '--connection-file FILE', run: launch },
  run: { usage: 'run NOTEBOOK.ipynb [--output OUT.ipynb] [--mode debug|strict|fused]', run: runNotebook },
};

function usage(): string {
  return ['usage:', ...Object.values(commands).map((c) => `  tpu-kernel ${c.usage}`)].join('\n');
}

// `--flag=value` is the same as `--flag value`
const argv = process.argv.slice(2).flatMap((arg) => (/^--[\w-]+=/.test(arg) ? arg.split(/=(.*)/s, 2) : [arg]));
const [name = '', ...rest] = argv;
const command = commands[name];
try {
  if (!command) throw new UsageError(name === '' ? 'no command given' : `unknown command ${JSON.stringify(name)}`);
  await command.run(rest);
} catch (e) {
  console.error(e instanceof UsageError ? `tpu-kernel: ${e.message}\n${usage()}` : e);
  process.exit(e instanceof UsageError ? 2 : 1);
}
