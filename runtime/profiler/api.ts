// tpu.profiler: record a profile around any code, read the last one, list the last
// compiled program. The kernel's %profile runs one recording per cell.
import { writeFile } from 'node:fs/promises';
import { programCache } from '../program/program-cache.js';
import { chromeTrace } from './chrome-trace.js';
import type { Profile } from './profile.js';
import { ProgramListing } from './program-listing.js';
import { syncDevice } from '../modes/sync.js';
import { currentSession } from '../device/current.js';
import { lastProfileRecorded, ProfileRecording, type RecordOptions } from './recorder.js';

/**
 * Profiles of device work: record() / profile(fn), last(), lastProgram(), exportTrace(path) for Perfetto (torch.profiler).
 * @example const { profile } = await tpu.profiler.profile(() => model.forward(x))
 */
export const profiler = {
  /**
   * Starts recording; `snapshot()` gives the figures so far, `stop()` the final profile.
   * @example
   * const rec = tpu.profiler.record({ title: 'step' });
   * x.matmul(x.T).sum().item();
   * rec.stop()
   */
  record(options: RecordOptions = {}): ProfileRecording {
    if (typeof options !== 'object' || options === null) {
      throw new TypeError(`tpu.profiler.record: options must be an object like { title: 'step' }; got ${JSON.stringify(options)}`);
    }
    return new ProfileRecording(options);
  },

  /**
   * Records `fn` (awaited, then the device synced): its value and its final profile, with XLA:TPU's figures.
   * @example const { value, profile } = await tpu.profiler.profile(() => x.sum().item())
   */
  async profile<T>(fn: () => T | Promise<T>, options: RecordOptions = {}): Promise<{ value: T; profile: Profile }> {
    const recording = profiler.record(options);
    try {
      const value = await fn();
      await syncDevice();
      return { value, profile: await recording.stop() };
    } finally {
      recording.stop();
    }
  },

  /**
   * The last profile finished (by a cell's %profile or by record().stop()).
   * @example tpu.profiler.last()?.data
   */
  last(): Profile | undefined {
    return lastProfileRecorded();
  },

  /**
   * Writes a profile's timeline (default the last profile finished) as Chrome trace event JSON,
   * which Perfetto (ui.perfetto.dev) and chrome://tracing open.
   * @example const rec = tpu.profiler.record({ title: 'step' }); step(); await tpu.profiler.exportTrace('step.trace.json', rec.stop());
   */
  async exportTrace(path: string, profile: Profile | undefined = lastProfileRecorded()): Promise<void> {
    if (!profile) throw new Error('tpu.profiler.exportTrace: no profile recorded yet: %profile trace, or tpu.profiler.record() then .stop()');
    await writeFile(path, JSON.stringify(chromeTrace(profile.data)));
  },

  /**
   * The last compiled program: its ops and how the backend runs it (%program); waits for the
   * device's queued work, as the device thread answers it.
   * @example tpu.profiler.lastProgram()?.ops
   */
  lastProgram(): ProgramListing | undefined {
    const entry = programCache().last;
    return entry && new ProgramListing(entry, currentSession().describeProgram(entry.id));
  },
};
