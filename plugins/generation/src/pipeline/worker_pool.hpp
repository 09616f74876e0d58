#pragma once
// The one bounded pool that writes pages: up to `threads` workers each take the next item.
// The model's answers are the slow part, so pages are written in parallel only with a model.

#include <cstddef>
#include <functional>

namespace docs_generation {

struct PoolHooks {
  // On the calling thread after each item, when the items run there (one thread).
  std::function<void()> afterEach;
  // On the calling thread about every 100 ms while workers run (a job's lease, a stop).
  std::function<void()> whileWaiting;
};

// Runs task(i) for every i below `count`: on the calling thread when at most one thread is
// wanted, else on min(threads, count) workers. The first exception (a task's or a hook's)
// stops the workers and is rethrown here once they have all ended.
void runBounded(std::size_t count, std::size_t threads, const std::function<void(std::size_t)>& task,
                const PoolHooks& hooks = {});

}  // namespace docs_generation
