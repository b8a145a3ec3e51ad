// The gradients of random float32 programs (random-program.ts: every step differentiable,
// ties and kinks common, as the values are small integers and halves): tpu.grad of the
// result's sum in every mode and under tpu.compile against PyTorch's backward(), where the
// conventions at ties (amax shares, max(dim) picks one), kinks and zeros are PyTorch's.
// RANDOM_GRADIENTS (default 80) and RANDOM_GRADIENTS_SEED choose how many and which.
import { tpu } from 'tpu-kernel/runtime';
import { torchTier } from './torch-tier.js';
import { randomProgram } from './random-program.js';

const SEED = Number(process.env.RANDOM_GRADIENTS_SEED ?? 1);
const COUNT = Number(process.env.RANDOM_GRADIENTS ?? 80);
const programs = Array.from({ length: COUNT }, (_, i) => randomProgram(SEED + i, { gradient: true }));
await tpu.sync().catch(() => undefined);
torchTier('gradients of random programs vs PyTorch', programs, { compile: true });
