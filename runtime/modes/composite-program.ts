// strict mode runs a composed op (layerNorm, gelu, softmax, crossEntropy, ...) as ONE program,
// as PyTorch runs its native kernel for it: the body's primitives are recorded into a region
// of their own (fused mode's machinery) and launched when the body returns; the program cache
// compiles each structure and shapes once. What the body makes besides its result is never
// materialized, unless autograd recorded the op: a backward pass reads those values, so the
// same program writes them too (eager mode keeps them as well).
import type { Tensor } from '../tensor.js';
import { collectMade } from '../scope.js';
import { FusedMode } from './fused.js';
import { Region } from './region.js';
import { inMode } from './mode.js';

const region = new Region(Infinity);
// Its ops count as strict mode's (profiler, tpu.stats): to the user they are one strict op.
const recording = new FusedMode(region, 'strict');

export function compositeAsOneProgram(fn: () => Tensor): Tensor {
  return inMode(recording, () => {
    try {
      const [out, made] = collectMade(fn);
      const required = [out];
      for (const t of made as Tensor[]) {
        if (t === out) continue;
        if (out.requiresGrad) required.push(t);
        else t.dispose();
      }
      region.flush('composed op', required.filter((t) => !t._buf && !t.disposed));
      return out;
    } catch (e) {
      region.drop();
      throw e;
    }
  });
}
