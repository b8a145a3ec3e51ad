import path from 'node:path';
import { CellProfile, type TraceFile } from '../outputs/cell-profile.js';
import { PROFILE_MODES, parseProfileMode } from '../outputs/profile-mode.js';
import type { Magic, SessionSettings } from './magic.js';

/** The running cell's profile, per session (a session's settings object names it). */
const running = new WeakMap<SessionSettings, CellProfile>();

export const profile: Magic = {
  name: 'profile',
  summary: 'Profile every cell: off | summary | live | timeline | trace.',
  help: [
    '%profile [off|summary|live|timeline|trace]',
    '',
    'Every cell shows a TPU profile, from this cell on when the line comes before',
    'any code of the cell, else from the next cell:',
    '  off       none (the default, unless TPU_KERNEL_PROFILE says otherwise)',
    '  summary   one profile display when the cell ends',
    '  live      one display, updated in place a few times a second while the',
    '            cell runs, then the final profile',
    '  timeline  live, plus an SVG timeline: host lane (dispatch, compile, wait)',
    '            and device lane (each program); hover a span for its title',
    '  trace     timeline, plus the cell\'s timeline as Chrome trace event JSON in',
    '            tpu-traces/cell-N.trace.json beside the notebook (Perfetto,',
    '            chrome://tracing), linked from the profile',
    'Figures: mode, wall time, host dispatch, device busy, ops dispatched,',
    'programs run, compiles (count, ms), cache hit rate, queue depth, bytes to and',
    'from the device, live and peak device memory, per-program device time with a',
    'roofline estimate for the chip, and warnings with the cell line that caused',
    'them (recompiles after a shape change, host syncs in a loop, fused regions',
    'cut early, matmul operands the TPU must pad). Outputs: text/plain, text/html,',
    'application/vnd.tpu-kernel.profile+json (and image/svg+xml with timeline).',
    'The last profile is tpu.profiler.last(). Without an argument, prints the setting.',
  ].join('\n'),
  appliesToItsCell: true,
  run({ args, settings, write }) {
    if (args) settings.profile = parseProfileMode(args, `%profile: mode (${PROFILE_MODES.join('|')})`);
    write('stdout', `profile: ${settings.profile}\n`);
  },
  hooks: {
    // The setting when a cell starts decides: the profile records from here to the cell's end.
    beforeCell({ settings, silent, useRuntime, emit, executionCount, mapSite, cwd }) {
      const mode = settings.profile;
      if (mode === 'off' || silent) return;
      const runtime = useRuntime();
      const trace = mode === 'trace' ? traceFile(cwd, executionCount) : undefined;
      if (runtime) running.set(settings, new CellProfile(runtime, mode, emit, `cell ${executionCount}`, mapSite, trace));
    },
    // After the cell's device work is done (or it failed): the final profile.
    async afterCell({ settings }) {
      const profile = running.get(settings);
      running.delete(settings);
      await profile?.finish();
    },
  },
};

/** Beside the notebook, so the profile's relative link opens it from the notebook's page. */
function traceFile(cwd: string, executionCount: number): TraceFile {
  const href = `tpu-traces/cell-${executionCount}.trace.json`;
  return { path: path.join(cwd, href), href };
}
