// The profiler's warnings, each with the line that caused it, counted per line:
// recompilation after a shape change, host syncs repeated at one line (a loop), fused
// regions cut early, and matmul operands whose dims the TPU must pad (8 x 128 tiles).
import { formatShape, numel, type Shape } from '../shape.js';
import { REGION_CAP } from '../modes/fused.js';
import type { ProfileWarning, WarningKind } from './profile-data.js';
import { mapSite, siteHere, type ProfileSite, type SiteMapper } from './site.js';

/** A TPU array is stored in tiles of 8 rows (sublanes) by 128 columns (lanes). */
export const TILE_ROWS = 8;
export const TILE_COLS = 128;

/** Most actionable first. */
const WARNING_ORDER: readonly WarningKind[] = ['recompile', 'sync-in-loop', 'region-cut', 'matmul-padding'];
/** Region cuts that are where the user asked for the values: never "early". */
const PLANNED_CUTS = new Set(['sync', 'cancelled']);
/** Stack captures per warning kind and profile: beyond this, repeats are counted at the last line seen. */
const SITES_PER_KIND = 64;

interface Entry {
  kind: WarningKind;
  message: string;
  site: ProfileSite;
  count: number;
}

export class WarningBook {
  private readonly entries = new Map<string, Entry>();
  private readonly captures = new Map<WarningKind, number>();
  private readonly lastSite = new Map<WarningKind, ProfileSite>();
  private readonly waitsBySite = new Map<string, { reason: string; count: number; ms: number }>();
  /** Shape changes per (line, program): one warning that lists them. */
  private readonly recompiles = new Map<string, { label: string; site: ProfileSite; changes: string[] }>();
  private pendingCut: { reason: string; nodes: number; site: ProfileSite } | undefined;

  constructor(private readonly mapper: SiteMapper | undefined) {}

  /** A cache miss for a program compiled before with other shapes. */
  recompiled(changed: string, label: string): void {
    const site = this.site('recompile');
    const key = `${site.where}|${label}`;
    const r = this.recompiles.get(key) ?? { label, site, changes: [] };
    r.changes.push(changed);
    this.recompiles.set(key, r);
  }

  /** A fused-mode op: if the region was cut early just before, that cut is worth a warning. */
  fusedOp(): void {
    const cut = this.pendingCut;
    if (!cut) return;
    this.pendingCut = undefined;
    const key = `region-cut|${cut.site.where}|${cut.reason}`;
    this.bump(key, 'region-cut', cut.site,
      `fused region cut early by ${describeCut(cut.reason)} after ${cut.nodes} op${cut.nodes === 1 ? '' : 's'}; the ops after it run as another program`);
  }

  regionCut(reason: string, nodes: number): void {
    this.pendingCut = PLANNED_CUTS.has(reason) ? undefined : { reason, nodes, site: this.site('region-cut') };
  }

  /** A matmul operand (shape) whose last two dims are not multiples of the 8 x 128 tile. */
  matmulOperands(shapes: readonly Shape[]): void {
    for (let i = 0; i < shapes.length; i++) {
      const shape = shapes[i]!;
      const padded = paddedShape(shape);
      if (!padded) continue;
      const waste = 1 - numel(shape) / numel(padded);
      this.add('matmul-padding',
        `matmul ${i === 0 ? 'input' : 'other'} ${formatShape(shape)}: ${misfits(shape).join(', ')}; ` +
        `the TPU pads it to ${formatShape(padded)} (${Math.round(waste * 100)}% padding)`);
    }
  }

  /** A host wait at a sync point; the same line waiting again means a sync inside a loop. */
  waited(reason: string, frame: () => string, ms: number): void {
    if (reason.startsWith('debug')) return; // debug mode waits at every op by design
    const where = frame();
    const w = this.waitsBySite.get(where) ?? { reason, count: 0, ms: 0 };
    w.count++;
    w.ms += ms;
    this.waitsBySite.set(where, w);
  }

  list(): ProfileWarning[] {
    const loops: ProfileWarning[] = [];
    for (const [frame, w] of this.waitsBySite) {
      if (w.count < 2) continue;
      loops.push({
        kind: 'sync-in-loop', site: mapSite(frame, this.mapper), count: w.count,
        message: `host sync inside a loop: ${w.reason} waited for the device ${w.count} times here (${w.ms.toFixed(1)} ms); ` +
          'read results once after the loop so the device queue stays full',
      });
    }
    const recompiles = [...this.recompiles.values()].map(({ label, site, changes }): ProfileWarning => {
      const n = changes.length;
      const shown = n > 3 ? [...changes.slice(0, 3), `… (${n - 3} more)`] : changes;
      return {
        kind: 'recompile', site, count: n,
        message: `${label} recompiled${n > 1 ? ` ${n} times` : ''} because a shape changed: ${shown.join('; ')} (static shapes: each new shape is a new program)`,
      };
    });
    const all = [...recompiles, ...[...this.entries.values()].map((e) => ({ ...e })), ...loops];
    return all.sort((a, b) => WARNING_ORDER.indexOf(a.kind) - WARNING_ORDER.indexOf(b.kind));
  }

  private add(kind: WarningKind, message: string): void {
    const site = this.site(kind);
    this.bump(`${kind}|${site.where}|${message}`, kind, site, message);
  }

  private bump(key: string, kind: WarningKind, site: ProfileSite, message: string): void {
    const e = this.entries.get(key);
    if (e) e.count++;
    else this.entries.set(key, { kind, message, site, count: 1 });
  }

  /** Where the cell is now; after many captures of one kind, the last line seen (captures cost µs). */
  private site(kind: WarningKind): ProfileSite {
    const n = this.captures.get(kind) ?? 0;
    if (n >= SITES_PER_KIND) return this.lastSite.get(kind)!;
    this.captures.set(kind, n + 1);
    const site = siteHere(this.mapper);
    this.lastSite.set(kind, site);
    return site;
  }
}

export function paddedShape(shape: Shape): Shape | undefined {
  if (shape.length === 0) return undefined;
  const padded = [...shape];
  const last = shape.length - 1;
  padded[last] = Math.ceil(shape[last]! / TILE_COLS) * TILE_COLS;
  if (shape.length >= 2) padded[last - 1] = Math.ceil(shape[last - 1]! / TILE_ROWS) * TILE_ROWS;
  return padded.every((d, i) => d === shape[i]) ? undefined : padded;
}

function misfits(shape: Shape): string[] {
  const last = shape.length - 1;
  const out: string[] = [];
  if (shape.length >= 2 && shape[last - 1]! % TILE_ROWS) out.push(`dim ${last - 1} = ${shape[last - 1]} is not a multiple of ${TILE_ROWS}`);
  if (shape[last]! % TILE_COLS) out.push(`dim ${last} = ${shape[last]} is not a multiple of ${TILE_COLS}`);
  return out;
}

function describeCut(reason: string): string {
  if (reason === 'size cap') return `the size cap (${REGION_CAP} ops per region)`;
  if (reason === 'mode switch') return 'a mode switch';
  if (['data', 'dataSync', 'item', 'array'].includes(reason)) return `a host read (${reason}())`;
  return reason;
}
