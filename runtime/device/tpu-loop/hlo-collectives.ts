// The collectives of an optimized HLO module as XLA:TPU compiled them (it may drop, merge or
// make asynchronous the program's own), with the bytes each chip puts into each: its
// operand's. The printed module gives only result types, so the operand's size comes from the
// result and the group size (an all-gather's result is the group's operands joined, a
// reduce-scatter's one piece of its operand).

export interface XlaCollectives {
  readonly count: number;
  /** Bytes of the operands, summed over the collectives (one chip's program). */
  readonly bytes: number;
  readonly byOp: Readonly<Record<string, { count: number; bytes: number }>>;
}

const OPS = ['all-reduce', 'all-gather', 'reduce-scatter', 'all-to-all', 'collective-permute', 'collective-broadcast'];
// `%name = TYPE op(` or `%name = (TYPE, ...) op-start(`: the first array type is the result (or the async operand).
const INSTRUCTION = new RegExp(`^\\s*(?:ROOT\\s+)?%\\S+\\s*=\\s*\\(?\\s*(\\w+)\\[([\\d,]*)\\][^\\n]*?\\s(${OPS.join('|')})(-start)?\\(([^\\n]*)$`, 'gm');

const ELEMENT_BYTES: Readonly<Record<string, number>> = {
  f64: 8, s64: 8, u64: 8, f32: 4, s32: 4, u32: 4, bf16: 2, f16: 2, s16: 2, u16: 2, s8: 1, u8: 1, pred: 1,
};

/** The size of the first replica group: `{{0,1},{2,3}}` or the iota form `[2,2]<=[4]`. */
function groupSize(attrs: string): number | undefined {
  const listed = /replica_groups=\{\{([\d,]*)\}/.exec(attrs);
  if (listed) return listed[1]!.split(',').length;
  const iota = /replica_groups=\[\d+,(\d+)\]<=/.exec(attrs);
  return iota ? Number(iota[1]) : undefined;
}

export function hloCollectives(hloText: string): XlaCollectives {
  const byOp: Record<string, { count: number; bytes: number }> = {};
  let count = 0;
  let bytes = 0;
  for (const m of hloText.matchAll(INSTRUCTION)) {
    const [, element, dims, op, start, attrs] = m;
    const resultBytes = (ELEMENT_BYTES[element!] ?? 4) * (dims ? dims.split(',').reduce((a, d) => a * Number(d), 1) : 1);
    const n = groupSize(attrs!) ?? 1;
    // An async start's first tuple element is already the operand.
    const operand = start ? resultBytes : op === 'all-gather' ? resultBytes / n : op === 'reduce-scatter' ? resultBytes * n : resultBytes;
    const f = (byOp[op!] ??= { count: 0, bytes: 0 });
    f.count++;
    f.bytes += operand;
    count++;
    bytes += operand;
  }
  return { count, bytes, byOp };
}
