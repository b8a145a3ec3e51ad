// A layer's constructor arguments as PyTorch takes them: nn.LeakyReLU(0.2), nn.Hardtanh(-2, 2),
// nn.MaxPool2d(2, stride=1) are new tpu.nn.LeakyReLU(0.2), new tpu.nn.Hardtanh(-2, 2),
// new tpu.nn.MaxPool2d(2, { stride: 1 }): leading values by position, then one options object.
import { byPosition } from '../options.js';

/** The arguments by name (options.ts byPosition), errors naming `nn.${layer}`. */
export function layerArguments<T extends object>(layer: string, args: readonly unknown[], names: readonly (keyof T & string)[], keywordOnly: readonly (keyof T & string)[] = []): Partial<T> {
  return byPosition<T>(`nn.${layer}`, args, names, keywordOnly);
}
