// A generated loop's erfs a block at a time: an erf written as intrinsics (tk_erf_block in
// vector-math.ts) cannot sit inside the scalar C loops gcc vectorizes, so a loop over a block of
// indices first writes each erf's arguments to a buffer on the stack (4 KB: stays in L1), the
// block erf rewrites it in place, and the loop that computes the outputs reads it. W5's fused
// row loop (layerNorm -> gelu, [4096, 1024]) took 2.41 -> 1.32 ms on one thread in the C
// harness of docs/runtime.md. Each element's erf is its own: the bits do not depend on where a
// block or a thread's range begins.
/** An erf computed a block at a time: its node id, its operand's value id and C expression. */
export interface BlockErf {
  id: number;
  operand: number;
  arg: string;
}

/** The C expression reading a block erf's result at index `i` of the block starting at `lo`. */
export const blockErfRead = (id: number, i: string, lo: string) => `e${id}[${i} - ${lo}]`;

/**
 * Loops over [lo, hi) (at most TK_ERF_BLOCK indices) of index `i`: one per erf of `erfs` (in
 * program order: a later erf's argument may read an earlier one) filling its buffer, then the
 * loop of `body`. `lines(targets)` gives the C lines computing `targets` (block erfs read from
 * their buffers), indented for the loop's body.
 */
export function erfBlockLoops(erfs: readonly BlockErf[], i: string, lo: string, hi: string, lines: (targets: number[]) => string[], body: string[], indent: string): string[] {
  const loop = (inner: string[]) => [`${indent}for (int64_t ${i} = ${lo}; ${i} < ${hi}; ${i}++) {`, ...inner, `${indent}}`];
  return [
    ...erfs.map((e) => `${indent}float e${e.id}[TK_ERF_BLOCK] __attribute__((aligned(64)));`),
    ...erfs.flatMap((e) => [
      ...loop([...lines([e.operand]), `${indent}  ${blockErfRead(e.id, i, lo)} = ${e.arg};`]),
      `${indent}tk_erf_block(e${e.id}, ${hi} - ${lo});`,
    ]),
    ...loop(body),
  ];
}

