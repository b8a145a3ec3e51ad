// A crew of helper threads of the Sgemm node's own for its split: each block of a product is
// claimed by whichever thread is free first (the caller included), and a thread with nothing
// left sleeps. ONNX Runtime's ParallelFor instead has the caller spin until every worker's
// block is done, so on loaded cores the caller burned the time its own pool thread needed to
// finish (docs/runtime.md, "The split's wait").
#pragma once

#include <cstddef>

namespace ortc {

/**
 * Runs task(context, i) for every i in [0, n) on the calling thread and the crew's `helpers`
 * threads (started at the first call), and returns when all are done; false (nothing run) if
 * the crew is on another caller's product, or it has no helpers. A task's exception is thrown
 * here, once every thread has left the product (the others claim no further block).
 */
bool crewRun(int helpers, void (*task)(void*, size_t), void* context, size_t n);

}  // namespace ortc
