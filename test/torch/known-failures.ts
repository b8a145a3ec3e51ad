// Known differences from PyTorch in the torch tier, with the reason: ONE list, so nothing is
// skipped silently. Keys are case names, or "case @mode" for one mode. These tests run as
// it.fails: when a fix lands, the test fails until its entry is removed here.
const WHERE_NEG_ZERO = "ONNX Runtime's Where merges its selections as `x != 0 ? x : y`, so a -0 selected from its input (not from other) comes out +0; no cheap exact lowering exists (the ONNX lowerings of the runtime's own ops keep such zeros in the other branch). The StableHLO lowering is exact";
const MAX_ZERO_TIE = "the sign of maximum/minimum of a tie of zeros (-0 and 0): PyTorch keeps the first operand; ONNX Runtime's Max/Min take either one depending on the tensor's length (its vector and scalar paths), and an exact ONNX lowering needs ~8 more ops (its Where cannot select a -0 from its X input). The StableHLO lowering is exact";

const GELU_HUGE = "PyTorch's vectorized gelu computes x·(1 + erf(x/√2)) before halving, so it overflows to inf for x above 1.7e38; ONNX Runtime's fused Gelu kernel (the CPU executor) halves first and returns x (debug mode: see GELU_ONE_INF)";
const GELU_ONE_INF = "PyTorch's gelu of +inf depends on the tensor's length: NaN from its vectorized path (any tensor of 2 or more elements), inf from its scalar path (one element); here NaN at every length (debug mode's NaN/Inf check raises, which passes when PyTorch's answer is not finite either)";

export const KNOWN_FAILURES: Record<string, string> = {
  'layerNorm of rows whose squares overflow': "PyTorch's CPU layer_norm takes the variance from float32 sums of squares: beyond |x| ≈ 1.8e19 they overflow and a constant 1e30 row gives NaN (a row of 17 elements gives 0: another path of its kernel). Here the variance is the mean of squared deviations (ONNX Runtime's LayerNormalization fusion pattern): 0 for a constant row, and an overflowing variance normalizes to 0, not NaN",
  'gelu beyond half the float32 maximum @strict': GELU_HUGE,
  'gelu beyond half the float32 maximum @fused': GELU_HUGE,
  'gelu of a one-element +inf @strict': GELU_ONE_INF,
  'gelu of a one-element +inf @fused': GELU_ONE_INF,
  'maximum and minimum of -0 and 0 keep the first operand': MAX_ZERO_TIE,
  'where picks -0 from its input': WHERE_NEG_ZERO,
  'maskedFill with -0': WHERE_NEG_ZERO,
  '0-d where and clamp @strict': WHERE_NEG_ZERO,
  '0-d where and clamp @fused': WHERE_NEG_ZERO,
};
