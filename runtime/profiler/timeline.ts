// Timeline spans of a profile, merged as they arrive so a loop of 10,000 ops stays a
// few hundred spans: a span that starts within MERGE_GAP_MS of the previous one of the
// same kind extends it (dispatch spans are sampled ops, 32 ops apart: see recorder.ts).
import type { SpanKind, TimelineSpan } from './profile-data.js';

const MERGE_GAP_MS = 0.1;
/** Beyond this many spans per lane, spans merge whatever the gap (the picture stays readable). */
const MAX_SPANS = 2000;

interface MutableSpan {
  lane: 'host' | 'device';
  chip: number;
  kind: SpanKind;
  start: number;
  end: number;
  label: string;
  count: number;
}

export class Timeline {
  private readonly host: MutableSpan[] = [];
  /** Device spans per chip. */
  private readonly devices: MutableSpan[][] = [[]];

  constructor(private readonly origin: number) {}

  /** `label` names one item; merged spans say how many they hold. */
  add(lane: 'host' | 'device', kind: SpanKind, start: number, end: number, label: string, chip = 0): void {
    const spans = lane === 'host' ? this.host : (this.devices[chip] ??= []);
    const s = start - this.origin;
    const e = Math.max(end - this.origin, s);
    const last = spans.at(-1);
    if (last && last.kind === kind && (s - last.end <= MERGE_GAP_MS || spans.length >= MAX_SPANS)) {
      last.end = Math.max(last.end, e);
      last.count++;
      return;
    }
    spans.push({ lane, chip, kind, start: s, end: e, label, count: 1 });
  }

  spans(): { host: TimelineSpan[]; device: TimelineSpan[] } {
    const copy = (s: MutableSpan): TimelineSpan => ({
      lane: s.lane, kind: s.kind, start: s.start, end: s.end, label: s.count > 1 ? `${s.kind} ×${s.count}` : s.label,
      ...(s.chip ? { chip: s.chip } : {}),
    });
    return { host: this.host.map(copy), device: this.devices.flatMap((spans) => (spans ?? []).map(copy)) };
  }
}
