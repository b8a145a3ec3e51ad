#include "custom-ops.h"

#include <mutex>

#include "axpy-op.h"
#include "select-op.h"
#include "sgemm-op.h"
#include "softmax-op.h"

namespace ortc {

CustomOpDomain* customOpDomain(const void* const* api, const Sgemm& gemm, int threads) {
  static std::once_flag once;
  static CustomOpDomain* domain = nullptr;
  std::call_once(once, [&] {
    // Made once and never released: every session registered with it may still run.
    check(api, fn<CreateCustomOpDomain>(api)(kCustomDomain, &domain));
    check(api, fn<CustomOpDomain_Add>(api)(domain, axpyOp()));
    check(api, fn<CustomOpDomain_Add>(api)(domain, softmaxOp()));
    check(api, fn<CustomOpDomain_Add>(api)(domain, selectOp()));
    if (gemm.run) check(api, fn<CustomOpDomain_Add>(api)(domain, sgemmOp(gemm, threads)));
  });
  return domain;
}

}  // namespace ortc
