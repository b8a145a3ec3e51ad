// A layer's constructor arguments as PyTorch takes them: nn.LeakyReLU(0.2), nn.Hardtanh(-2, 2),
// nn.MaxPool2d(2, stride=1) are new tpu.nn.LeakyReLU(0.2), new tpu.nn.Hardtanh(-2, 2),
// new tpu.nn.MaxPool2d(2, { stride: 1 }): leading values by position, then one options object.
// A tpu.compile number argument given to a layer built inside the compiled function is its
// value: the trace is specialized on it.
import { byPosition } from '../options.js';
import { specializedOptions } from '../jit/live-number.js';

/** The arguments by name (options.ts byPosition), errors naming `nn.${layer}`. */
export function layerArguments<T extends object>(layer: string, args: readonly unknown[], names: readonly (keyof T & string)[], keywordOnly: readonly (keyof T & string)[] = []): Partial<T> {
  return specializedOptions(byPosition<T>(`nn.${layer}`, args, names, keywordOnly));
}
