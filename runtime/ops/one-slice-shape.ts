// Whether a value written through a mask (x[mask] = v, indexPut) fits one selected slice whatever
// the mask's count is: shared by the runtime's masked put and the kernel's cell operators, so it
// imports nothing (the kernel loads it before the runtime).

/**
 * The shape v takes as one selected slice of shape `rest` (v's own, or without a leading count
 * dim of 1), or null when it does not broadcast to one slice (v of [count, ...rest], or a misfit).
 */
export function oneSliceShape(shape: readonly number[], rest: readonly number[]): readonly number[] | null {
  const one = shape.length === rest.length + 1 && shape[0] === 1 ? shape.slice(1) : shape;
  const fits = one.length <= rest.length && one.every((n, k) => n === 1 || n === rest[rest.length - one.length + k]);
  return fits ? one : null;
}
