// A generated loop's erfs a block at a time: an erf written as intrinsics (tk_erf_block in
// vector-math.ts) cannot sit inside the scalar C loops gcc vectorizes, so a loop over a block of
// indices first writes each erf's arguments to a buffer on the stack (4 KB: stays in L1), the
// block erf rewrites it in place, and the loop that computes the outputs reads it. The values
// that loop needs from the first (gelu's x) are buffered too rather than recomputed (a second
// pass over the inputs cost more than the erf saved on arrays off a cache line). The blocks
// pay on arrays that start on 64-byte lines, as the ONNX backend's do (aligned-arrays.ts): on
// arrays 16 bytes past a line, every vector access splits and the elementwise gelu loop was
// slower than with tk_erf (docs/runtime.md, the erf paragraph). Each element's erf is its own:
// the bits do not depend on where a block or a thread's range begins.

/** An erf computed a block at a time: its node id, its operand's value id and C expression. */
export interface BlockErf {
  id: number;
  operand: number;
  arg: string;
}

/** At most this many block buffers (of TK_ERF_BLOCK floats) a loop: 64 KB of stack. */
const MAX_BUFFERS = 16;

/** The C expression reading value `id` from its block buffer at index `i` of the block starting at `lo`. */
export const blockRead = (id: number, i: string, lo: string) => `b${id}[${i} - ${lo}]`;

/** How a generator's nodes become C, for erfBlockLoops. */
export interface BlockNodes {
  /** Value ids computing `targets`, in program order: those in `stop` included but not what they read. */
  closure(targets: readonly number[], stop: ReadonlySet<number>): number[];
  /** A node's C line (a block erf's reads its buffer). */
  line(id: number): string;
  /** Whether a node's value is a float (a comparison's is not): only those go through buffers. */
  isFloat(id: number): boolean;
}

/**
 * Loops over [lo, hi) (at most TK_ERF_BLOCK indices) of index `i`: one per erf of `erfs` (in
 * program order: a later erf's argument may read an earlier one) filling its buffer and those
 * of the values the last loop reads from it, then the last loop: `targets`' lines and `stores`.
 */
export function erfBlockLoops(erfs: readonly BlockErf[], nodes: BlockNodes, targets: readonly number[], stores: readonly string[], i: string, lo: string, hi: string, indent: string): string[] {
  const erfIds = new Set(erfs.map((e) => e.id));
  const stages = erfs.map((e) => nodes.closure([e.operand], erfIds));
  const staged = new Set(stages.flat().filter((id) => !erfIds.has(id) && nodes.isFloat(id)));
  let last = nodes.closure(targets, new Set([...erfIds, ...staged]));
  let kept = new Set(last.filter((id) => staged.has(id)));
  if (kept.size + erfs.length > MAX_BUFFERS) {
    last = nodes.closure(targets, erfIds);
    kept = new Set();
  }
  const inner = `${indent}  `;
  const loop = (body: string[]) => [`${indent}for (int64_t ${i} = ${lo}; ${i} < ${hi}; ${i}++) {`, ...body.map((l) => inner + l), `${indent}}`];
  const stored = new Set<number>();
  const stage = (e: BlockErf, ids: number[]) => {
    const keep = ids.filter((id) => kept.has(id) && !stored.has(id));
    keep.forEach((id) => stored.add(id));
    return [
      ...loop([...ids.map(nodes.line), `${blockRead(e.id, i, lo)} = ${e.arg};`, ...keep.map((id) => `${blockRead(id, i, lo)} = v${id};`)]),
      `${indent}tk_erf_block(b${e.id}, ${hi} - ${lo});`,
    ];
  };
  return [
    ...[...erfIds, ...kept].map((id) => `${indent}float b${id}[TK_ERF_BLOCK] __attribute__((aligned(64)));`),
    ...erfs.flatMap((e, k) => stage(e, stages[k]!)),
    ...loop([...last.map((id) => (kept.has(id) ? `const float v${id} = ${blockRead(id, i, lo)};` : nodes.line(id))), ...stores]),
  ];
}
