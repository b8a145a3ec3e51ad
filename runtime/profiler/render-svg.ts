// image/svg+xml timeline of a profile: a host lane (dispatch and waits, compiles on a
// thin strip above them) and a device lane (each program) per chip, on one time axis. Every
// span has a <title>, which browsers show on hover.
import { escapeXml, formatMs } from './format.js';
import type { ProfileData, SpanKind, TimelineSpan } from './profile-data.js';

const WIDTH = 760;
const LEFT = 64;
const RIGHT = 12;
/** Vertical distance between the device lanes of successive chips. */
const LANE = 24;
const COLORS: Record<SpanKind, string> = { dispatch: '#4e79a7', compile: '#f28e2b', wait: '#bab0ac', program: '#59a14f' };

export function renderTimelineSvg(d: ProfileData): string {
  const end = Math.max(d.wallMs, ...d.timeline.host.map((s) => s.end), ...d.timeline.device.map((s) => s.end), 0.001);
  const plot = WIDTH - LEFT - RIGHT;
  const x = (t: number) => LEFT + (Math.max(0, t) / end) * plot;
  const rect = (s: TimelineSpan, y: number, h: number) => {
    const w = Math.max(0.5, x(s.end) - x(s.start));
    const title = `${s.label}: ${formatMs(s.end - s.start)} (at ${formatMs(s.start)})`;
    return `<rect x="${x(s.start).toFixed(2)}" y="${y}" width="${w.toFixed(2)}" height="${h}" fill="${COLORS[s.kind]}" class="${s.kind}"><title>${escapeXml(title)}</title></rect>`;
  };
  const host = d.timeline.host.map((s) => (s.kind === 'compile' ? rect(s, 18, 6) : rect(s, 26, 18)));
  // One device lane per chip (chip 0 only: the single "device" lane).
  const chips = d.chips ? d.chips.memory.length : 1;
  const device = d.timeline.device.map((s) => rect(s, 62 + LANE * (s.chip ?? 0), 18));
  const axis = 86 + LANE * (chips - 1);
  const ticks = axisTicks(end).map((t) =>
    `<line x1="${x(t).toFixed(2)}" y1="${axis}" x2="${x(t).toFixed(2)}" y2="${axis + 4}" stroke="#666"/>` +
    `<text x="${x(t).toFixed(2)}" y="${axis + 16}" text-anchor="middle">${escapeXml(formatMs(t))}</text>`);
  const legend = (Object.keys(COLORS) as SpanKind[]).map((k, i) =>
    `<rect x="${LEFT + i * 90}" y="4" width="10" height="10" fill="${COLORS[k]}"/><text x="${LEFT + i * 90 + 14}" y="13">${k}</text>`);
  const lanes = chips === 1 ? '<text x="4" y="74">device</text>' : Array.from({ length: chips }, (_, c) => `<text x="4" y="${74 + LANE * c}">chip ${c}</text>`).join('');
  const height = axis + 24;
  return [
    `<svg xmlns="http://www.w3.org/2000/svg" width="${WIDTH}" height="${height}" viewBox="0 0 ${WIDTH} ${height}" font-family="sans-serif" font-size="10">`,
    `<title>${escapeXml(`timeline of ${d.title}: ${formatMs(d.wallMs)} wall`)}</title>`,
    ...legend,
    `<text x="4" y="38">host</text>${lanes}`,
    `<line x1="${LEFT}" y1="${axis}" x2="${WIDTH - RIGHT}" y2="${axis}" stroke="#666"/>`,
    `<g class="host">${host.join('')}</g>`,
    `<g class="device">${device.join('')}</g>`,
    ...ticks,
    '</svg>',
  ].join('\n');
}

/** About 5 round ticks (1, 2 or 5 times a power of ten) from 0 to end. */
function axisTicks(end: number): number[] {
  const raw = end / 5;
  const pow = 10 ** Math.floor(Math.log10(raw));
  const step = [1, 2, 5, 10].map((m) => m * pow).find((s) => s >= raw)!;
  const ticks: number[] = [];
  for (let t = 0; t <= end + 1e-9; t += step) ticks.push(t);
  return ticks;
}
