// Hand-written StableHLO programs for the pjrt tests, with hand-computed sizes.

/** tanh(x @ w) in bfloat16: x [256,1024], w [1024,1024]. */
export const MATMUL_TANH = `module @matmul_tanh {
  func.func public @main(%x: tensor<256x1024xbf16>, %w: tensor<1024x1024xbf16>) -> tensor<256x1024xbf16> {
    %0 = stablehlo.dot_general %x, %w, contracting_dims = [1] x [0] : (tensor<256x1024xbf16>, tensor<1024x1024xbf16>) -> tensor<256x1024xbf16>
    %1 = stablehlo.tanh %0 : tensor<256x1024xbf16>
    return %1 : tensor<256x1024xbf16>
  }
}`;

/** Row sums of a float32 [512,1024] matrix, and the scalar learning rate passed as a parameter. */
export const REDUCE_SCALE = `module @reduce_scale {
  func.func public @main(%x: tensor<512x1024xf32>, %lr: tensor<f32>) -> tensor<512xf32> {
    %zero = stablehlo.constant dense<0.0> : tensor<f32>
    %sum = stablehlo.reduce(%x init: %zero) applies stablehlo.add across dimensions = [1] : (tensor<512x1024xf32>, tensor<f32>) -> tensor<512xf32>
    %lrs = stablehlo.broadcast_in_dim %lr, dims = [] : (tensor<f32>) -> tensor<512xf32>
    %out = stablehlo.multiply %sum, %lrs : tensor<512xf32>
    return %out : tensor<512xf32>
  }
}`;

/** Column sums of x [1024,256] sharded by rows over 4 devices: each sums its rows, then an all-reduce. */
export const SPMD_SUM_4 = `module @spmd_sum attributes {mhlo.num_partitions = 4 : i32, mhlo.num_replicas = 1 : i32} {
  func.func public @main(%x: tensor<1024x256xf32> {mhlo.sharding = "{devices=[4,1]<=[4]}"}) -> (tensor<256xf32> {mhlo.sharding = "{replicated}"}) {
    %zero = stablehlo.constant dense<0.0> : tensor<f32>
    %sum = stablehlo.reduce(%x init: %zero) applies stablehlo.add across dimensions = [0] : (tensor<1024x256xf32>, tensor<f32>) -> tensor<256xf32>
    return %sum : tensor<256xf32>
  }
}`;

/** The function's declared result type does not match what it returns. */
export const MISTYPED = MATMUL_TANH.replace('-> tensor<256x1024xbf16> {', '-> tensor<256x1024xf32> {');
