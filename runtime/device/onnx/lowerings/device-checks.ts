// Failing a program from inside the graph: ONNX has no assert, but a Gather of index 1 from a
// one-element constant fails ("out of data bounds"), so the op's call reports a DeviceError
// instead of returning a made-up number.
import type { OnnxGraph } from '../onnx-graph.js';

/** int32 zeros of `failWhen`'s shape, or a failed program where it is true; add it to the result. */
export function zeroOrFail(g: OnnxGraph, failWhen: string): string {
  return g.node('Gather', [g.constant('int32', [1], [0]), g.node('Cast', [failWhen], { to: 7 })]);
}
