// A cell-like sequence in one mode (argv[2]), recorded: prints the profile's programs with
// XLA:TPU's figures, and how many came from a compile or from the disk cache.
import { tpu } from 'tpu-kernel/runtime';
import { tpuInLoop } from '../../dist/runtime/device/tpu-loop/tpu-in-loop.js';

tpu.mode(process.argv[2] ?? 'strict');
const recording = tpu.profiler.record({ title: 'cell' });
const x = tpu.arange(0, 256 * 512).reshape([256, 512]).mul(1 / 65536);
const w = tpu.ones([512, 256]).mul(0.01);
const y = x.matmul(w).gelu().sum();
await y.data();
const profile = await recording.stop();
console.log(JSON.stringify({
  compiled: tpuInLoop.compiled,
  fromDisk: tpuInLoop.fromDisk,
  programs: profile.data.programs.map((p) => ({ label: p.label, estimatedBy: p.estimatedBy, xla: p.xla })),
}));
