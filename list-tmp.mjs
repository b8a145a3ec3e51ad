const { tpu } = await import('./dist/runtime/index.js');
const { onProgramCompiled } = await import('./dist/runtime/program/program-cache.js');
const { programText } = await import('./dist/runtime/profiler/program-listing.js');
const { lowerToOnnx } = await import('./dist/runtime/device/onnx/lower-program.js');
const { prepareVariant } = await import('./test/bench/runtime/workload-list.mjs');
onProgramCompiled((e) => { if (e.id > 8) { console.log(programText(e)); if (process.env.ONNX) console.log(lowerToOnnx(e.program, {axpy:true,softmax:true,select:true}).text); } });
const { run, mode } = await prepareVariant(tpu, 'W6', 'strict');
await tpu.withMode(mode, () => run.step());
process.exit(0);
