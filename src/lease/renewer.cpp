#include "lease/renewer.h"

#include <algorithm>

namespace lw::lease {

Renewer::Renewer(Store& store, Lease held, Ttl ttl)
    : store_(store), ttl_(ttl), lease_(std::move(held)), thread_([this] { run(); }) {}

Renewer::~Renewer() { stop(); }

void Renewer::run() {
  // At least 1 ms apart: a ttl under 3 ms must not spin.
  const Ttl period = std::max(ttl_ / 3, Ttl{1});
  std::unique_lock lock(mu_);
  while (!wake_.wait_for(lock, period, [this] { return stopping_; })) {
    Lease held = lease_;
    lock.unlock();  // the store may block on its lock file; stop() must not
    auto renewed = store_.renew(held, ttl_);
    lock.lock();
    if (!renewed) {
      lost_ = renewed.error();
      return;
    }
    lease_ = std::move(*renewed);
  }
}

Lease Renewer::current() const {
  std::lock_guard lock(mu_);
  return lease_;
}

bool Renewer::lost() const {
  std::lock_guard lock(mu_);
  return lost_.has_value();
}

std::optional<Error> Renewer::lostBecause() const {
  std::lock_guard lock(mu_);
  return lost_;
}

void Renewer::stop() {
  {
    std::lock_guard lock(mu_);
    stopping_ = true;
  }
  wake_.notify_all();
  if (thread_.joinable()) thread_.join();
}

}  // namespace lw::lease
