// interpolate's bicubic and nearest-exact modes, recomputeScaleFactor and antialias, and
// nn.Upsample with them, against PyTorch 2.13 (values and gradients), traced by tpu.compile too.
import { describe, expect, it } from 'vitest';
import { tpu } from 'tpu-kernel/runtime';
import { f32, grads, seq, torchTier, uniform, type TorchCase } from './torch-tier.js';

const F = tpu.nn.functional;
const IMG = uniform([1, 2, 5, 6], 11, -2, 3);
const SMALL = seq('float32', [1, 1, 3, 4], 0.5, -2);

const cases: TorchCase[] = [
  { name: 'bicubic up to a size', inputs: [IMG], js: (x) => F.interpolate(x, { size: [8, 9], mode: 'bicubic' }), py: "F.interpolate(x0, size=(8, 9), mode='bicubic')" },
  { name: 'bicubic up with alignCorners', inputs: [IMG], js: (x) => F.interpolate(x, { size: [8, 9], mode: 'bicubic', alignCorners: true }), py: "F.interpolate(x0, size=(8, 9), mode='bicubic', align_corners=True)" },
  { name: 'bicubic down by a scale (border taps clamped)', inputs: [IMG], js: (x) => F.interpolate(x, { scaleFactor: 0.6, mode: 'bicubic' }), py: "F.interpolate(x0, scale_factor=0.6, mode='bicubic')" },
  { name: 'bicubic by a fractional scale, alignCorners false', inputs: [SMALL], js: (x) => F.interpolate(x, { scaleFactor: [1.7, 2.3], mode: 'bicubic', alignCorners: false }), py: "F.interpolate(x0, scale_factor=(1.7, 2.3), mode='bicubic', align_corners=False)" },
  { name: 'bicubic to a single row, alignCorners', inputs: [SMALL], js: (x) => F.interpolate(x, { size: [1, 5], mode: 'bicubic', alignCorners: true }), py: "F.interpolate(x0, size=(1, 5), mode='bicubic', align_corners=True)" },
  { name: 'bicubic of bf16', inputs: [{ ...SMALL, dtype: 'bfloat16' }], js: (x) => F.interpolate(x, { size: [5, 6], mode: 'bicubic' }), py: "F.interpolate(x0, size=(5, 6), mode='bicubic')", rtol: 1e-2, atol: 2e-2 },
  { name: 'nearest-exact up by a fractional scale', inputs: [IMG], js: (x) => F.interpolate(x, { scaleFactor: 1.5, mode: 'nearest-exact' }), py: "F.interpolate(x0, scale_factor=1.5, mode='nearest-exact')" },
  { name: 'nearest-exact down to a size', inputs: [IMG], js: (x) => F.interpolate(x, { size: [3, 4], mode: 'nearest-exact' }), py: "F.interpolate(x0, size=(3, 4), mode='nearest-exact')" },
  { name: 'nearest-exact of 1-D and 3-D inputs', inputs: [seq('float32', [1, 2, 5]), seq('float32', [1, 1, 2, 3, 3])], js: (a, b) => [F.interpolate(a, { size: 7, mode: 'nearest-exact' }), F.interpolate(b, { scaleFactor: [2, 0.7, 1.4], mode: 'nearest-exact' })], py: "(F.interpolate(x0, size=7, mode='nearest-exact'), F.interpolate(x1, scale_factor=(2, 0.7, 1.4), mode='nearest-exact'))" },
  { name: 'recomputeScaleFactor true: bilinear from the sizes alone', inputs: [IMG], js: (x) => F.interpolate(x, { scaleFactor: 1.7, mode: 'bilinear', recomputeScaleFactor: true }), py: "F.interpolate(x0, scale_factor=1.7, mode='bilinear', recompute_scale_factor=True)" },
  { name: 'recomputeScaleFactor false: bilinear by the given scale', inputs: [IMG], js: (x) => F.interpolate(x, { scaleFactor: 1.7, mode: 'bilinear', recomputeScaleFactor: false }), py: "F.interpolate(x0, scale_factor=1.7, mode='bilinear', recompute_scale_factor=False)" },
  { name: 'recomputeScaleFactor with nearest and bicubic', inputs: [IMG], js: (x) => [F.interpolate(x, { scaleFactor: 1.3, recomputeScaleFactor: true }), F.interpolate(x, { scaleFactor: 0.7, mode: 'bicubic', recomputeScaleFactor: true })], py: "(F.interpolate(x0, scale_factor=1.3, recompute_scale_factor=True), F.interpolate(x0, scale_factor=0.7, mode='bicubic', recompute_scale_factor=True))" },
  { name: 'recomputeScaleFactor with a size is refused', inputs: [IMG], js: (x) => F.interpolate(x, { size: 4, recomputeScaleFactor: true }), py: 'F.interpolate(x0, size=4, recompute_scale_factor=True)' },
  { name: 'antialias bilinear down', inputs: [uniform([1, 2, 9, 11], 12)], js: (x) => F.interpolate(x, { size: [4, 3], mode: 'bilinear', antialias: true }), py: "F.interpolate(x0, size=(4, 3), mode='bilinear', antialias=True)" },
  { name: 'antialias bicubic down by a scale', inputs: [uniform([1, 2, 9, 11], 13)], js: (x) => F.interpolate(x, { scaleFactor: 0.4, mode: 'bicubic', antialias: true }), py: "F.interpolate(x0, scale_factor=0.4, mode='bicubic', antialias=True)" },
  { name: 'antialias bilinear and bicubic up (PIL filters)', inputs: [SMALL], js: (x) => [F.interpolate(x, { size: [5, 7], mode: 'bilinear', antialias: true }), F.interpolate(x, { size: [5, 7], mode: 'bicubic', antialias: true })], py: "(F.interpolate(x0, size=(5, 7), mode='bilinear', antialias=True), F.interpolate(x0, size=(5, 7), mode='bicubic', antialias=True))" },
  { name: 'antialias with alignCorners', inputs: [uniform([1, 1, 7, 8], 14)], js: (x) => [F.interpolate(x, { size: [3, 5], mode: 'bilinear', antialias: true, alignCorners: true }), F.interpolate(x, { size: [3, 5], mode: 'bicubic', antialias: true, alignCorners: true })], py: "(F.interpolate(x0, size=(3, 5), mode='bilinear', antialias=True, align_corners=True), F.interpolate(x0, size=(3, 5), mode='bicubic', antialias=True, align_corners=True))" },
  { name: 'antialias with nearest is refused', inputs: [IMG], js: (x) => F.interpolate(x, { size: 3, antialias: true }), py: 'F.interpolate(x0, size=3, antialias=True)' },
  { name: 'bicubic of a 3-D input is refused', inputs: [seq('float32', [1, 2, 5])], js: (x) => F.interpolate(x, { size: 3, mode: 'bicubic' }), py: "F.interpolate(x0, size=3, mode='bicubic')" },
  { name: 'nn.Upsample bicubic alignCorners and nearest-exact', inputs: [SMALL], js: (x) => [new tpu.nn.Upsample({ scaleFactor: 2, mode: 'bicubic', alignCorners: true }).forward(x), new tpu.nn.Upsample(null, 1.5, 'nearest-exact').forward(x)], py: "(torch.nn.Upsample(scale_factor=2, mode='bicubic', align_corners=True)(x0), torch.nn.Upsample(None, 1.5, 'nearest-exact')(x0))" },
  { name: 'nn.Upsample recomputeScaleFactor', inputs: [SMALL], js: (x) => new tpu.nn.Upsample({ scaleFactor: 1.6, mode: 'bilinear', recomputeScaleFactor: true }).forward(x), py: "torch.nn.Upsample(scale_factor=1.6, mode='bilinear', recompute_scale_factor=True)(x0)" },
  grads('bicubic gradient', [uniform([1, 1, 3, 4], 15)], (x) => F.interpolate(x, { size: [5, 3], mode: 'bicubic' }), "F.interpolate(x0, size=(5, 3), mode='bicubic')", { atol: 1e-4 }),
  grads('bicubic alignCorners gradient', [uniform([1, 1, 3, 4], 16)], (x) => F.interpolate(x, { size: [4, 6], mode: 'bicubic', alignCorners: true }), "F.interpolate(x0, size=(4, 6), mode='bicubic', align_corners=True)", { atol: 1e-4 }),
  grads('nearest-exact gradient', [uniform([1, 1, 3, 4], 17)], (x) => F.interpolate(x, { size: [5, 3], mode: 'nearest-exact' }), "F.interpolate(x0, size=(5, 3), mode='nearest-exact')"),
  grads('antialias gradients', [uniform([1, 1, 7, 9], 18)], (x) => F.interpolate(x, { size: [3, 4], mode: 'bicubic', antialias: true }).add(F.interpolate(x, { size: [2, 5], mode: 'bilinear', antialias: true }).sum()), "F.interpolate(x0, size=(3, 4), mode='bicubic', antialias=True) + F.interpolate(x0, size=(2, 5), mode='bilinear', antialias=True).sum()", { atol: 1e-4 }),
  { name: 'bicubic of a 2-by-2 image up to 3-by-3', inputs: [f32([[[[1, 2], [3, 4]]]])], js: (x) => F.interpolate(x, { size: [3, 3], mode: 'bicubic' }), py: "F.interpolate(x0, size=(3, 3), mode='bicubic')" },
];

torchTier('interpolate modes, recomputeScaleFactor and antialias against PyTorch', cases, { compile: true });

describe('interpolate names bad options', () => {
  it('a mode it lacks, a misspelt option and a value of the wrong type', () => {
    const x = tpu.ones([1, 1, 4, 4]);
    expect(() => F.interpolate(x, { size: 2, mode: 'area' as never })).toThrow(`interpolate: mode must be one of 'nearest', 'nearest-exact', 'linear', 'bilinear', 'bicubic'; got "area"`);
    expect(() => F.interpolate(x, { size: 2, mode: 'bilinear', antiAlias: true } as never)).toThrow(/interpolate: unknown option 'antiAlias'/);
    expect(() => F.interpolate(x, { size: 2, mode: 'bicubic', antialias: 'yes' as never })).toThrow('interpolate: antialias must be a boolean; got "yes"');
    expect(() => F.interpolate(x, { size: 2, mode: 'nearest-exact', alignCorners: true })).toThrow("interpolate: alignCorners only applies to modes 'linear', 'bilinear' and 'bicubic'; got mode 'nearest-exact'");
  });
});
