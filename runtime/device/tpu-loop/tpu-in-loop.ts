// The TPU compiler in the loop: every program the session compiles for its executor is also
// lowered to StableHLO and compiled by XLA:TPU for the session's chip, in the background
// (one compile at a time, on a libuv thread), so the profile can show XLA:TPU's figures.
// A program with collectives is one chip's part of an SPMD program: its replica groups name
// the session's chips, so it compiles for a slice of that many chips, one partition each.
// Results are kept per program signature in memory and per module on disk. Loading this
// module subscribes it to the program cache (the runtime loads it with tpu.device()).
import { settings } from '../settings.js';
import { sessionNumber } from '../current.js';
import type { ChipGeneration } from '../chips.js';
import { lowerToStableHlo } from '../stablehlo/index.js';
import { compileForTpu, tpuCompilerInfo, tpuTopology } from '../pjrt/index.js';
import type { Program } from '../../program/program.js';
import { onProgramCompiled } from '../../program/program-cache.js';
import { xlaFigures } from './xla-figures.js';
import { cacheKey, readCached, writeCached, type CachedCompile } from './disk-cache.js';

export interface XlaResult extends CachedCompile {
  /** e.g. 'v5e:1x1', or 'v5e:2x2' for a collective program of 4 chips. */
  readonly topology: string;
  readonly chip: ChipGeneration;
  /** Where it came from: compiled now, or found on disk. */
  readonly source: 'compiled' | 'disk';
}

/** A one-chip slice of the generation (libtpu names v4 and v5p slices in 3 dims). */
export function chipTopology(chip: ChipGeneration): string {
  return sliceTopology(chip, 1);
}

/**
 * A slice of `chips` chips of the generation, as square as the count allows, named as Cloud
 * TPU names slices (dims ascending, 1s last): 4 → 'v5e:2x2', 8 → 'v5e:2x4', 'v4:2x2x1',
 * 'v4:2x2x2'; 2 → 'v5e:2x1' (libtpu 0.0.42 compiles collectives for these with no TPU).
 */
export function sliceTopology(chip: ChipGeneration, chips: number): string {
  const dims = balancedDims(chips, chip === 'v4' || chip === 'v5p' ? 3 : 2).sort((a, b) => ((a === 1) !== (b === 1) ? (a === 1 ? 1 : -1) : a - b));
  return `${chip}:${dims.join('x')}`;
}

/** n as k factors, each the largest divisor of what is left not above its k-th root. */
function balancedDims(n: number, k: number): number[] {
  if (k === 1) return [n];
  let a = Math.floor(n ** (1 / k) + 1e-9);
  while (n % a !== 0) a--;
  return [a, ...balancedDims(n / a, k - 1)];
}

/** TPU_KERNEL_TPU_COMPILE=off keeps XLA:TPU out of the loop. */
export function tpuCompileSwitchedOff(env: NodeJS.ProcessEnv = process.env): boolean {
  return env.TPU_KERNEL_TPU_COMPILE === 'off';
}

type Listener = (programId: number, result: XlaResult) => void;

class TpuInLoop {
  private readonly bySignature = new Map<string, Promise<XlaResult | undefined>>();
  // Program ids count from 1 in each session (tpu.reset()): these hold the current session's.
  private session = 0;
  private pendingById = new Map<number, Promise<XlaResult | undefined>>();
  private doneById = new Map<number, XlaResult>();
  private readonly listeners = new Set<Listener>();
  private queue: Promise<unknown> = Promise.resolve();
  /** Why nothing is compiled (libtpu missing), once known. */
  unavailable: string | undefined;
  /** Compiles that failed (a primitive XLA:TPU rejects), with the reason: never a cell's error. */
  readonly failures: { programId: number; label: string; reason: string }[] = [];
  compiled = 0;
  fromDisk = 0;

  /** Called for every program compiled for the executor; returns at once. `partitions`: the chips an SPMD program spans. */
  submit(programId: number, signature: string, program: Program, label: string, partitions = 1): void {
    if (tpuCompileSwitchedOff() || this.unavailable !== undefined) return;
    const chip = settings.chip();
    const key = `${chip}\n${partitions}\n${signature}`;
    let result = this.bySignature.get(key);
    if (!result) {
      // Queued behind the previous program: lowering and disk reads happen between cells'
      // synchronous work, never inside it.
      result = this.queue.then(() => this.compile(program, chip, partitions)).catch((e: Error) => {
        this.failures.push({ programId, label, reason: e.message });
        return undefined;
      });
      this.queue = result;
      this.bySignature.set(key, result);
    }
    const { pendingById, doneById } = this.ofSession();
    pendingById.set(programId, result);
    void result.then((r) => {
      pendingById.delete(programId);
      if (!r) return;
      doneById.set(programId, r);
      for (const l of this.listeners) l(programId, r);
    });
  }

  /** XLA:TPU's result for a program id, when it has arrived. */
  result(programId: number): XlaResult | undefined {
    return this.ofSession().doneById.get(programId);
  }

  /** Resolves when every listed program's compile has settled (arrived, failed or never started). */
  async settled(programIds: Iterable<number>): Promise<void> {
    const { pendingById } = this.ofSession();
    const waits = [...programIds].map((id) => pendingById.get(id)).filter((p) => p !== undefined);
    await Promise.all(waits);
  }

  /** Calls `listener` for each result that arrives; returns the unsubscribe. */
  onResult(listener: Listener): () => void {
    this.listeners.add(listener);
    return () => this.listeners.delete(listener);
  }

  private ofSession(): { pendingById: Map<number, Promise<XlaResult | undefined>>; doneById: Map<number, XlaResult> } {
    if (this.session !== sessionNumber()) {
      this.session = sessionNumber();
      this.pendingById = new Map();
      this.doneById = new Map();
    }
    return { pendingById: this.pendingById, doneById: this.doneById };
  }

  private async compile(program: Program, chip: ChipGeneration, partitions: number): Promise<XlaResult | undefined> {
    const compiler = await tpuCompilerInfo();
    if (!compiler.available) {
      this.unavailable = compiler.reason;
      return undefined;
    }
    const topology = sliceTopology(chip, partitions);
    const { text } = lowerToStableHlo(program);
    const key = cacheKey(text, topology, (await tpuTopology(topology)).platformVersion);
    const cached = await readCached(key);
    if (cached) {
      this.fromDisk++;
      return { ...cached, topology, chip, source: 'disk' };
    }
    const compiled = await compileForTpu(text, { topology, numPartitions: partitions });
    const value: CachedCompile = { figures: xlaFigures(compiled), hloText: compiled.asText(), compileMs: compiled.compileMs };
    this.compiled++;
    await writeCached(key, value).catch(() => undefined); // a read-only cache folder costs only a recompile later
    return { ...value, topology, chip, source: 'compiled' };
  }
}

export const tpuInLoop = new TpuInLoop();
// A program with collectives compiled for one chip would name chips that do not exist (libtpu
// aborts the process on them): it compiles for a slice of the session's chips.
onProgramCompiled((entry, signature) => {
  tpuInLoop.submit(entry.id, signature, entry.program, entry.label, entry.collectives ? settings.chips() : 1);
});
