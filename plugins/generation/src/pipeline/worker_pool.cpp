#include "worker_pool.hpp"

#include <algorithm>
#include <atomic>
#include <chrono>
#include <exception>
#include <mutex>
#include <thread>
#include <vector>

namespace docs_generation {

void runBounded(std::size_t count, std::size_t threads, const std::function<void(std::size_t)>& task,
                const PoolHooks& hooks) {
  threads = std::min(threads, count);
  if (threads <= 1) {
    for (std::size_t i = 0; i < count; ++i) {
      task(i);
      if (hooks.afterEach) hooks.afterEach();
    }
    return;
  }
  std::atomic<std::size_t> next{0}, finished{0};
  std::atomic<bool> stop{false};
  std::mutex failureMutex;
  std::exception_ptr failure;
  auto fail = [&](const std::exception_ptr& error) {
    std::lock_guard lock(failureMutex);
    if (!failure) failure = error;
    stop = true;
  };
  std::vector<std::thread> pool;
  pool.reserve(threads);
  for (std::size_t t = 0; t < threads; ++t)
    pool.emplace_back([&] {
      try {
        for (std::size_t i; !stop && (i = next++) < count;) task(i);
      } catch (...) {
        fail(std::current_exception());
      }
      ++finished;
    });
  if (hooks.whileWaiting) {
    while (finished < threads) {
      std::this_thread::sleep_for(std::chrono::milliseconds(100));
      if (stop) continue;
      try {
        hooks.whileWaiting();
      } catch (...) {
        fail(std::current_exception());
      }
    }
  }
  for (auto& worker : pool) worker.join();
  if (failure) std::rethrow_exception(failure);
}

}  // namespace docs_generation
