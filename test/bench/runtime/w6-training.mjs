// W6 of the runtime bench: one SGD training step of an MLP 784→256→10 (relu,
// softmax cross-entropy), batch 64, in debug, strict and fused mode and under tpu.compile
// (workload shape: see workloads.mjs; no raw ONNX Runtime twin: it would need a
// hand-written backward graph).
function setup(tpu) {
  tpu.manualSeed(6);
  const model = new tpu.nn.Sequential(new tpu.nn.Linear(784, 256), new tpu.nn.ReLU(), new tpu.nn.Linear(256, 10));
  const opt = new tpu.optim.SGD(model.parameters(), { lr: 0.01 });
  const x = tpu.randn([64, 784]);
  const y = tpu.randint(0, 10, [64]);
  const trainStep = (xb, yb) => {
    opt.zeroGrad();
    const loss = tpu.nn.crossEntropy(model.forward(xb), yb);
    loss.backward();
    opt.step();
    return loss;
  };
  const dispose = () => {
    opt.zeroGrad();
    for (const t of [x, y, ...model.parameters()]) t.dispose();
  };
  return { x, y, trainStep, dispose };
}

export const w6 = {
  id: 'W6',
  title: 'SGD step, MLP 784→256→10, batch 64',
  unit: 'ms',
  value: (ms) => ms,
  async prepare(tpu) {
    const { x, y, trainStep, dispose } = setup(tpu);
    return {
      async step() {
        trainStep(x, y);
        await tpu.sync(); // a step is timed until its device work is done
      },
      dispose,
    };
  },
  /** The same step as ONE program per call (tpu.compile). */
  async prepareCompiled(tpu) {
    const { x, y, trainStep, dispose } = setup(tpu);
    const compiled = tpu.compile(trainStep);
    return {
      async step() {
        compiled(x, y);
        await tpu.sync();
      },
      dispose,
    };
  },
};

export default [w6];
