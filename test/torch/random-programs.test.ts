// Random programs (random-program.ts) through the runtime in debug, strict and fused mode and
// under tpu.compile, and through PyTorch: values, dtypes, shapes and errors must agree.
// RANDOM_PROGRAMS (default 120) and RANDOM_PROGRAMS_SEED choose how many and which.
import { tpu } from 'tpu-kernel/runtime';
import { torchTier } from './torch-tier.js';
import { randomProgram } from './random-program.js';

const SEED = Number(process.env.RANDOM_PROGRAMS_SEED ?? 1);
const COUNT = Number(process.env.RANDOM_PROGRAMS ?? 120);
const programs = Array.from({ length: COUNT }, (_, i) => randomProgram(SEED + i));
// Finding the shapes ran the steps on zeros: a failure of theirs on the device belongs to no case
await tpu.sync().catch(() => undefined);
torchTier('random programs vs PyTorch', programs, { compile: true });
