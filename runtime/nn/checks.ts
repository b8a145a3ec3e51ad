// Argument checks shared by the layers: errors name the layer, the argument and the value.
export function checkPositiveInt(layer: string, arg: string, v: unknown): void {
  if (!Number.isInteger(v) || (v as number) < 1) throw new RangeError(`${layer}: ${arg} must be a positive integer; got ${JSON.stringify(v)}`);
}
