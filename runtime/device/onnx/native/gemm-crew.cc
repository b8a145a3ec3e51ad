#include "gemm-crew.h"

#include <atomic>
#include <chrono>
#include <condition_variable>
#include <exception>
#include <mutex>
#include <thread>

namespace ortc {

namespace {

/**
 * One product's blocks: claimed through `next`; `inside` counts the helpers still at them. A
 * block that throws (out of memory) ends the claiming; its exception reaches the caller.
 */
struct Job {
  void (*task)(void*, size_t);
  void* context;
  size_t n;
  std::atomic<size_t> next{0};
  std::atomic<int> inside{0};
  std::atomic<bool> failed{false};
  std::exception_ptr error;  // written by the first failing block only
};

/**
 * How long the caller spins for helpers still at their blocks before it sleeps: about the lag
 * of a woken helper on a quiet machine (its block starts ~35 us after the caller's), so there
 * a product ends without a wake-up; on loaded cores it sleeps soon and leaves them the core.
 */
constexpr auto kSpin = std::chrono::microseconds(100);

struct Crew {
  std::mutex busy;  // one product at a time
  std::mutex lock;
  std::condition_variable wake, left;
  Job* job = nullptr;  // under lock: the product helpers may join
  unsigned long generation = 0;
};

void work(Job& job) {
  for (size_t i; (i = job.next.fetch_add(1)) < job.n;) {
    try {
      job.task(job.context, i);
    } catch (...) {
      // An exception leaving a helper thread would end the process.
      if (!job.failed.exchange(true)) job.error = std::current_exception();
      job.next.store(job.n);
    }
  }
}

void helper(Crew* crew) {
  unsigned long seen = 0;
  for (;;) {
    Job* job;
    {
      std::unique_lock<std::mutex> hold(crew->lock);
      crew->wake.wait(hold, [&] { return crew->generation != seen; });
      seen = crew->generation;
      job = crew->job;
      if (!job) continue;  // woke after the product ended
      job->inside++;
    }
    work(*job);
    std::lock_guard<std::mutex> hold(crew->lock);
    if (--job->inside == 0) crew->left.notify_all();
  }
}

/** The crew, made with its threads at the first call (never freed: its threads sleep in it until the process ends). */
Crew* crewOf(int helpers) {
  static Crew* crew = [helpers] {
    auto* made = new Crew;
    for (int i = 0; i < helpers; i++) std::thread(helper, made).detach();
    return made;
  }();
  return crew;
}

}  // namespace

bool crewRun(int helpers, void (*task)(void*, size_t), void* context, size_t n) {
  if (helpers < 1) return false;
  if (n == 1) {  // nothing to share: no helper woken for it
    task(context, 0);
    return true;
  }
  Crew* crew = crewOf(helpers);
  std::unique_lock<std::mutex> mine(crew->busy, std::try_to_lock);
  if (!mine) return false;
  Job job{task, context, n};
  {
    std::lock_guard<std::mutex> hold(crew->lock);
    crew->job = &job;
    crew->generation++;
  }
  crew->wake.notify_all();
  work(job);
  const auto until = std::chrono::steady_clock::now() + kSpin;
  while (job.inside.load() != 0 && std::chrono::steady_clock::now() < until) std::this_thread::yield();
  std::unique_lock<std::mutex> hold(crew->lock);
  crew->job = nullptr;  // no helper joins from here on
  crew->left.wait(hold, [&] { return job.inside.load() == 0; });
  if (job.error) std::rethrow_exception(job.error);
  return true;
}

}  // namespace ortc
