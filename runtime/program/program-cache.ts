// The compile cache: one executable per structural signature, at most `capacity()` of them:
// the least recently used is evicted (its executable freed on the device) when a compile
// goes over. On a miss it says what changed when only shapes differ from an earlier program
// (the profiler's recompile warning).
import { emit, emitPerOp, profiling } from '../profiler/events.js';
import type { Shape } from '../shape.js';
import type { Primitive } from '../primitive.js';
import { chipSession, chipSessions, sessionNumber } from '../device/current.js';
import { settings } from '../device/settings.js';
import { RegionBinding, SingleOpBinding, type BoundProgram, type OperandTypes } from './bind-program.js';
import { RegionKey, structureHash } from './region-key.js';
import type { Program } from './program.js';
import { intermediatePeakBytes } from './intermediate-bytes.js';
import { hasCollective } from './collective-nodes.js';

export interface CompiledEntry {
  readonly id: number;
  readonly hash: string;
  readonly program: Program;
  readonly label: string;
  /** Device bytes its intermediate values need at once while it runs (intermediate-bytes.ts). */
  readonly intermediateBytes: number;
  /** Whether it holds collectives (its launch meets other chips). */
  readonly collectives: boolean;
}

/** A cached program and its bookkeeping. */
interface Slot {
  readonly entry: CompiledEntry;
  readonly signature: string;
  readonly structure: string;
  readonly shapes: readonly Shape[];
  /** Lookup clock of its last use (least recent is evicted first). */
  used: number;
  evicted: boolean;
  /** Its bucket in regionsByHash, when a region binding found it (undefined: none). */
  regionHash?: number;
}

export interface ProgramCacheBackend {
  /** Sends the program to the chip's device thread to compile; returns its id. */
  compile(program: Program, label: string, chip: number): number;
  /** Frees an evicted program's executable on the device. */
  release(id: number): void;
  /** The most programs kept. */
  capacity(): number;
}

export class ProgramCache {
  private readonly bySignature = new Map<string, Slot>();
  private readonly byId = new Map<number, Slot>();
  private readonly shapesByStructure = new Map<string, readonly Shape[]>();
  // Strict mode looks a program up for every op: building and hashing the signature costs
  // more than the rest of the dispatch, so each op remembers the program of its last call
  // and the operand types it had, compared field by field.
  private readonly lastOfOp = new Map<Primitive, { types: OperandTypes; slot: Slot }>();
  // Regions alike: the structures of regions bound before, by a hash of their structure,
  // compared with a new binding before its signature is built (region-key.ts).
  private readonly regionsByHash = new Map<number, { key: RegionKey; slot: Slot }[]>();
  private clock = 0;
  hits = 0;
  misses = 0;
  evictions = 0;
  /** The program compiled last (for %program). */
  last: CompiledEntry | undefined;

  constructor(private readonly device: ProgramCacheBackend) {}

  lookup(bp: BoundProgram): number {
    const single = bp instanceof SingleOpBinding ? bp : undefined;
    if (single) {
      const last = this.lastOfOp.get(single.op);
      if (last !== undefined && !last.slot.evicted && single.sameTypes(last.types)) return this.hit(last.slot);
    }
    const region = bp instanceof RegionBinding ? bp : undefined;
    const hash = region ? structureHash(region) : 0;
    if (region) {
      const bucket = this.regionsByHash.get(hash);
      if (bucket) for (const r of bucket) if (r.key.matches(region)) return this.hit(r.slot);
    }
    let slot = this.bySignature.get(bp.signature);
    if (slot) this.hit(slot);
    else slot = this.compile(bp);
    if (single) this.lastOfOp.set(single.op, { types: single.types(), slot });
    if (region) this.rememberRegion(hash, new RegionKey(region), slot);
    return slot.entry.id;
  }

  private rememberRegion(hash: number, key: RegionKey, slot: Slot): void {
    const bucket = this.regionsByHash.get(hash);
    if (bucket) bucket.push({ key, slot });
    else this.regionsByHash.set(hash, [{ key, slot }]);
    slot.regionHash = hash;
  }

  /** A compiled program by the id that profiler events carry (undefined once evicted). */
  get(id: number): CompiledEntry | undefined {
    return this.byId.get(id)?.entry;
  }

  size(): number {
    return this.bySignature.size;
  }

  /** Evicts the least recently used programs until at most capacity() are kept. */
  trim(): void {
    const capacity = this.device.capacity();
    while (this.bySignature.size > capacity) {
      let oldest: Slot | undefined;
      for (const s of this.bySignature.values()) if (!oldest || s.used < oldest.used) oldest = s;
      this.evict(oldest!);
    }
  }

  private hit(slot: Slot): number {
    this.hits++;
    slot.used = ++this.clock;
    const e = slot.entry;
    if (profiling.perOp) emitPerOp({ kind: 'cache', program: e.id, hash: e.hash, hit: true, nodes: e.program.nodes.length });
    return e.id;
  }

  private compile(bp: BoundProgram): Slot {
    this.misses++;
    const program = bp.program();
    const label = bp.label();
    const entry = {
      id: this.device.compile(program, label, bp.outputs[0]?.chip ?? 0), hash: fnv1a(bp.signature), program, label,
      intermediateBytes: intermediatePeakBytes(program), collectives: hasCollective(program.nodes),
    };
    const shapes = program.inputs.map((v) => v.shape);
    const slot: Slot = { entry, signature: bp.signature, structure: bp.structure(), shapes, used: ++this.clock, evicted: false };
    this.bySignature.set(slot.signature, slot);
    this.byId.set(entry.id, slot);
    this.last = entry;
    for (const listener of compiledListeners) listener(entry, bp.signature);
    if (profiling.on) this.emitMiss(slot);
    this.shapesByStructure.set(slot.structure, shapes);
    this.trim();
    return slot;
  }

  private evict(slot: Slot): void {
    slot.evicted = true;
    this.evictions++;
    this.bySignature.delete(slot.signature);
    this.byId.delete(slot.entry.id);
    this.forgetRegions(slot);
    if (this.shapesByStructure.get(slot.structure) === slot.shapes) this.shapesByStructure.delete(slot.structure);
    this.device.release(slot.entry.id);
  }

  private forgetRegions(slot: Slot): void {
    if (slot.regionHash === undefined) return;
    const bucket = this.regionsByHash.get(slot.regionHash)!.filter((r) => r.slot !== slot);
    if (bucket.length) this.regionsByHash.set(slot.regionHash, bucket);
    else this.regionsByHash.delete(slot.regionHash);
  }

  private emitMiss(slot: Slot): void {
    const { entry } = slot;
    const before = this.shapesByStructure.get(slot.structure);
    const changed = before ? describeShapeChange(before, slot.shapes) : undefined;
    emit({ kind: 'cache', program: entry.id, hash: entry.hash, hit: false, changed, nodes: entry.program.nodes.length });
  }
}

type CompiledListener = (entry: CompiledEntry, signature: string) => void;
const compiledListeners = new Set<CompiledListener>();

/** Calls `listener` for every program compiled from now on (XLA:TPU in the loop compiles it too). */
export function onProgramCompiled(listener: CompiledListener): () => void {
  compiledListeners.add(listener);
  return () => compiledListeners.delete(listener);
}

let cache: ProgramCache | null = null;
let cacheSession = 0;

/** The program cache of the current session: its programs die with it (tpu.reset()). */
export function programCache(): ProgramCache {
  if (cache === null || cacheSession !== sessionNumber()) {
    cacheSession = sessionNumber();
    let nextId = 1;
    cache = new ProgramCache({
      compile: (p, label, chip) => {
        const id = nextId++;
        chipSession(chip).compile(p, label, id);
        return id;
      },
      release: (id) => chipSessions().forEach((s) => s.releaseProgram(id)),
      capacity: settings.programCacheSize,
    });
  }
  return cache;
}

/** "input 0 dim 1: 128 -> 256" for the first differing dimension. */
function describeShapeChange(before: readonly Shape[], after: readonly Shape[]): string | undefined {
  for (let i = 0; i < after.length; i++) {
    const a = before[i] ?? [];
    const b = after[i]!;
    for (let d = 0; d < Math.max(a.length, b.length); d++) {
      if (a[d] !== b[d]) return `input ${i} dim ${d}: ${a[d] ?? '-'} -> ${b[d] ?? '-'}`;
    }
  }
  return undefined;
}

function fnv1a(s: string): string {
  let h = 0x811c9dc5;
  for (let i = 0; i < s.length; i++) {
    h ^= s.charCodeAt(i);
    h = Math.imul(h, 0x01000193);
  }
  return (h >>> 0).toString(16).padStart(8, '0');
}
