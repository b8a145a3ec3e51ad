// Failing a program from inside the graph: ONNX has no assert, but a Gather of index 1 from a
// one-element constant fails ("out of data bounds"), so the op's call reports a DeviceError
// instead of returning a made-up number. A deviceCheck primitive (ops/device-check.ts) fails
// the same way with its code as the index, from a node named after the check: the backend
// turns ONNX Runtime's message, which quotes both, into the check's text.
import type { DeviceCheck } from '../../device-check.js';
import { checkFailureText } from '../../device-check.js';
import type { OnnxGraph } from '../onnx-graph.js';
import { onnxLowerings } from './table.js';

/** int32 zeros of `failWhen`'s shape, or a failed program where it is true; add it to the result. */
export function zeroOrFail(g: OnnxGraph, failWhen: string): string {
  return g.node('Gather', [g.constant('int32', [1], [0]), g.node('Cast', [failWhen], { to: 7 })]);
}

/** ONNX Runtime's error from the Gather of check i: "... node. Name:'check<i>' Status Message: ... idx=<code> ...". */
const CHECK_FAILED = /Name:'check(\d+)'[\s\S]*?\bidx=(-?\d+)/;

/** The text of the device check whose node failed the run (ONNX Runtime's `message`), or undefined for any other failure. */
export function checkFailure(message: string, checks: readonly DeviceCheck[]): string | undefined {
  const m = CHECK_FAILED.exec(message);
  const check = m ? checks[Number(m[1])] : undefined;
  return check && checkFailureText(check, Number(m![2]));
}

onnxLowerings.register({
  // x·1 (floats: -0 and NaN kept) or x + 0 (integers) of the check's zero, so x depends on it
  deviceCheck(ctx, [x, code], check: DeviceCheck, types) {
    const g = ctx.graph;
    const zero = g.namedNode(`check${ctx.checks.length}`, 'Gather', [g.constant('int32', [1], [0]), code!]);
    ctx.checks.push(check);
    const d = types.output.dtype;
    if (d === 'int32' || d === 'int64') return g.node('Add', [x!, ctx.cast(zero, 'int32', d)]);
    return g.node('Mul', [x!, ctx.cast(g.node('Add', [zero, g.constant('int32', [], [1])]), 'int32', d)]);
  },
});
