// The magic registry.
//
// To add a magic: write one file in this folder that exports a `Magic` (see
// ./magic.ts and ./time.ts for an example: name, one-line summary, help text,
// run(context)), then add it to the `builtinMagics` list below. Nothing else
// changes: %lsmagic lists it, inspect (Shift+Tab) on `%name` shows its help,
// completion after `%` offers its name, and the session runs it in order with
// the code around it. A magic that needs the tensor runtime uses
// `context.runtime` (the `tpu` object); one that runs user code uses
// `context.compileArgs()` and must stop when `context.signal` is aborted. A
// magic that must act around every cell also sets
// `hooks: { beforeCell, afterCell }`; its own file keeps the state it switches.
import { device } from './device.js';
import { lsmagic } from './lsmagic.js';
import type { Magic } from './magic.js';
import { memory } from './memory.js';
import { mode } from './mode.js';
import { profile } from './profile.js';
import { program } from './program.js';
import { reset } from './reset.js';
import { time } from './time.js';
import { timeit } from './timeit.js';
import { typecheck } from './typecheck.js';

export type { CellHookContext, CellHooks, Magic, MagicContext, SessionSettings, TypecheckMode } from './magic.js';

const builtinMagics: Magic[] = [lsmagic, time, timeit, typecheck, mode, profile, memory, device, program, reset];

export const magics: ReadonlyMap<string, Magic> = new Map(builtinMagics.map((m) => [m.name, m]));
