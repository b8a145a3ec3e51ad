// W6 of the runtime bench (issue 7): one SGD training step of an MLP 784→256→10 (relu,
// softmax cross-entropy), batch 64, in debug, strict and fused mode and under tpu.compile.
// Steady state: each mode warms up first; a step is timed until its device work is done.
// The programs compiled after warm-up are reported (they must be 0).
const WARMUP = 3;
const STEPS = 30;
const median = (xs) => [...xs].sort((a, b) => a - b)[Math.floor(xs.length / 2)];

function setup(tpu) {
  tpu.manualSeed(6);
  const model = new tpu.nn.Sequential(new tpu.nn.Linear(784, 256), new tpu.nn.ReLU(), new tpu.nn.Linear(256, 10));
  const opt = new tpu.optim.SGD(model.parameters(), { lr: 0.01 });
  const x = tpu.randn([64, 784]);
  const y = tpu.randint(0, 10, [64]);
  const step = (xb, yb) => {
    opt.zeroGrad();
    const loss = tpu.nn.crossEntropy(model.forward(xb), yb);
    loss.backward();
    opt.step();
    return loss;
  };
  return { model, x, y, step };
}

async function measure(tpu, runStep) {
  // Warm-up steps exactly like timed ones (a sync after each: one fused region per step).
  for (let i = 0; i < WARMUP; i++) {
    runStep();
    await tpu.sync();
  }
  const compiledBefore = tpu.stats().programsCompiled;
  const ms = [];
  for (let i = 0; i < STEPS; i++) {
    const t0 = performance.now();
    runStep();
    await tpu.sync();
    ms.push(performance.now() - t0);
  }
  // The best step too: on a shared machine it is the least disturbed by other processes.
  return { value: median(ms), best: Math.min(...ms), compilesAfterWarmup: tpu.stats().programsCompiled - compiledBefore };
}

export const w6 = {
  id: 'W6',
  title: 'SGD step, MLP 784→256→10, batch 64',
  unit: 'ms',
  async run(tpu) {
    const { x, y, step } = setup(tpu);
    return measure(tpu, () => tpu.scope(() => void step(x, y)));
  },
  /** The same step under tpu.compile (one program per step). */
  async compiled(tpu) {
    const { x, y, step } = setup(tpu);
    const compiledStep = tpu.compile(step);
    return measure(tpu, () => tpu.scope(() => void compiledStep(x, y)));
  },
};

export default [w6];
