// debug and strict: each op is its own (cached) program. strict enqueues it and returns;
// debug runs it before returning, checks outputs for NaN/Inf and throws at the caller's line.
import type { TraceNode } from '../compiler/trace.js';
import { isScalar } from '../compiler/trace.js';
import { bindSingle } from '../compiler/bind-program.js';
import { currentSession } from '../device/current.js';
import { formatSite } from '../call-site.js';
import { formatShape } from '../shape.js';
import { Tensor } from '../tensor.js';
import { launch } from './launch.js';
import { materialize } from './materialize.js';

export class NonFiniteError extends Error {
  override name = 'NonFiniteError';
}

export function applyEager(node: TraceNode, debug: boolean): Tensor {
  for (const v of node.inputs) if (!isScalar(v) && !v._buf) materialize(v, 'input of an eager op');
  const out = new Tensor(node);
  const bp = bindSingle(node, out);
  const reply = launch(bp, debug);
  if (debug) {
    const session = currentSession();
    const bad = session.waitChecked(reply!, `debug: ${node.op.name}`);
    if (bad.length) {
      out.dispose();
      throw new NonFiniteError(
        `${node.op.name} produced NaN or Inf (output ${formatShape(node.shape)} ${node.dtype}) at ${formatSite(node.site)}`,
      );
    }
  }
  return out;
}
