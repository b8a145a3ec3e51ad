// The floor: the same work through raw onnxruntime-node sessions, no runtime around them.
import ort from 'onnxruntime-node';
import { OnnxGraph } from '../../../dist/runtime/device/onnx/onnx-graph.js';

const options = (threads) => ({
  intraOpNumThreads: threads,
  interOpNumThreads: 1,
  executionMode: 'sequential',
  graphOptimizationLevel: 'all',
  extra: { session: { intra_op: { allow_spinning: '0' } } },
});

/**
 * Builds a session from `build(graph) -> { inputs: [[name, dims, data?, type?]], output: [name, dims] }`
 * (inputs float32 unless a type says 'bool': then data is a Uint8Array).
 */
export async function rawSession(threads, build) {
  const g = new OnnxGraph();
  const { inputs, output } = build(g);
  for (const [name, dims, , type = 'float32'] of inputs) g.input(name, type, dims);
  g.output(output[0], 'float32', output[1]);
  const session = await ort.InferenceSession.create(g.encode(), options(threads));
  const size = (dims) => dims.reduce((a, b) => a * b, 1);
  const feeds = Object.fromEntries(inputs.map(([name, dims, data, type = 'float32']) => [name, new ort.Tensor(type, data ?? new Float32Array(size(dims)).fill(0.5), dims)]));
  const out = new ort.Tensor('float32', new Float32Array(size(output[1])), output[1]);
  return { run: () => session.run(feeds, { [output[0]]: out }), feeds, session };
}
