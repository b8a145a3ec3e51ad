// The profiler's warnings, each with the line that caused it, counted per line:
// recompilation after a shape change, host syncs repeated at one line (a loop), fused
// regions cut early, DTensor ops that had no sharding rule, and matmul operands whose dims the TPU must pad: by the tiled layout
// XLA:TPU gave them where it compiled the program, else estimated with 8 x 128 tiles.
import { formatShape, numel, type Shape } from '../shape.js';
import type { DType } from '../dtype.js';
import { elementBytes, tiledBytes, tiledDims, type TiledArray } from '../device/tpu-loop/tiled-layout.js';
import { REGION_CAP } from '../modes/fused.js';
import type { ProfileWarning, WarningKind } from './profile-data.js';
import { mapSite, siteHere, siteLater, type ProfileSite, type SiteMapper } from './site.js';

/** A TPU array is stored in tiles of 8 rows (sublanes) by 128 columns (lanes): the estimate without XLA:TPU. */
export const TILE_ROWS = 8;
export const TILE_COLS = 128;

/** Most actionable first. */
const WARNING_ORDER: readonly WarningKind[] = ['hbm', 'recompile', 'sharding-fallback', 'sync-in-loop', 'region-cut', 'matmul-padding'];
/** Region cuts that are where the user asked for the values: never "early". */
const PLANNED_CUTS = new Set(['sync', 'cancelled']);

/** A matmul operand's shape seen at dispatch, counted per line it was first seen at. */
interface MatmulOperand {
  role: 'input' | 'other';
  shape: Shape;
  dtype: DType;
  site: ProfileSite;
  count: number;
}

/** The layout XLA:TPU gave an array of this dtype and shape, when known. */
export type LayoutOf = (dtype: DType, shape: Shape) => TiledArray | undefined;

export class WarningBook {
  /** Matmul operands by role, dtype and shape: the line is captured at the first one. */
  private readonly operands = new Map<string, MatmulOperand>();
  private readonly waitsBySite = new Map<string, { reason: string; count: number; ms: number }>();
  /** Shape changes per (line, program): one warning that lists them. */
  private readonly recompiles = new Map<string, { label: string; site: ProfileSite; changes: string[] }>();
  /** Early cuts by reason: the first cut's size and line, and how many were followed by more ops. */
  private readonly cuts = new Map<string, { nodes: number; site: () => ProfileSite; count: number }>();
  /** The last early cut, and the fused-op count when it happened. */
  private pendingCut: { reason: string; fusedOps: number } | undefined;
  /** DTensor ops run on replicated inputs, by line and message. */
  private readonly fallbacks = new Map<string, ProfileWarning & { count: number }>();
  /** The last captured line of a wait, per reason. */
  private readonly lastWaitSite = new Map<string, string>();

  constructor(private readonly mapper: SiteMapper | undefined) {}

  /** A DTensor op with no sharding rule gathered its inputs (counted per line and message). */
  shardingFallback(message: string): void {
    const site = siteHere(this.mapper);
    const key = `${site.where}|${message}`;
    const known = this.fallbacks.get(key);
    if (known) known.count++;
    else this.fallbacks.set(key, { kind: 'sharding-fallback', site, message, count: 1 });
  }

  /** A cache miss for a program compiled before with other shapes. */
  recompiled(changed: string, label: string): void {
    const site = siteHere(this.mapper); // at a compile, which costs far more than the capture
    const key = `${site.where}|${label}`;
    const r = this.recompiles.get(key) ?? { label, site, changes: [] };
    r.changes.push(changed);
    this.recompiles.set(key, r);
  }

  /**
   * `fusedOps`: the count of fused-mode ops dispatched so far. If the region was cut early
   * and fused ops followed the cut, that cut is worth a warning.
   */
  settleCut(fusedOps: number): void {
    const pending = this.pendingCut;
    if (pending === undefined || fusedOps <= pending.fusedOps) return;
    this.pendingCut = undefined;
    this.cuts.get(pending.reason)!.count++;
  }

  /** A region cut; its line is captured once per reason, at the first cut (often inside a loop: read later). */
  regionCut(reason: string, nodes: number, fusedOps: number): void {
    this.settleCut(fusedOps);
    if (PLANNED_CUTS.has(reason)) {
      this.pendingCut = undefined;
      return;
    }
    if (!this.cuts.has(reason)) this.cuts.set(reason, { nodes, site: siteLater(this.mapper), count: 0 });
    this.pendingCut = { reason, fusedOps };
  }

  /** Matmul operands that may be padded (judged when the warnings are listed, with XLA:TPU's layouts if they came). */
  matmulOperands(operands: readonly { readonly shape: Shape; readonly dtype: DType }[]): void {
    for (let i = 0; i < operands.length; i++) {
      const { shape, dtype } = operands[i]!;
      // The layout XLA:TPU picks may pad a shape the estimate finds aligned (a transposed
      // layout): only shapes that fill every tile whichever two dims are minor are left out.
      if (!paddedShape(shape) && (shape.length < 2 || shape[shape.length - 2]! % TILE_COLS === 0)) continue;
      const role = i === 0 ? 'input' : 'other';
      const key = `${role}|${dtype}|${shape.join(',')}`;
      const known = this.operands.get(key);
      if (known) known.count++;
      else this.operands.set(key, { role, shape: [...shape], dtype, site: siteHere(this.mapper), count: 1 });
    }
  }

  /** A host wait at a sync point; the same line waiting again means a sync inside a loop. */
  waited(reason: string, site: string, ms: number): void {
    if (reason.startsWith('debug')) return; // debug mode waits at every op by design
    // Past the capture budget, a wait counts at the last line seen waiting for the same reason.
    const where = site || this.lastWaitSite.get(reason);
    if (!where) return;
    this.lastWaitSite.set(reason, where);
    const w = this.waitsBySite.get(where) ?? { reason, count: 0, ms: 0 };
    w.count++;
    w.ms += ms;
    this.waitsBySite.set(where, w);
  }

  /** `layoutOf`: XLA:TPU's layouts of the recording's programs (padding from them, else estimated). */
  list(layoutOf: LayoutOf = () => undefined): ProfileWarning[] {
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
    const cuts = [...this.cuts].filter(([, c]) => c.count > 0).map(([reason, c]): ProfileWarning => ({
      kind: 'region-cut', site: c.site(), count: c.count,
      message: `fused region cut early by ${describeCut(reason)} after ${c.nodes} op${c.nodes === 1 ? '' : 's'}; the ops after it run as another program`,
    }));
    const padding = [...this.operands.values()].flatMap(({ role, shape, dtype, site, count }): ProfileWarning[] => {
      const message = paddingMessage(`matmul ${role}`, shape, dtype, layoutOf(dtype, shape));
      return message ? [{ kind: 'matmul-padding', message, site, count }] : [];
    });
    const all = [...recompiles, ...this.fallbacks.values(), ...cuts, ...padding, ...loops];
    return all.sort((a, b) => WARNING_ORDER.indexOf(a.kind) - WARNING_ORDER.indexOf(b.kind));
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

/** What padding costs an operand: by XLA:TPU's layout when known, else by 8 x 128 tiles (said to be an estimate). */
export function paddingMessage(what: string, shape: Shape, dtype: DType, layout: TiledArray | undefined): string | undefined {
  if (layout) {
    const bytes = tiledBytes(layout);
    const valueBytes = numel(shape) * (elementBytes(layout) ?? 0);
    if (bytes === undefined || bytes <= valueBytes) return undefined;
    return `${what} ${formatShape(shape)} ${dtype}: XLA:TPU stores it as ${formatShape(tiledDims(layout))} (layout {${layout.layout}}): ` +
      `${bytes.toLocaleString('en-US')} bytes for ${valueBytes.toLocaleString('en-US')} (${Math.round((1 - valueBytes / bytes) * 100)}% padding)`;
  }
  const padded = paddedShape(shape);
  if (!padded) return undefined;
  return `${what} ${formatShape(shape)}: ${misfits(shape).join(', ')}; the TPU pads it to ${formatShape(padded)} ` +
    `(${Math.round((1 - numel(shape) / numel(padded)) * 100)}% padding; an estimate with 8 x 128 tiles: XLA:TPU's layout of it is not known)`;
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
