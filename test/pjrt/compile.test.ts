// XLA:TPU through our PJRT binding (real libtpu, no TPU): figures identical to JAX's AOT
// compile of the same StableHLO text for the same topology, SPMD, errors, non-blocking.
import { describe, expect, it } from 'vitest';
import {
  compileForTpu,
  PjrtError,
  topologyCreateOptions,
  tpuCompilerInfo,
  type TpuCompiled,
} from '../../runtime/device/pjrt/index.js';
import { jaxCompileForTpu, type JaxCompileRequest, type JaxCompileResult } from '../support/jax-tpu-reference.js';
import { MATMUL_TANH, MISTYPED, REDUCE_SCALE, SPMD_SUM_4 } from './programs.js';

const status = await tpuCompilerInfo();
if (!status.available) console.warn(`SKIPPED test/pjrt/compile.test.ts: ${status.reason}`);

const sorted = (o: Record<string, unknown>) => Object.fromEntries(Object.entries(o).sort(([a], [b]) => a.localeCompare(b)));

describe.skipIf(!status.available)('compileForTpu (libtpu, PJRT C API)', () => {
  const cases: JaxCompileRequest[] = [
    { stablehlo: MATMUL_TANH, topology: 'v5e:2x2' },
    { stablehlo: MATMUL_TANH, topology: 'v5p:2x2x1' },
    { stablehlo: MATMUL_TANH, topology: 'v6e:2x2' },
    { stablehlo: MATMUL_TANH, topology: 'v5e:1x1', createOptions: topologyCreateOptions('v5e:1x1') },
    { stablehlo: REDUCE_SCALE, topology: 'v5e:2x2' },
    { stablehlo: SPMD_SUM_4, topology: 'v5e:2x2', numPartitions: 4 },
  ];
  const label = (c: JaxCompileRequest) => `${c.stablehlo.match(/module @(\w+)/)![1]} on ${c.topology}`;
  let jax: (JaxCompileResult | { error: string })[];
  const ours = new Map<JaxCompileRequest, TpuCompiled>();

  it('reports the plugin: libtpu path, PJRT C API and StableHLO versions', () => {
    if (!status.available) return;
    expect(status.libtpuPath).toMatch(/libtpu\.so$/);
    expect(status.pjrtApiVersion).toMatch(/^0\.\d+$/);
    expect(Number(status.pjrtApiVersion.split('.')[1])).toBeGreaterThanOrEqual(94);
    expect(status.stablehloVersion).toMatch(/^1\.\d+\.\d+$/);
  });

  it('compiles each program, and JAX compiles the same text for the same topology', async () => {
    jax = await jaxCompileForTpu(cases);
    for (const c of cases) {
      ours.set(c, await compileForTpu(c.stablehlo, { topology: c.topology, numPartitions: c.numPartitions }));
    }
    for (const [i, r] of jax.entries()) expect('error' in r ? `${label(cases[i])}: ${r.error}` : 'ok').toBe('ok');
  }, 180_000);

  it("has XLA:TPU's cost analysis, identical to JAX's", () => {
    for (const [i, c] of cases.entries()) {
      const ref = jax[i] as JaxCompileResult;
      const cost = ours.get(c)!.costAnalysis();
      expect(sorted(cost.properties), label(c)).toEqual(sorted(ref.cost));
      // A property libtpu leaves out (no transcendentals in a sum) reads as 0.
      expect(cost.flops).toBe(ref.cost.flops ?? 0);
      expect(cost.bytesAccessed).toBe(ref.cost['bytes accessed'] ?? 0);
      expect(cost.transcendentals).toBe(ref.cost.transcendentals ?? 0);
      expect(cost.optimalSeconds).toBe(ref.cost.optimal_seconds ?? 0);
      expect(cost.flops).toBeGreaterThan(0);
    }
  });

  it("has the compiled memory stats, identical to JAX's", () => {
    for (const [i, c] of cases.entries()) {
      const ref = jax[i] as JaxCompileResult;
      const { peakBytes, ...mem } = ours.get(c)!.memoryAnalysis();
      expect(mem, label(c)).toEqual(ref.memory);
      expect(peakBytes).toBeGreaterThanOrEqual(mem.argumentBytes + mem.outputBytes - mem.aliasBytes);
    }
  });

  it("gives the optimized HLO text JAX's compiled.as_text() gives", () => {
    for (const [i, c] of cases.entries()) {
      expect(ours.get(c)!.asText(), label(c)).toBe((jax[i] as JaxCompileResult).hloText);
    }
  });

  it('matches hand-computed figures: bf16 matmul + tanh', () => {
    const c = ours.get(cases[0])!;
    const [m, k, n] = [256, 1024, 1024];
    const cost = c.costAnalysis();
    expect(cost.flops).toBeGreaterThanOrEqual(2 * m * k * n);
    expect(cost.flops).toBeLessThan(2 * m * k * n * 1.01);
    expect(cost.transcendentals).toBe(m * n); // one tanh per output element
    const mem = c.memoryAnalysis();
    expect(mem.argumentBytes).toBe((m * k + k * n) * 2);
    expect(mem.outputBytes).toBe(m * n * 2);
    expect(c.info()).toEqual({ name: 'matmul_tanh', numReplicas: 1, numPartitions: 1, numOutputs: 1 });
    // The same chips' estimate: a v5p chip is faster than a v5e chip on the same program.
    expect(ours.get(cases[1])!.costAnalysis().optimalSeconds).toBeLessThan(cost.optimalSeconds);
  });

  it('compiles a 4-partition SPMD program: a quarter of the rows per device, an all-reduce', () => {
    const spmd = ours.get(cases[5])!;
    expect(spmd.info().numPartitions).toBe(4);
    expect(spmd.memoryAnalysis().argumentBytes).toBe((1024 / 4) * 256 * 4);
    expect(spmd.asText()).toMatch(/ all-reduce\(/);
    expect(ours.get(cases[0])!.asText()).not.toMatch(/all-reduce/);
  });

  it('gives the optimized program proto and a serialized executable', () => {
    const c = ours.get(cases[0])!;
    const program = c.optimizedProgram();
    expect(program.format).toBe('hlo_with_config');
    expect(Buffer.from(program.code).includes('matmul_tanh')).toBe(true);
    const bytes = c.serialize();
    expect(bytes.length).toBeGreaterThan(1000);
    expect(Buffer.from(c.serialize()).equals(Buffer.from(bytes))).toBe(true);
  });

  it('without hloText: same figures, and asText says how it was compiled', async () => {
    const plain = await compileForTpu(MATMUL_TANH, { topology: 'v5e:2x2', hloText: false });
    expect(plain.costAnalysis()).toEqual(ours.get(cases[0])!.costAnalysis());
    expect(plain.memoryAnalysis()).toEqual(ours.get(cases[0])!.memoryAnalysis());
    expect(() => plain.asText()).toThrow('asText: this program was compiled with hloText: false');
  });

  it('rejects bad StableHLO with a PjrtError carrying the PJRT code and the diagnostic', async () => {
    const err = await compileForTpu(MISTYPED, { topology: 'v5e:2x2' }).catch((e: unknown) => e);
    expect(err).toBeInstanceOf(PjrtError);
    const e = err as PjrtError;
    expect(e.code).toBe('UNKNOWN');
    expect(e.pjrtCode).toBe(2);
    expect(e.message).toMatch(/^PJRT UNKNOWN: /);
    expect(e.message).toContain("doesn't match function result type ('tensor<256x1024xf32>')");
    const garbage = await compileForTpu('module { bad', { topology: 'v5e:2x2' }).catch((x: unknown) => x);
    expect((garbage as PjrtError).message).toContain("custom op 'bad' is unknown");
  });

  it('rejects an unknown chip with INVALID_ARGUMENT from libtpu, and bad options by name', async () => {
    const err = (await compileForTpu(MATMUL_TANH, { topology: 'v9z:2x2' }).catch((e: unknown) => e)) as PjrtError;
    expect(err).toBeInstanceOf(PjrtError);
    expect([err.code, err.pjrtCode]).toEqual(['INVALID_ARGUMENT', 3]);
    await expect(compileForTpu(MATMUL_TANH, { topology: 'v5e' })).rejects.toThrow(
      `topology: expected a name like 'v5e:2x2' or 'v5p:2x2x1', got "v5e"`,
    );
    await expect(compileForTpu(MATMUL_TANH, { topology: 'v5e:2x2', numPartitions: 8 })).rejects.toThrow(
      'compileForTpu: numPartitions 8 exceeds the 4 devices of v5e:2x2',
    );
    await expect(compileForTpu(MATMUL_TANH, { topology: 'v5e:2x2', numPartitions: 1.5 })).rejects.toThrow(
      'compileForTpu: numPartitions must be a positive integer, got 1.5',
    );
  });

  it('compiles off the JS thread: timers keep firing during a compile', async () => {
    const ticks: number[] = [];
    const timer = setInterval(() => ticks.push(performance.now()), 5);
    const start = performance.now();
    const c = await compileForTpu(REDUCE_SCALE.replace('@reduce_scale', '@reduce_scale_again'), { topology: 'v6e:2x2' });
    const elapsed = performance.now() - start;
    clearInterval(timer);
    expect(c.info().name).toBe('reduce_scale_again');
    const gaps = ticks.slice(1).map((t, i) => t - ticks[i]);
    // A compile on the JS thread would leave one gap of about `elapsed` and a tick or none;
    // the bounds leave room for a loaded machine, whose timers fire late but do fire.
    expect(ticks.length).toBeGreaterThanOrEqual(3);
    expect(Math.max(...gaps)).toBeLessThan(Math.max(60, elapsed * 0.75));
  });
});
