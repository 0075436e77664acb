// Removals taken off a step's critical path: what is left of a finished
// step (its emptied cgroups, its renamed scratch) is handed here and removed
// by one thread, which the owner's destruction drains and joins — never
// detached, so a loopwright that ends normally leaves nothing behind. What
// a SIGKILL of loopwright leaves half-removed, the job-completed hook sweeps
// (host/job_cleanup.h).
#pragma once

#include <condition_variable>
#include <deque>
#include <functional>
#include <mutex>
#include <thread>

namespace lw::sandbox {

class BackgroundRemoval {
 public:
  BackgroundRemoval() = default;
  // Runs every removal still queued, then joins the thread.
  ~BackgroundRemoval();
  BackgroundRemoval(const BackgroundRemoval&) = delete;
  BackgroundRemoval& operator=(const BackgroundRemoval&) = delete;

  // Queues `removal` (best effort: it reports nothing); the thread starts
  // with the first one, so an owner that never queues has none.
  void add(std::function<void()> removal);
  // Blocks until every removal queued so far has run.
  void drain();

 private:
  void work();

  std::mutex mutex_;
  std::condition_variable changed_;
  std::deque<std::function<void()>> queue_;
  bool running_ = false;  // a removal taken off the queue and not yet done
  bool stopping_ = false;
  std::thread thread_;
};

}  // namespace lw::sandbox
