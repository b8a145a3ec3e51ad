// Known differences from PyTorch in the torch tier, with the reason: ONE list, so nothing is
// skipped silently. Keys are case names, or "case @mode" for one mode. These tests run as
// it.fails: when a fix lands, the test fails until its entry is removed here.
const GELU_HUGE = "PyTorch's vectorized gelu computes x·(1 + erf(x/√2)) before halving, so it overflows to inf for x above 1.7e38; ONNX Runtime's fused Gelu kernel (the CPU executor) halves first and returns x (debug mode runs the formula op by op, overflows as PyTorch does, and its NaN/Inf check raises, which passes when PyTorch's answer is not finite either)";
const GELU_ONE_INF = "PyTorch's gelu of +inf depends on the tensor's length: NaN from its vectorized path (any tensor of 2 or more elements), inf from its scalar path (one element); here NaN at every length, in every mode";

const REPEATS_READ = "repeatInterleave by a tensor of counts without outputSize reads the counts from the device (its length is their sum): tpu.compile refuses the read at trace time with an error that asks for outputSize (torch.compile breaks its graph there); the cases with outputSize run compiled";

const CROSS_DEFAULT = "torch.cross without a dim takes the first dim of length 3 (deprecated; torch.linalg.cross takes the last): here x.cross(y) without a dim raises, asking for the dim, where the two defaults differ";

export const KNOWN_FAILURES: Record<string, string> = {
  'layerNorm of rows whose squares overflow': "PyTorch's CPU layer_norm takes the variance from float32 sums of squares: beyond |x| ≈ 1.8e19 they overflow and a constant 1e30 row gives NaN (a row of 17 elements gives 0: another path of its kernel). Here the variance is the mean of squared deviations (ONNX Runtime's LayerNormalization fusion pattern): 0 for a constant row, and an overflowing variance normalizes to 0, not NaN",
  'gelu beyond half the float32 maximum @strict': GELU_HUGE,
  'gelu beyond half the float32 maximum @fused': GELU_HUGE,
  'gelu of a one-element +inf': GELU_ONE_INF,
  'takeAlongDim out of range is an error': "PyTorch 2.13's take_along_dim with a dim reads an index past the end modulo the dim's size (index 3 of 3 reads element 0: no bounds check on that path); here it is an error, as gather's",
  'repeatInterleave by a tensor of counts @compile': REPEATS_READ,
  'repeatInterleave of repeats alone, of ints and bools @compile': REPEATS_READ,
  'repeatInterleave gradients @compile': REPEATS_READ,
  'cross without a dim where torch.cross takes the first dim of length 3': CROSS_DEFAULT,
  'mode of rows holding NaN': "PyTorch's CPU mode sorts each row with std::sort and a < that NaN breaks (no strict weak order: undefined behaviour in C++), then counts runs of equal neighbours, so its answer for a row holding NaN is wherever libstdc++'s sort leaves the NaNs: a NaN left inside a run splits it ([3, nan, 3, nan, nan, 3] gives 3 counted once, at index 0) and a NaN may be named ([nan, 1, nan, 1, 2] gives nan at index 0). Here each NaN is a value of its own, sorted last: 3 at index 5, and 1 at index 3",
  'allclose and equal @compile': "allclose and equal give a JS boolean, read from the device (PyTorch's Python bool): tpu.compile refuses a value read while it traces, with an error that says so (torch.compile breaks its graph there instead)",
};
