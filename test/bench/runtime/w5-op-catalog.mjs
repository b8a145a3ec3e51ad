// W5 of the runtime bench: layerNorm then exact gelu on [4096, 1024], weight and
// bias of [1024], beside raw ONNX Runtime running LayerNormalization + the erf Gelu as one graph.
import { rawSession } from './raw-ort.mjs';

const ROWS = 4096;
const COLS = 1024;

export const w5 = {
  id: 'W5',
  title: 'layerNorm → gelu on [4096, 1024]',
  unit: 'ms',
  value: (ms) => ms,
  async prepare(tpu) {
    const F = tpu.nn.functional;
    const x = tpu.randn([ROWS, COLS]);
    const weight = tpu.rand([COLS]);
    const bias = tpu.rand([COLS]);
    return {
      async step() {
        F.gelu(F.layerNorm(x, [COLS], { weight, bias }));
        await tpu.sync();
      },
      dispose: () => [x, weight, bias].forEach((t) => t.dispose()),
    };
  },
  async prepareRaw(threads) {
    const s = await rawSession(threads, (g) => {
      const c = (v) => g.constant('float32', [], [v]);
      const ln = g.node('LayerNormalization', ['x', 'w', 'b'], { axis: -1, epsilon: { float: 1e-5 } });
      const erf = g.node('Erf', [g.node('Div', [ln, c(Math.SQRT2)])]);
      const out = g.node('Mul', [g.node('Mul', [g.node('Add', [erf, c(1)]), ln]), c(0.5)]);
      return { inputs: [['x', [ROWS, COLS]], ['w', [COLS]], ['b', [COLS]]], output: [out, [ROWS, COLS]] };
    });
    return { step: () => s.run() };
  },
};

export default [w5];
