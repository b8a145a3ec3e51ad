import { createRequire } from 'node:module';
import { onnxRuntimeLibrary } from '../../dist/runtime/device/onnx/ortc-addon.js';
import { OnnxGraph } from '../../dist/runtime/device/onnx/onnx-graph.js';
const addon = createRequire(import.meta.url)('../../runtime/device/onnx/native/build/Release/ortc.node');
addon.init(onnxRuntimeLibrary(), 2, 'libdnnl.so.2');
const spec = (name, shape) => ({ name, dtype: 'float32', shape });
const med = (v) => [...v].sort((x, y) => x - y)[v.length >> 1];
const cases = JSON.parse(process.argv[2]);
for (const [sa, sb] of cases) {
  const out = [...sa.slice(0, -1), sb.at(-1)];
  const mk = (custom) => {
    const g = new OnnxGraph();
    const a = g.input('a', 'float32', sa), b = g.input('b', 'float32', sb);
    const y = custom ? g.customNode('tpu_kernel', 'Sgemm', [a, b], { transA: 0 }) : g.node('MatMul', [a, b]);
    g.output(y, 'float32', out);
    return addon.createSession(g.encode(), true, [spec('a', sa), spec('b', sb)], [spec(y, out)]);
  };
  const s = [mk(true), mk(false)];
  const A = new Float32Array(sa.reduce((p, q) => p * q)).map(() => Math.random()), B = new Float32Array(sb.reduce((p, q) => p * q)).map(() => Math.random());
  const O = new Float32Array(out.reduce((p, q) => p * q));
  const t = [[], []];
  for (let r = 0; r < 15; r++) s.forEach((x, i) => { addon.run(x, [A, B], [O]); const t0 = performance.now(); for (let j = 0; j < 5; j++) addon.run(x, [A, B], [O]); t[i].push((performance.now() - t0) / 5); });
  console.log(JSON.stringify(sa), JSON.stringify(sb), 'Sgemm', med(t[0]).toFixed(3), 'MatMul', med(t[1]).toFixed(3), 'ratio', (med(t[0]) / med(t[1])).toFixed(2));
}
process.exit(0);
