// Every primitive, registered by importing its file. Adding an op: one file here + its test.
export { defineOp, opByName, type OpDef, type Abstract, type Operand, type GradRule, type LowerContext } from './op.js';
export { unary, binary } from './elementwise.js';
export { unbroadcast } from './grad-helpers.js';
export * from './arithmetic.js';
export * from './unary-math.js';
export * from './compare.js';
export * from './reduce.js';
export * from './matmul.js';
export * from './layout.js';
export * from './cast.js';
export * from './composed.js';
