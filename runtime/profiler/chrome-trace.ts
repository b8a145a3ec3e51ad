// A profile's timeline as Chrome trace event JSON (the "JSON Object Format" that
// Perfetto and chrome://tracing open): one process, a host and a device thread,
// one complete event ("ph": "X") per span, times in microseconds.
import type { ProfileData, TimelineSpan } from './profile-data.js';

export interface TraceEvent {
  name: string;
  ph: 'X' | 'M';
  pid: number;
  tid: number;
  ts?: number;
  dur?: number;
  cat?: string;
  args?: Record<string, unknown>;
}

export interface ChromeTrace {
  traceEvents: TraceEvent[];
  displayTimeUnit: 'ms';
  otherData: Record<string, unknown>;
}

const PID = 1;
const LANES = { host: 1, device: 2 } as const;
/** Microseconds to the nanosecond, from milliseconds. */
const micros = (ms: number) => Math.round(ms * 1e6) / 1e3;

/** Chip c's device lane is thread 2 + c. */
function spanEvent(span: TimelineSpan): TraceEvent {
  return { name: span.label, cat: span.kind, ph: 'X', ts: micros(span.start), dur: micros(span.end - span.start), pid: PID, tid: LANES[span.lane] + (span.chip ?? 0) };
}

export function chromeTrace(data: ProfileData): ChromeTrace {
  const meta = (name: string, tid: number, value: string): TraceEvent => ({ name, ph: 'M', pid: PID, tid, args: { name: value } });
  return {
    traceEvents: [
      meta('process_name', 0, `tpu-kernel: ${data.title}`),
      meta('thread_name', LANES.host, 'host'),
      meta('thread_name', LANES.device, data.chips ? `chip 0 (${data.chip.name})` : `device (${data.chip.name})`),
      ...(data.chips?.memory.slice(1) ?? []).map((m) => meta('thread_name', LANES.device + m.chip, `chip ${m.chip} (${data.chip.name})`)),
      ...data.timeline.host.map(spanEvent),
      ...data.timeline.device.map(spanEvent),
    ],
    displayTimeUnit: 'ms',
    otherData: { title: data.title, mode: data.mode, wallMs: data.wallMs, deviceBusyMs: data.deviceBusyMs, ops: data.ops, programsRun: data.programsRun },
  };
}
