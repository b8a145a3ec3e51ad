// strict mode runs what is one op to the user as ONE program, as PyTorch runs its native
// kernel for it: a composed op (layerNorm, gelu, softmax, crossEntropy, ...), the gradient
// rule of one op in a backward pass, an optimizer step over all parameters (PyTorch's
// foreach update). The ops are recorded into a region of their own (fused mode's machinery)
// and launched when the body returns; the program cache compiles each structure and shapes
// once. What the body makes besides its result is never materialized, unless a result
// requires grad and a gradient rule of the body's ops reads it (OpDef.gradReads): the
// backward pass reads those values, so the same program writes them too (eager mode keeps
// them as well), except rearrangements of buffers
// (recipes.ts isBufferLayout): a linear layer's transposed weight, written out, cost W6 an
// [in, out] copy of the weight per step; left as a recipe, the backward program that reads it
// recomputes it for free. The values no rule reads (a linear's matmul result, read by its bias
// add only) stay recipes as well, pinning nothing (recipes.ts readByGraph): W6 strict writes
// one [64, 256] output less per step. Tensors updated in place and
// tensors kept (tpu.keep: optimizer state) are written too.
import { Tensor } from '../tensor.js';
import { collectMade, isKept } from '../scope.js';
import { FusedMode } from './fused.js';
import { isBufferLayout, keepForBackward, readByGraph } from './recipes.js';
import { Region } from './region.js';
import { inMode } from './mode.js';
import { mayFailOnDevice } from './may-fail.js';

const region = new Region(Infinity);
// Sites as strict mode records them: a program that may fail on the device (large outputs).
region.oneOpMayFail = (outputs) => {
  for (const t of outputs) if (mayFailOnDevice(t._node!.op, t._node!.attrs, t)) return true;
  return false;
};
// Its ops count as strict mode's (profiler, tpu.stats): to the user they are strict ops.
const recording = new FusedMode(region, 'strict');

/** Runs fn as one program; its result (a tensor, or a list of tensors and nulls) is written out. */
export function runAsOneProgram<T>(fn: () => T): T {
  return inMode(recording, recordOneProgram, fn) as T;
}

// Module level, not a closure per call: V8 keeps a closure's optimized code only while one of
// its closures lives, so per-call closures on the hot path were compiled again after each full
// collection (docs/runtime.md, W6).
function recordOneProgram(fn: () => unknown): unknown {
  try {
    const [result, made] = collectMade(fn);
    const results = tensorsIn(result);
    let saved = false;
    for (const t of results) saved ||= t.requiresGrad;
    const required = [...results];
    const forBackward = new Set<Tensor>();
    const read = saved ? readByGraph([...results, ...(made as Tensor[])]) : null;
    for (const t of made as Tensor[]) {
      if (results.includes(t)) continue;
      if (isKept(t)) required.push(t);
      else if (!saved) t.dispose();
      else if (isBufferLayout(t) || (read !== null && !read.has(t))) keepForBackward(t);
      else forBackward.add(t);
    }
    required.push(...forBackward);
    region.unreadable = forBackward;
    try {
      region.flush('one op', unwritten(required));
    } finally {
      region.unreadable = null;
    }
    return result;
  } catch (e) {
    region.drop();
    throw e;
  }
}

function unwritten(tensors: readonly Tensor[]): Tensor[] {
  const out: Tensor[] = [];
  for (const t of tensors) if (!t._buf && !t.disposed) out.push(t);
  return out;
}

function tensorsIn(result: unknown): Tensor[] {
  if (result instanceof Tensor) return [result];
  return Array.isArray(result) ? result.filter((t): t is Tensor => t instanceof Tensor) : [];
}
