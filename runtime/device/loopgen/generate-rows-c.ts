// Programs with per-row reductions (layerNorm, rmsNorm: sum or mean over the same trailing
// dims, keepdim) as one generated C loop over rows: each reduction is one pass over its row
// (4 KB for 1024 floats, still in L1), recomputing the elementwise values it reads; the outputs
// take one more pass. One pass over memory instead of ~15 ONNX Runtime kernels and their
// intermediates. Rows are split over the threads.
// Accuracy: a reduction adds 64 lanes of TK_BLOCK / 64 values each in float32 (as the ONNX
// lowering's blocks of 128, blocked-sum.ts), the lanes pairwise down to 16 and those in order,
// the block totals in float64, so long rows (1e6) keep float32 accuracy. 64 lanes are four
// independent vector sums: one (16 lanes) waited on its own add each step, 11% of layerNorm's
// loop. IEEE values flow as they come: a NaN or inf in a row reaches its sum.
import { valueOf, type Program } from '../../program/program.js';
import { numel } from '../../shape.js';
import { C_OPS, constantC, erfQuotients } from './generate-c.js';
import { blockRead, erfBlockLoops, type BlockErf } from './erf-blocks.js';
import { nodeClosure } from './node-closure.js';
import { VECTOR_MATH_C } from './vector-math.js';

/** How a value is laid out against the program's [rows, cols] view. */
type Kind = 'one' | 'row' | 'full' | 'col';

export interface RowsLoop {
  source: string;
  rows: number;
  cols: number;
}

const REDUCTIONS = new Set(['sum', 'mean']);
const LANES = 64;
/** Bytes of the next row's inputs fetched ahead at most: well inside L1 (48 KiB here). */
const PREFETCH_BYTES = 16384;
const product = (xs: readonly number[]) => xs.reduce((a, b) => a * b, 1);

/** The program's loop over rows (tk_kernel over rows [begin, end)), or undefined if it does not qualify. */
export function generateRowsC(program: Program): RowsLoop | undefined {
  const reductions = program.nodes.filter((n) => REDUCTIONS.has(n.op));
  if (!reductions.length) return undefined;
  const full = valueOf(program, reductions[0]!.inputs[0]!).shape;
  const { dims } = reductions[0]!.attrs as { dims: readonly number[] };
  const split = full.length - dims.length;
  const rows = product(full.slice(0, split));
  const cols = product(full.slice(split));
  if (cols < 2 || rows < 1) return undefined;
  const kindOf = (shape: readonly number[]): Kind | undefined => {
    if (shape.length > full.length) return undefined;
    const s = [...new Array<number>(full.length - shape.length).fill(1), ...shape];
    const same = (i: number) => s[i] === full[i];
    const ones = (i: number) => s[i] === 1;
    const head = (test: (i: number) => boolean) => s.slice(0, split).every((_, i) => test(i));
    const tail = (test: (i: number) => boolean) => s.slice(split).every((_, i) => test(split + i));
    if (numel(s) === 1) return 'one';
    if (head(same) && tail(ones)) return 'row';
    if (head(same) && tail(same)) return 'full';
    if (head(ones) && tail(same)) return 'col';
    return undefined;
  };
  for (const r of reductions) {
    const a = r.attrs as { dims: readonly number[]; keepdim: boolean };
    const input = valueOf(program, r.inputs[0]!);
    if (!a.keepdim || a.dims.join() !== dims.join() || input.shape.join() !== full.join()) return undefined;
    if (dims.some((d, i) => d !== split + i)) return undefined;
  }
  if (program.scalars.some((d) => d !== 'float32')) return undefined;

  const base = program.inputs.length + program.scalars.length;
  const names: string[] = [];
  const kinds: Kind[] = [];
  /** Element-scope nodes: computed inside each loop over a row's columns that reads them. */
  const inner = new Set<number>();
  const lines: string[] = [];
  const decls: string[] = [];
  for (const [i, v] of program.inputs.entries()) {
    const kind = kindOf(v.shape);
    if (v.dtype !== 'float32' || !kind) return undefined;
    decls.push(`  const float* restrict in${i} = in[${i}];`);
    kinds.push(kind);
    names.push({ one: `in${i}[0]`, row: `in${i}[r]`, full: `in${i}[o + j]`, col: `in${i}[j]` }[kind]);
  }
  program.scalars.forEach((_, i) => {
    decls.push(`  const float sc${i} = sc[${i}];`);
    kinds.push('one');
    names.push(`sc${i}`);
  });
  const rowBody: string[] = [];
  const stores: string[] = [];
  const quotients = erfQuotients(program);
  /**
   * Per-row square roots (layerNorm's and rmsNorm's sqrt(var + eps)): a full-shape quotient by
   * one is a product with its reciprocal, taken once a row, as PyTorch's layer_norm and rms_norm
   * kernels multiply by rstd = 1 / sqrt(var + eps). The product is within 1.5 float32 rounding
   * errors of the quotient; a division per element was 8% of W5's fused loop on one thread.
   * A root is at least 2^-74.5 or 0, so the reciprocal is finite or, for 0, inf as the quotient.
   */
  const rowRoots = new Set<number>();
  /** The roots whose reciprocal the row body computes already. */
  const rootReciprocals = new Set<number>();
  /** The output pass's full-shape erfs, a block at a time; one a reduction reads stays tk_erf in every pass, so both read the same bits. */
  const erfs: BlockErf[] = [];
  const reduced = readByReductions();
  for (const [k, node] of program.nodes.entries()) {
    const id = base + k;
    if (node.dtype !== 'float32') return undefined;
    if (node.op === 'constant') {
      const literal = constantC(node);
      if (literal === undefined) return undefined;
      names[id] = literal;
      kinds[id] = 'one';
      continue;
    }
    names[id] = `v${id}`;
    if (REDUCTIONS.has(node.op)) {
      kinds[id] = 'row';
      const operand = node.inputs[0]!;
      if (kinds[operand] !== 'full') return undefined;
      rowBody.push(...reduceLoop(id, operand, node.op === 'mean'));
      continue;
    }
    const emit = C_OPS[node.op];
    const shaped = kindOf(node.shape);
    // a one-value result is computed once per row (with one row, the row values are one-value shaped)
    const kind = shaped === 'one' ? 'row' : shaped;
    if (!emit || !kind || node.inputs.length !== emit.length) return undefined;
    // an operand fits when it broadcasts into the node without a stride
    if (node.inputs.some((v) => !(kinds[v] === 'one' || kinds[v] === kind || kind === 'full'))) return undefined;
    kinds[id] = kind;
    const a = names[node.inputs[0]!]!;
    const divisor = node.inputs[1]!;
    let reciprocal = quotients.get(id);
    if (!reciprocal && node.op === 'div' && kind === 'full' && rowRoots.has(divisor)) {
      if (!rootReciprocals.has(divisor)) rowBody.push(`    const float r${divisor} = 1.0f / v${divisor};`);
      rootReciprocals.add(divisor);
      reciprocal = `r${divisor}`;
    }
    const blockErf = node.op === 'erf' && kind === 'full' && !reduced.has(id);
    if (blockErf) erfs.push({ id, operand: node.inputs[0]!, arg: a });
    const value = blockErf ? blockRead(id, 'j', 'j0') : reciprocal ? `${a} * ${reciprocal}` : emit(a, names[divisor] ?? '');
    const line = `const float v${id} = ${value};`;
    if (node.op === 'sqrt' && kind === 'row') rowRoots.add(id);
    if (kinds[id] === 'row') rowBody.push(`    ${line}`);
    else {
      inner.add(id);
      lines[id] = line;
    }
  }
  const outerStores: string[] = [];
  const fullOutputs: number[] = [];
  for (const [j, id] of program.outputs.entries()) {
    if (id < base) return undefined;
    decls.push(`  float* restrict out${j} = out[${j}];`);
    const kind = kinds[id];
    if (kind === 'full') {
      fullOutputs.push(id);
      stores.push(`out${j}[o + j] = ${names[id]};`);
    } else if (kind === 'row' && (rows === 1 || kindOf(valueOf(program, id).shape) !== 'one')) outerStores.push(`    out${j}[r] = ${names[id]};`);
    else return undefined;
  }
  const source = [
    VECTOR_MATH_C,
    `#define TK_COLS ((int64_t)${cols})`,
    `#define TK_LANES ${LANES}`,
    '#define TK_BLOCK 2048',
    'void tk_kernel(const float* const* in, const float* sc, float* const* out, int64_t begin, int64_t end) {',
    ...decls,
    '  for (int64_t r = begin; r < end; r++) {',
    '    const int64_t o = r * TK_COLS;',
    ...rowBody,
    ...outerStores,
    ...prefetchNextRow(),
    ...outputPass(),
    '  }',
    '}',
    '',
  ].join('\n');
  return { source, rows, cols };

  /**
   * The next row's full-shape inputs, asked for before this row's output pass: that pass's
   * arithmetic hides the fetch, and the next row's first pass reads cache instead of waiting
   * on memory (W5's fused loop 6-9% faster on one thread). Short rows only: they stay in cache.
   */
  function prefetchNextRow(): string[] {
    const full = program.inputs.flatMap((_, i) => (kinds[i] === 'full' ? [i] : []));
    if (!full.length || cols * 4 * full.length > PREFETCH_BYTES) return [];
    return [
      '    if (r + 1 < end) for (int64_t j = 0; j < TK_COLS; j += 16) {',
      ...full.map((i) => `      __builtin_prefetch(&in${i}[o + TK_COLS + j], 0, 3);`),
      '    }',
    ];
  }

  /** The loop over a row's columns computing the full-shape outputs, in blocks when it has block erfs. */
  function outputPass(): string[] {
    if (!erfs.length) return ['    for (int64_t j = 0; j < TK_COLS; j++) {', ...elementLines(fullOutputs, '      '), ...stores.map((s) => `      ${s}`), '    }'];
    const nodes = { closure: elementIds, line: (id: number) => lines[id]!, isFloat: () => true };
    return [
      '    for (int64_t j0 = 0; j0 < TK_COLS; j0 += TK_ERF_BLOCK) {',
      '      const int64_t j1 = j0 + TK_ERF_BLOCK < TK_COLS ? j0 + TK_ERF_BLOCK : TK_COLS;',
      ...erfBlockLoops(erfs, nodes, fullOutputs, stores, 'j', 'j0', 'j1', '      '),
      '    }',
    ];
  }

  /** Value ids the reductions read, directly or through other nodes. */
  function readByReductions(): Set<number> {
    return new Set(nodeClosure(program, reductions.map((r) => r.inputs[0]!), (id) => id >= base));
  }

  /** The element-scope nodes `targets` read (themselves included), in program order. */
  function elementLines(targets: readonly number[], indent: string): string[] {
    return elementIds(targets, new Set()).map((id) => `${indent}${lines[id]}`);
  }

  /** The element-scope nodes computing `targets`, in program order: those in `stop` included, not what they read. */
  function elementIds(targets: readonly number[], stop: ReadonlySet<number>): number[] {
    return nodeClosure(program, targets, (id) => inner.has(id), stop);
  }

  /** One pass over the row summing `operand`: 64 float32 lanes per block, block totals in float64. */
  function reduceLoop(id: number, operand: number, mean: boolean): string[] {
    const body = elementLines([operand], '          ');
    const total = mean ? `(float)(t${id} / (double)TK_COLS)` : `(float)t${id}`;
    return [
      `    double t${id} = 0.0;`,
      '    for (int64_t j0 = 0; j0 < TK_COLS; j0 += TK_BLOCK) {',
      '      const int64_t j1 = j0 + TK_BLOCK < TK_COLS ? j0 + TK_BLOCK : TK_COLS;',
      '      float lane[TK_LANES] = {0};',
      '      int64_t jv = j0;',
      '      for (; jv + TK_LANES <= j1; jv += TK_LANES) {',
      '        for (int l = 0; l < TK_LANES; l++) {',
      '          const int64_t j = jv + l;',
      ...body,
      `          lane[l] += ${names[operand]};`,
      '        }',
      '      }',
      // the ragged end of a row, when there is one
      ...(cols % LANES === 0 ? [] : [
        '      for (int64_t j = jv; j < j1; j++) {',
        ...body.map((line) => line.slice(2)),
        `        lane[j - jv] += ${names[operand]};`,
        '      }',
      ]),
      '      for (int l = 0; l < TK_LANES / 2; l++) lane[l] += lane[l + TK_LANES / 2];',
      '      for (int l = 0; l < TK_LANES / 4; l++) lane[l] += lane[l + TK_LANES / 4];',
      '      float block = 0.0f;',
      '      for (int l = 0; l < TK_LANES / 4; l++) block += lane[l];',
      `      t${id} += block;`,
      '    }',
      `    const float v${id} = ${total};`,
    ];
  }
}
