// Ahead-of-time compile of StableHLO text by XLA:TPU for a named topology, on any machine
// where libtpu is installed (no TPU needed). Compiles run one at a time on a libuv pool
// thread, never on the JS thread.
import { rmSync } from 'node:fs';
import { mkdtemp, readdir, readFile, rm } from 'node:fs/promises';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { libtpu } from './libtpu.js';
import { tpuTopology } from './topology.js';
import { compileOptionsProto } from './compile-options.js';
import { PjrtError } from './errors.js';
import type { ExecutableHandle, NamedValues, PjrtAddon } from './native-addon.js';

export interface TpuCompileOptions {
  /** A named topology, e.g. 'v5e:2x2', 'v5p:2x2x1', 'v6e:2x2', 'v5e:1x1'. */
  readonly topology: string;
  /** SPMD partitions (devices of the topology the program spans); default 1. */
  readonly numPartitions?: number;
  /** Keep the optimized HLO as text for asText() (XLA dumps it; ~tens of ms). Default true. */
  readonly hloText?: boolean;
}

/** XLA:TPU's cost analysis (per device for SPMD programs); a property libtpu omits reads 0. */
export interface TpuCostAnalysis {
  readonly flops: number;
  readonly bytesAccessed: number;
  readonly transcendentals: number;
  /** XLA:TPU's estimate of the program's run time on one chip, in seconds. */
  readonly optimalSeconds: number;
  /** Every property as libtpu names it (per-operand bytes accessed, utilization ...). */
  readonly properties: NamedValues;
}

/** Device memory (HBM) the compiled program needs, in bytes. */
export interface TpuMemoryAnalysis {
  readonly argumentBytes: number;
  readonly outputBytes: number;
  /** Output bytes that reuse argument buffers (donation). */
  readonly aliasBytes: number;
  readonly tempBytes: number;
  readonly generatedCodeBytes: number;
  readonly peakBytes: number;
}

export class TpuCompiled {
  constructor(
    private readonly addon: PjrtAddon,
    private readonly handle: ExecutableHandle,
    readonly topology: string,
    readonly numPartitions: number,
    /** Wall time of the compile call, ms. */
    readonly compileMs: number,
    private readonly hloText: string | undefined,
  ) {}

  costAnalysis(): TpuCostAnalysis {
    const p = this.addon.costAnalysis(this.handle);
    const num = (name: string): number => (typeof p[name] === 'number' ? (p[name] as number) : 0);
    return {
      flops: num('flops'),
      bytesAccessed: num('bytes accessed'),
      transcendentals: num('transcendentals'),
      optimalSeconds: num('optimal_seconds'),
      properties: p,
    };
  }

  memoryAnalysis(): TpuMemoryAnalysis {
    const s = this.addon.memoryStats(this.handle);
    return {
      argumentBytes: s.argumentBytes,
      outputBytes: s.outputBytes,
      aliasBytes: s.aliasBytes,
      tempBytes: s.tempBytes,
      generatedCodeBytes: s.generatedCodeBytes,
      peakBytes: s.peakBytes,
    };
  }

  /** The optimized TPU HLO module as text (XLA's dump after code generation). */
  asText(): string {
    if (this.hloText === undefined) throw new Error('asText: this program was compiled with hloText: false');
    return this.hloText;
  }

  /** The optimized program as libtpu returns it: a serialized xla.HloModuleProtoWithConfig. */
  optimizedProgram(): { format: string; code: Uint8Array } {
    return this.addon.optimizedProgram(this.handle);
  }

  /** The executable in libtpu's own format (loadable by the same libtpu version). */
  serialize(): Uint8Array {
    return this.addon.serialize(this.handle);
  }

  /** Name (the StableHLO module's), replica/partition/output counts. */
  info(): { name: string; numReplicas: number; numPartitions: number; numOutputs: number } {
    return this.addon.executableInfo(this.handle);
  }
}

let queue: Promise<unknown> = Promise.resolve();

/** Runs compiles one after another (each holds a pool thread and a CPU for 0.1-1 s). */
function oneAtATime<T>(job: () => Promise<T>): Promise<T> {
  const run = queue.then(job, job);
  queue = run.catch(() => undefined);
  return run;
}

// XLA's dump folders of compiles in flight, removed at exit too. A process that ends in the
// middle of a compile may still leave one: XLA goes on writing into it on its pool thread.
const dumpDirs = new Set<string>();
let removeAtExit = false;

async function makeDumpDir(): Promise<string> {
  if (!removeAtExit) {
    removeAtExit = true;
    process.on('exit', () => {
      for (const dir of dumpDirs) {
        try {
          rmSync(dir, { recursive: true, force: true, maxRetries: 2 });
        } catch {
          // being written by the compile still running; nothing more to do at exit
        }
      }
    });
  }
  const dir = await mkdtemp(join(tmpdir(), 'tpu-kernel-xla-'));
  dumpDirs.add(dir);
  return dir;
}

async function removeDumpDir(dir: string): Promise<void> {
  await rm(dir, { recursive: true, force: true });
  dumpDirs.delete(dir);
}

// The module after TPU code generation (with its backend configs): the text JAX's
// compiled.as_text() shows for the same program.
async function optimizedHloText(dir: string): Promise<string> {
  const file = (await readdir(dir)).find((f) => f.endsWith('.after_codegen.txt'));
  if (!file) throw new Error(`XLA wrote no optimized HLO text in ${dir}`);
  return readFile(join(dir, file), 'utf8');
}

/** Compiles StableHLO (MLIR text) with XLA:TPU for `options.topology`. */
export async function compileForTpu(stablehlo: string, options: TpuCompileOptions): Promise<TpuCompiled> {
  if (typeof stablehlo !== 'string') throw new TypeError(`compileForTpu: stablehlo must be a string, got ${typeof stablehlo}`);
  const numPartitions = options.numPartitions ?? 1;
  if (!Number.isInteger(numPartitions) || numPartitions < 1) {
    throw new RangeError(`compileForTpu: numPartitions must be a positive integer, got ${numPartitions}`);
  }
  const topology = await tpuTopology(options.topology);
  if (numPartitions > topology.devices.length) {
    throw new RangeError(
      `compileForTpu: numPartitions ${numPartitions} exceeds the ${topology.devices.length} devices of ${options.topology}`,
    );
  }
  const { addon } = await libtpu();
  const deviceIds = topology.devices.slice(0, numPartitions).map((d) => d.id);
  return oneAtATime(async () => {
    const dumpDir = options.hloText === false ? undefined : await makeDumpDir();
    try {
      const overrides = dumpDir ? { xla_dump_to: dumpDir, xla_dump_hlo_as_text: true } : undefined;
      const bytes = compileOptionsProto({ deviceIds, overrides });
      const start = performance.now();
      let handle: ExecutableHandle;
      try {
        handle = await addon.compile(topology.handle, stablehlo, 'mlir', bytes);
      } catch (e) {
        throw PjrtError.from(e);
      }
      const compileMs = performance.now() - start;
      const text = dumpDir ? await optimizedHloText(dumpDir) : undefined;
      return new TpuCompiled(addon, handle, options.topology, numPartitions, compileMs, text);
    } finally {
      if (dumpDir) await removeDumpDir(dumpDir);
    }
  });
}
