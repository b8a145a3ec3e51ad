// The profile's figures as labelled rows, in one order for every renderer (text and HTML
// show the same thing).
import { formatBytes, formatCount, formatMs, formatRate } from './format.js';
import type { ChipsFigures, ProfileData, ProfileWarning, ProgramFigures } from './profile-data.js';

export interface FigureRow {
  readonly label: string;
  readonly value: string;
}

export function heading(d: ProfileData): string {
  const modes = d.modes.length > 1 ? `${d.modes.join(' + ')} modes` : `${d.modes[0] ?? d.mode} mode`;
  return `TPU profile · ${d.title} · ${modes} · ${d.state === 'final' ? 'final' : 'running…'}`;
}

export function figureRows(d: ProfileData): FigureRow[] {
  const m = d.memory;
  return [
    { label: 'wall time', value: formatMs(d.wallMs) },
    { label: 'host dispatch', value: formatMs(d.hostDispatchMs) },
    { label: 'device busy', value: formatMs(d.deviceBusyMs) },
    { label: 'host waits', value: `${d.waits.count} (${formatMs(d.waits.ms)})` },
    { label: 'ops dispatched', value: String(d.ops) },
    { label: 'programs run', value: String(d.programsRun) },
    { label: 'compiles', value: `${d.compiles.count} (${formatMs(d.compiles.ms)})` },
    { label: 'cache hit rate', value: `${formatRate(d.cache.hitRate)} (${d.cache.hits} of ${d.cache.hits + d.cache.misses})` },
    { label: 'queue depth', value: `${d.queueDepth.now} (max ${d.queueDepth.max})` },
    { label: 'fused regions', value: String(d.regions) },
    { label: 'to device', value: `${formatBytes(d.transfers.toDevice.bytes)} (${d.transfers.toDevice.count})` },
    { label: 'from device', value: `${formatBytes(d.transfers.toHost.bytes)} (${d.transfers.toHost.count})` },
    { label: 'live memory', value: `${formatBytes(m.liveBytes)} (${m.liveTensors} tensor${m.liveTensors === 1 ? '' : 's'})` },
    { label: 'peak memory', value: `${formatBytes(m.peakBytes)} of ${m.capacity}` },
    ...(d.chips ? chipRows(d.chips) : []),
  ];
}

/** With several chips: live memory chip by chip, and the collectives with the bytes the chips sent each other, in all and by collective. */
function chipRows(c: ChipsFigures): FigureRow[] {
  const ops = Object.entries(c.collectives.byOp).map(([op, f]) => `${op} ${f.count} (${formatBytes(f.bytes)})`).join(', ');
  const x = c.xlaCollectives;
  return [
    { label: 'chip memory', value: c.memory.map((m) => formatBytes(m.liveBytes)).join(' / ') },
    { label: 'collectives', value: c.collectives.count ? `${c.collectives.count} (${formatBytes(c.collectives.bytes)} sent, ${formatMs(c.collectives.ms)}; ${ops})` : '0' },
    ...(x
      ? [{
        label: 'XLA:TPU collectives',
        value: `${x.count} (${formatBytes(x.bytes)} of operands; ${Object.entries(x.byOp).map(([op, f]) => `${op} ${f.count} (${formatBytes(f.bytes)})`).join(', ')}); ` +
          `per chip ${x.perChip.map((p) => formatBytes(p.bytes)).join(' / ')}`,
      }]
      : []),
  ];
}

/**
 * Columns of the per-program table: the estimate column says whose it is (XLA:TPU's, or
 * the roofline's); XLA:TPU's figures add its HBM peak and fusions, and the collectives it
 * compiled with the bytes of their operands on one chip.
 */
export function programColumns(d: ProfileData): { header: string; cell: (p: ProgramFigures) => string; right?: boolean }[] {
  const xla = d.programs.some((p) => p.xla);
  return [
    { header: 'runs', cell: (p) => String(p.runs), right: true },
    { header: 'device', cell: (p) => formatMs(p.deviceMs), right: true },
    xla
      ? { header: `est. ${d.chip.name}`, cell: (p) => `${formatMs(p.estimateMs)} ${p.xla ? 'XLA:TPU' : `${p.bound} roofline`}`, right: true }
      : { header: `est. ${d.chip.name} (roofline)`, cell: (p) => `${formatMs(p.estimateMs)} ${p.bound}`, right: true },
    { header: 'FLOPs', cell: (p) => formatCount(p.xla?.flops ?? p.flops), right: true },
    { header: 'HBM bytes', cell: (p) => formatBytes(p.xla?.bytesAccessed ?? p.bytes), right: true },
    ...(xla
      ? [
        { header: 'HBM peak', cell: (p: ProgramFigures) => (p.xla ? formatBytes(p.xla.peakBytes) : '-'), right: true },
        { header: 'fusions', cell: (p: ProgramFigures) => (p.xla ? String(p.xla.fusions) : '-'), right: true },
      ]
      : []),
    ...(d.programs.some((p) => p.xla?.collectives)
      ? [{ header: 'collectives', cell: (p: ProgramFigures) => (p.xla?.collectives ? `${p.xla.collectives.count} (${formatBytes(p.xla.collectives.bytes)})` : '-'), right: true }]
      : []),
    { header: 'program', cell: (p) => p.label },
  ];
}

/** Programs by device time, at most `limit`; the rest counted. */
export function topPrograms(d: ProfileData, limit = 8): { shown: ProgramFigures[]; more: number } {
  const sorted = [...d.programs].sort((a, b) => b.deviceMs - a.deviceMs);
  return { shown: sorted.slice(0, limit), more: Math.max(0, sorted.length - limit) };
}

export function warningPlace(w: ProfileWarning): string {
  return `${w.site.where}${w.count > 1 ? ` (×${w.count})` : ''}`;
}

/** Who estimated the programs' chip time, for the table's caption; undefined: the roofline alone. */
export function xlaEstimateSource(d: ProfileData): string | undefined {
  return d.programs.some((p) => p.xla) ? [...new Set(d.programs.map((p) => p.estimatedBy))].join(' and ') : undefined;
}
