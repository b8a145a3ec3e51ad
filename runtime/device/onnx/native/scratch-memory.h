// Scratch memory reused across runs: B packed for oneDNN's GEMM takes ~4 MiB for a 1024x1024
// matrix, and a fresh allocation of that size page-faults all of it again on every product.
#pragma once

#include <cstddef>

namespace ortc {

/** A 64-byte-aligned block of at least `bytes`, taken from the process's free blocks (or made), given back at destruction. */
class Scratch {
 public:
  explicit Scratch(size_t bytes);
  ~Scratch();
  Scratch(const Scratch&) = delete;
  Scratch& operator=(const Scratch&) = delete;
  char* data() const { return data_; }

 private:
  char* data_;
  size_t size_;
};

}  // namespace ortc
