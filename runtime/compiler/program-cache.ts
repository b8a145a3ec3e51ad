// The compile cache: one executable per structural signature. On a miss it says what
// changed when only shapes differ from an earlier program (the profiler's recompile warning).
import { emit, emitPerOp, profiling } from '../profiler/events.js';
import type { Shape } from '../shape.js';
import type { BoundProgram } from './bind-program.js';
import type { Program } from './program.js';

export interface CompiledEntry {
  readonly id: number;
  readonly hash: string;
  readonly program: Program;
  readonly label: string;
}

export class ProgramCache {
  private readonly entries = new Map<string, CompiledEntry>();
  private readonly byId = new Map<number, CompiledEntry>();
  private readonly shapesByStructure = new Map<string, readonly Shape[]>();
  hits = 0;
  misses = 0;
  /** The program compiled last (for %program). */
  last: CompiledEntry | undefined;

  constructor(private readonly compile: (program: Program, label: string) => number) {}

  lookup(bp: BoundProgram): number {
    const hit = this.entries.get(bp.signature);
    if (hit) {
      this.hits++;
      if (profiling.perOp) emitPerOp({ kind: 'cache', program: hit.id, hash: hit.hash, hit: true, nodes: hit.program.nodes.length });
      return hit.id;
    }
    this.misses++;
    const program = bp.program();
    const label = bp.label();
    const entry = { id: this.compile(program, label), hash: fnv1a(bp.signature), program, label };
    this.entries.set(bp.signature, entry);
    this.byId.set(entry.id, entry);
    this.last = entry;
    if (profiling.on) this.emitMiss(bp, entry);
    this.shapesByStructure.set(bp.structure(), program.inputs.map((v) => v.shape));
    return entry.id;
  }

  /** A compiled program by the id that profiler events carry. */
  get(id: number): CompiledEntry | undefined {
    return this.byId.get(id);
  }

  size(): number {
    return this.entries.size;
  }

  private emitMiss(bp: BoundProgram, entry: CompiledEntry): void {
    const before = this.shapesByStructure.get(bp.structure());
    const changed = before ? describeShapeChange(before, entry.program.inputs.map((v) => v.shape)) : undefined;
    emit({ kind: 'cache', program: entry.id, hash: entry.hash, hit: false, changed, nodes: entry.program.nodes.length });
  }
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
