// What each JavaScript operator means on a tensor, as PyTorch's Python operators do, and what
// a cell is told where it has none. Both rewrites use it: the typed one (the language service
// knows a tensor operand before the cell runs) and the dispatched one (a tensor is found at run
// time), so both give one answer and one message.

/** `x OP y` with x a tensor: the method on x that computes it. */
export const METHODS: Readonly<Record<string, string>> = {
  '+': 'add', '-': 'sub', '*': 'mul', '/': 'div', '%': 'remainder', '**': 'pow', '<': 'lt', '<=': 'le', '>': 'gt', '>=': 'ge',
  '&': 'bitwiseAnd', '|': 'bitwiseOr', '^': 'bitwiseXor', '<<': 'bitwiseLeftShift', '>>': 'bitwiseRightShift',
};
/**
 * `a OP x` with only x a tensor: the method on x that computes it. The others but `-` (`1 / x`,
 * `2 ** x`) are tpu's function of the method's name, which takes a number first, as PyTorch's
 * reflected operators do (tpu.div(1, x)).
 */
export const MIRRORED: Readonly<Record<string, string>> = {
  '+': 'add', '*': 'mul', '<': 'gt', '<=': 'ge', '>': 'lt', '>=': 'le', '&': 'bitwiseAnd', '|': 'bitwiseOr', '^': 'bitwiseXor',
};
/**
 * `x == y` / `x != y` with a tensor operand on either side (the methods are symmetric):
 * element-wise, as PyTorch's; JavaScript's `===` stays identity.
 */
export const EQUALITY_METHODS: Readonly<Record<string, string>> = { '==': 'eq', '!=': 'ne' };
/** `x OP= y` with a tensor method for OP (in place: `add_`). */
export const COMPOUND = /^([-+*/%&|^]|\*\*|<<|>>)=$/;
/** A string index that selects a slice or element of a tensor (`x['1:3']`); other strings name a property (`x['shape']`). */
export const SLICE_STRING = /^[-\d:\s.]*$/;

const HINT = 'JavaScript has no operator overloading';

export const operatorMessages = {
  strictEquality: () => `${HINT}: === of a tensor and a number is always false: use x.eq(y) / x.ne(y) for element-wise comparison, or x.item() === y for its one value`,
  unaryPlus: () => `${HINT}: unary + makes a number of a tensor: use x.item()`,
  ambiguousTruth: (shape: readonly number[]) => {
    const n = shape.reduce((a, b) => a * b, 1);
    return `a tensor in a condition (if, while, ?:, !, && or ||) stands for its one value, as PyTorch's bool(t); `
      + `this one has ${n === 0 ? 'no values' : `${n} values`} (shape [${shape.join(', ')}]): use t.any() or t.all(), or t !== null to test that it is there`;
  },
  copyingIndex: (target: string, op: string, index: string) =>
    `${target} ${op} ... writes into a copy: ${index} is an index that copies (a tensor or a list), and a further subscript then reads from that copy; `
    + 'write with one subscript, x[idx, 0] instead of x[idx][0], as in PyTorch, where the chained form changes nothing',
};
