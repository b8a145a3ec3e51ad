// Compiles with libtpu, then ends as argv says: "natural" (exitCode 7, the loop drains),
// "exit" (process.exit(5) after the compile) or "mid-compile" (process.exit(4) while a
// compile runs on a pool thread). The test checks the process ends with that code.
import { compileForTpu } from '../../dist/runtime/device/pjrt/index.js';

const program = `module @exit_test {
  func.func public @main(%x: tensor<128x128xf32>) -> tensor<128x128xf32> {
    %0 = stablehlo.dot_general %x, %x, contracting_dims = [1] x [0] : (tensor<128x128xf32>, tensor<128x128xf32>) -> tensor<128x128xf32>
    return %0 : tensor<128x128xf32>
  }
}`;

const how = process.argv[2];
if (how === 'mid-compile') {
  await compileForTpu(program, { topology: 'v5e:2x2' }); // libtpu loaded and warm
  void compileForTpu(program.replace('@exit_test', '@second'), { topology: 'v6e:2x2' });
  setTimeout(() => process.exit(4), 20);
} else {
  const compiled = await compileForTpu(program, { topology: 'v5e:2x2' });
  console.log(compiled.costAnalysis().flops);
  if (how === 'exit') process.exit(5);
  process.exitCode = 7;
}
