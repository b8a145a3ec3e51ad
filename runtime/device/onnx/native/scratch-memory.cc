#include "scratch-memory.h"

#include <cstdlib>
#include <mutex>
#include <new>
#include <vector>

namespace ortc {

namespace {

struct Block {
  char* data;
  size_t size;
};

/** Free blocks kept beyond this many are released (several products at once on several chips' threads). */
constexpr size_t kKept = 4;

std::mutex mutex;
std::vector<Block> freeBlocks;

}  // namespace

Scratch::Scratch(size_t bytes) : data_(nullptr), size_(0) {
  {
    std::lock_guard<std::mutex> hold(mutex);
    size_t best = freeBlocks.size();
    for (size_t i = 0; i < freeBlocks.size(); i++) {
      if (freeBlocks[i].size >= bytes && (best == freeBlocks.size() || freeBlocks[i].size < freeBlocks[best].size)) best = i;
    }
    if (best < freeBlocks.size()) {
      data_ = freeBlocks[best].data;
      size_ = freeBlocks[best].size;
      freeBlocks.erase(freeBlocks.begin() + best);
      return;
    }
  }
  size_ = (bytes + 63) / 64 * 64;
  data_ = static_cast<char*>(std::aligned_alloc(64, size_));
  if (!data_) throw std::bad_alloc();
}

Scratch::~Scratch() {
  std::lock_guard<std::mutex> hold(mutex);
  freeBlocks.push_back({data_, size_});
  if (freeBlocks.size() > kKept) {
    size_t smallest = 0;
    for (size_t i = 1; i < freeBlocks.size(); i++) if (freeBlocks[i].size < freeBlocks[smallest].size) smallest = i;
    std::free(freeBlocks[smallest].data);
    freeBlocks.erase(freeBlocks.begin() + smallest);
  }
}

}  // namespace ortc
