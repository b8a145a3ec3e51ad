// %profile's setting: off | summary | live | timeline | trace, defaulting to TPU_KERNEL_PROFILE.
import { UsageError } from '../cells/cell-errors.js';

export type ProfileMode = 'off' | 'summary' | 'live' | 'timeline' | 'trace';
export const PROFILE_MODES: readonly ProfileMode[] = ['off', 'summary', 'live', 'timeline', 'trace'];

export function parseProfileMode(value: string, source: string): ProfileMode {
  if ((PROFILE_MODES as readonly string[]).includes(value)) return value as ProfileMode;
  throw new UsageError(`${source}: must be one of ${PROFILE_MODES.join(', ')}, got '${value}'`);
}

/** The default of a new session: TPU_KERNEL_PROFILE, else off (a bad value is reported on stderr, not fatal). */
export function defaultProfileMode(env: NodeJS.ProcessEnv = process.env, warn = (m: string) => process.stderr.write(m)): ProfileMode {
  const value = env.TPU_KERNEL_PROFILE;
  if (!value) return 'off';
  try {
    return parseProfileMode(value, 'TPU_KERNEL_PROFILE');
  } catch (error) {
    warn(`tpu-kernel: ${(error as Error).message}; profiling is off\n`);
    return 'off';
  }
}
