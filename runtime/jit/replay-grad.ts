// A replay's result where the traced one required grad (a forward over parameters, returned
// for a backward() outside): it requires grad too, as the eager result does, but a replay
// runs one program and records no graph, so a backward() through it throws, naming the fix,
// instead of leaving the parameters' gradients silently out.
import type { Tensor } from '../tensor.js';
import type { OpDef } from '../ops/op.js';
import { recordTime } from '../autograd/grad-clock.js';

/** The node's op per compiled function name (a replay of a training step returns its loss so at every call). */
const ops = new Map<string, OpDef<null>>();

function replayed(name: string): OpDef<null> {
  let op = ops.get(name);
  if (!op) ops.set(name, (op = made(name)));
  return op;
}

function made(name: string): OpDef<null> {
  return {
    name: `tpu.compile(${name}) replay`,
    infer: () => { throw new Error('a replay result is made by its program, not inferred'); },
    grad: () => {
      throw new Error(`backward: tpu.compile(${name}) returned this tensor from a replay, which runs one program and records no autograd graph, ` +
        'so gradients cannot flow back through it to the tensors it was computed from. Call backward() inside the compiled function ' +
        '(the whole training step: zeroGrad, forward, loss.backward(), opt.step()), or compute this forward eagerly where its graph is needed.');
    },
    gradReads: 'none',
  };
}

/** Marks `t` as requiring grad through a node whose backward throws. */
export function withoutGraph(t: Tensor, name: string): void {
  t.requiresGrad = true;
  t._gradNode = { op: replayed(name), operands: [], attrs: null, versions: [], recordedAt: recordTime() };
}
