#include "sgemm-op.h"

#include "custom-op-kit.h"
#include "gemm-crew.h"
#include "softmax-op.h"

#include <algorithm>
#include <atomic>
#include <cstring>
#include <stdexcept>
#include <string>
#include <vector>

namespace ortc {

namespace {

/**
 * What the node applies to each block of C right after its product, while the block is in
 * cache (the lowering folds a matmul's only consumer into it): nothing, relu, or a softmax
 * over C's rows (blocks of whole rows then).
 */
enum Epilogue : int64_t { kNone = 0, kRelu = 1, kSoftmax = 2 };

struct Kernel {
  const void* const* api;
  bool transA;
  Epilogue epilogue;
};

/** oneDNN's GEMM (alone, and in its team) and the threads a product is split over (the caller included), set once by sgemmOp. */
SgemmFn gemmRun = nullptr;
TeamSgemmFn gemmTeam = nullptr;
int64_t poolThreads = 1;

Status* fail(const void* const* api, const std::string& message) { return kernelFailure(api, "Sgemm", message); }

/** One product's operands, split into `parts` blocks of rows (or of columns, for few rows). */
struct Split {
  bool transA;
  int64_t rows, N, K;
  const float *a, *b;
  float* c;
  int64_t parts;
  bool byRows;
  Epilogue epilogue;
  std::atomic<int> status{0};
};

/** The epilogue on m rows of n columns of C from `c` (rows N apart). */
void finish(Epilogue epilogue, float* c, int64_t m, int64_t n, int64_t N) {
  if (epilogue == kRelu) {
    // max(x, 0) as ONNX Runtime's Relu takes it: a NaN stays NaN, -0 stays -0
    for (int64_t i = 0; i < m; i++, c += N) {
      for (int64_t j = 0; j < n; j++) c[j] = c[j] < 0.0f ? 0.0f : c[j];
    }
  } else if (epilogue == kSoftmax) {
    thread_local std::vector<float> row;  // a wide row's softmax reads its input twice
    row.resize(n);
    for (int64_t i = 0; i < m; i++, c += N) {
      std::copy(c, c + n, row.begin());
      softmaxRows(row.data(), c, 1, n);
    }
  }
}

/** Rows (or columns) per block: an even share, rounded up to a whole register tile of 16. */
int64_t blockOf(int64_t extent, int64_t parts) { return ((extent + parts - 1) / parts + 15) / 16 * 16; }

/** Task i of a Split: batch i / parts, block i % parts. */
void runBlock(void* raw, size_t i) {
  auto& s = *static_cast<Split*>(raw);
  const int64_t batch = static_cast<int64_t>(i) / s.parts, part = static_cast<int64_t>(i) % s.parts;
  const int64_t extent = s.byRows ? s.rows : s.N, block = blockOf(extent, s.parts);
  const int64_t begin = part * block, end = std::min(extent, begin + block);
  if (begin >= end) return;
  const float* a = s.a + batch * s.rows * s.K;
  const float* b = s.b + batch * s.K * s.N;
  float* c = s.c + batch * s.rows * s.N;
  int64_t m = s.rows, n = s.N;
  if (s.byRows) {
    a += s.transA ? begin : begin * s.K;  // A's rows are its columns when transposed
    c += begin * s.N;
    m = end - begin;
  } else {
    b += begin;
    c += begin;
    n = end - begin;
  }
  const int status = gemmRun(s.transA ? 'T' : 'N', 'N', m, n, s.K, 1.0f, a, s.transA ? s.rows : s.K, b, s.N, 0.0f, c, s.N);
  if (status != 0) s.status.store(status);
  else finish(s.epilogue, c, m, n, s.N);
}

/** Task i of a product oneDNN's team made: the epilogue on block i of C's rows (batches and rows as one). */
void finishBlock(void* raw, size_t i) {
  auto& s = *static_cast<Split*>(raw);
  const int64_t block = blockOf(s.rows, s.parts), begin = static_cast<int64_t>(i) * block, end = std::min(s.rows, begin + block);
  if (begin < end) finish(s.epilogue, s.c + begin * s.N, end - begin, s.N, s.N);
}

Status* compute(void* raw, KernelContext* context) {
  const auto& k = *static_cast<Kernel*>(raw);
  const void* const* api = k.api;
  try {
    const Value *a = nullptr, *b = nullptr;
    check(api, fn<KernelContext_GetInput>(api)(context, 0, &a));
    check(api, fn<KernelContext_GetInput>(api)(context, 1, &b));
    const std::vector<int64_t> da = dimsOf(api, a), db = dimsOf(api, b);
    const size_t ra = da.size(), rb = db.size();
    if (ra < 2 || rb < 2 || (k.transA && ra != 2) || (rb > 2 && (rb != ra || k.transA))) {
      return fail(api, "unsupported operand shapes " + shapeText(da) + " and " + shapeText(db));
    }
    const int64_t M = k.transA ? da[1] : da[ra - 2], K = k.transA ? da[0] : da[ra - 1];
    const int64_t KB = db[rb - 2], N = db[rb - 1];
    if (K != KB) return fail(api, "inner dimensions differ: " + shapeText(da) + " and " + shapeText(db));
    int64_t lead = 1;  // the product of A's leading (batch) dims
    for (size_t i = 0; i + 2 < ra; i++) {
      if (rb > 2 && da[i] != db[i]) return fail(api, "batch dimensions differ: " + shapeText(da) + " and " + shapeText(db));
      lead *= da[i];
    }
    std::vector<int64_t> out(da.begin(), da.end() - 1);
    if (k.transA) out = {M};
    out.push_back(N);
    // A rank-2 B is shared by all of A's rows: one GEMM over them; a batched B is one GEMM per batch.
    const int64_t rows = rb == 2 ? lead * M : M, batch = rb == 2 ? 1 : lead;
    Value* y = nullptr;
    check(api, fn<KernelContext_GetOutput>(api)(context, 0, out.data(), out.size(), &y));
    float* c = floatData(api, y);
    if (rows == 0 || N == 0 || batch == 0) return nullptr;
    if (K == 0) {
      std::memset(c, 0, sizeof(float) * rows * N * batch);
      finish(k.epilogue, c, rows * batch, N, N);
      return nullptr;
    }
    const float *pa = floatData(api, a), *pb = floatData(api, b);
    if (gemmTeam) {
      for (int64_t i = 0; i < batch; i++) {
        const int status = gemmTeam(static_cast<int>(poolThreads), k.transA ? 'T' : 'N', 'N', rows, N, K, 1.0f, pa + i * rows * K,
                                    k.transA ? rows : K, pb + i * K * N, N, 0.0f, c + i * rows * N, N);
        if (status != 0) return fail(api, "oneDNN's sgemm returned status " + std::to_string(status));
      }
      if (k.epilogue == kNone) return nullptr;
      Split all{k.transA, rows * batch, N, K, pa, pb, c, poolThreads, true, k.epilogue};
      check(api, fn<KernelContext_ParallelFor>(api)(context, finishBlock, static_cast<size_t>(poolThreads), 0, &all));
      return nullptr;
    }
    Split split{k.transA, rows, N, K, pa, pb, c, poolThreads, true, k.epilogue};
    // Blocks of rows, unless there are too few rows to give each thread a tile's worth (a
    // softmax needs whole rows).
    split.byRows = rows >= N || rows >= 16 * poolThreads || k.epilogue == kSoftmax;
    const int64_t extent = split.byRows ? rows : N;
    split.parts = std::max<int64_t>(1, std::min<int64_t>(poolThreads, extent / 16));
    const size_t blocks = static_cast<size_t>(batch * split.parts);
    // On the node's crew; over ORT's pool while the crew is on another chip's product.
    if (!crewRun(static_cast<int>(poolThreads) - 1, runBlock, &split, blocks)) {
      check(api, fn<KernelContext_ParallelFor>(api)(context, runBlock, blocks, 0, &split));
    }
    if (split.status.load() != 0) return fail(api, "oneDNN's sgemm returned status " + std::to_string(split.status.load()));
    return nullptr;
  } catch (const std::exception& e) {
    return fail(api, e.what());
  }
}

Status* create(const CustomOp*, const void* const* api, const KernelInfo* info, void** out) {
  const int64_t epilogue = intAttribute(api, info, "epilogue", kNone);
  if (epilogue < kNone || epilogue > kSoftmax) return kernelFailure(api, "Sgemm", "unknown epilogue " + std::to_string(epilogue));
  *out = new Kernel{api, intAttribute(api, info, "transA", 0) != 0, static_cast<Epilogue>(epilogue)};
  return nullptr;
}

}  // namespace

const CustomOp* sgemmOp(const Sgemm& gemm, int threads) {
  static KernelOp op;
  gemmRun = gemm.run;
  gemmTeam = gemm.team;
  poolThreads = threads;
  makeFloatKernelOp(op, "Sgemm", 2, create, compute, [](void* kernel) { delete static_cast<Kernel*>(kernel); });
  return &op.table;
}

}  // namespace ortc
