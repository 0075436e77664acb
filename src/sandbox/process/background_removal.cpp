#include "sandbox/process/background_removal.h"

namespace lw::sandbox {

BackgroundRemoval::~BackgroundRemoval() {
  {
    std::lock_guard lock(mutex_);
    stopping_ = true;
  }
  changed_.notify_all();
  if (thread_.joinable()) thread_.join();
}

void BackgroundRemoval::add(std::function<void()> removal) {
  {
    std::lock_guard lock(mutex_);
    queue_.push_back(std::move(removal));
    if (!thread_.joinable()) thread_ = std::thread([this] { work(); });
  }
  changed_.notify_all();
}

void BackgroundRemoval::drain() {
  std::unique_lock lock(mutex_);
  changed_.wait(lock, [this] { return queue_.empty() && !running_; });
}

void BackgroundRemoval::work() {
  std::unique_lock lock(mutex_);
  for (;;) {
    changed_.wait(lock, [this] { return stopping_ || !queue_.empty(); });
    // Stopping still runs what is queued: nothing handed over is dropped.
    if (queue_.empty()) return;
    std::function<void()> removal = std::move(queue_.front());
    queue_.pop_front();
    running_ = true;
    lock.unlock();
    removal();
    lock.lock();
    running_ = false;
    changed_.notify_all();
  }
}

}  // namespace lw::sandbox
