// debug and strict: each op is its own (cached) program. strict enqueues it and returns;
// debug runs it before returning, checks outputs for NaN/Inf and throws at the caller's line.
import { ITEMSIZE } from '../dtype.js';
import { formatShape, numel } from '../shape.js';
import { isScalar, Tensor, type TraceNode } from '../tensor.js';
import type { Abstract, OpDef } from '../ops/op.js';
import type { Primitive } from '../primitive.js';
import { bindSingle } from '../program/bind-program.js';
import { chipSession } from '../device/current.js';
import { captureSite, formatSite, type CallSite } from '../call-site.js';
import { collectMade } from '../scope.js';
import { launch } from './launch.js';
import { COLLECTIVE_PRIMITIVES } from '../program/collective-nodes.js';
import { materialize } from './materialize.js';
import { adopt } from './adopt.js';
import { runAsOneProgram } from './composite-program.js';
import type { Mode } from './mode-type.js';

export class NonFiniteError extends Error {
  override name = 'NonFiniteError';
}

class EagerMode implements Mode {
  readonly region = null;

  constructor(readonly name: 'debug' | 'strict') {}

  site(op: OpDef<any>, out: Abstract, caller: Function): CallSite | null {
    // Unformatted until a device error names it (call-site.ts).
    return captureSite(caller, this.name === 'debug', mayFailOnDevice(op, out));
  }

  apply(node: TraceNode): Tensor {
    for (const v of node.inputs) if (!isScalar(v) && !v._buf) materialize(v, 'input of an eager op');
    const out = new Tensor(node);
    // A collective finishes only with its peers, dispatched after it: the caller waits for them all.
    const debug = this.name === 'debug' && !COLLECTIVE_PRIMITIVES.has(node.op.name);
    const reply = launch(bindSingle(node, out), debug);
    if (debug) {
      const bad = chipSession(out.chip).waitChecked(reply!, `debug: ${node.op.name}`);
      if (bad.length) {
        out.dispose();
        throw new NonFiniteError(
          `${node.op.name} produced NaN or Inf (output ${formatShape(node.shape)} ${node.dtype}) at ${formatSite(node.site)}`,
        );
      }
    }
    return out;
  }

  // strict: one program (composite-program.ts). debug runs each primitive alone, so a NaN is
  // caught at the primitive that made it. What the body makes and does not return is freed
  // at once, unless autograd recorded the op (its result requires grad): a backward pass reads them.
  composite(fn: () => Tensor): Tensor {
    if (this.name === 'strict') return runAsOneProgram(fn);
    const [out, made] = collectMade(fn);
    if (!out.requiresGrad) for (const t of made) if (t !== out) t.dispose();
    return out;
  }

  oneOp<T>(fn: () => T): T {
    return this.name === 'strict' ? runAsOneProgram(fn) : fn();
  }

  assign(target: Tensor, source: Tensor): void {
    materialize(source, 'in-place update');
    adopt(target, source);
  }

  leave(): void {}
}

// A launch fails on the device when its output cannot be allocated there (large outputs) or
// when it reads indices from device data. By default only such calls record their site:
// a capture costs several µs, small beside the device time of a large op.
const LARGE_OUTPUT_BYTES = 1 << 20;
export function mayFailOnDevice(op: Primitive, out: Abstract): boolean {
  return op.readsDeviceIndices === true || numel(out.shape) * ITEMSIZE[out.dtype] >= LARGE_OUTPUT_BYTES;
}

export const debug: Mode = new EagerMode('debug');
export const strict: Mode = new EagerMode('strict');
