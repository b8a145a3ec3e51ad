// A layer's constructor arguments as PyTorch takes them: nn.LeakyReLU(0.2), nn.Hardtanh(-2, 2),
// nn.MaxPool2d(2, stride=1) are new tpu.nn.LeakyReLU(0.2), new tpu.nn.Hardtanh(-2, 2),
// new tpu.nn.MaxPool2d(2, { stride: 1 }): leading values by position, then one options object.
import { isOptions, readOptions } from '../options.js';

/**
 * The arguments by name. `names` are the ones that may come by position, in PyTorch's order,
 * `keywordOnly` the ones only the options object may hold (it may hold any of both). Too many
 * values, an unknown option or a name given both ways is an error naming the layer.
 */
export function layerArguments<T extends object>(layer: string, args: readonly unknown[], names: readonly (keyof T & string)[], keywordOnly: readonly (keyof T & string)[] = []): Partial<T> {
  const who = `nn.${layer}`;
  const last = args[args.length - 1];
  const values = isOptions(last) ? args.slice(0, -1) : args;
  if (values.length > names.length) {
    throw new TypeError(`${who}: takes at most ${names.length} argument${names.length === 1 ? '' : 's'} (${names.join(', ')}) before its options; got ${values.length}`);
  }
  const named: Record<string, unknown> = { ...readOptions<T>(who, isOptions(last) ? last : undefined, [...names, ...keywordOnly]) };
  values.forEach((v, i) => {
    const name = names[i]!;
    if (v === undefined) return; // an omitted argument
    if (named[name] !== undefined) throw new TypeError(`${who}: ${name} is given twice: positionally (${JSON.stringify(v)}) and in the options (${JSON.stringify(named[name])})`);
    named[name] = v;
  });
  return named as Partial<T>;
}
