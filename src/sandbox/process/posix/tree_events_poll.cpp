// TreeEvents where no fork is reported (Linux without privileges: the proc
// connector needs CAP_NET_ADMIN): a wake pipe and the interval.
#include "sandbox/process/posix/tree_events.h"

#if !defined(__APPLE__)

#include <fcntl.h>
#include <poll.h>

#include <cerrno>

namespace lw::sandbox::process::posix {

TreeEvents::TreeEvents() {
  if (makePipe(wakeRead_, wakeWrite_)) {
    ::fcntl(wakeRead_.get(), F_SETFL, O_NONBLOCK);
    ::fcntl(wakeWrite_.get(), F_SETFL, O_NONBLOCK);
  }
}

TreeEvents::~TreeEvents() = default;

void TreeEvents::watch(pid_t) {}

bool TreeEvents::reportsForks() { return false; }

void TreeEvents::wake() {
  const char b = 'w';
  (void)!::write(wakeWrite_.get(), &b, 1);
}

void TreeEvents::waitFor(std::chrono::milliseconds timeout) {
  pollfd p{wakeRead_.get(), POLLIN, 0};
  if (::poll(&p, 1, static_cast<int>(timeout.count())) > 0) {
    char buf[64];
    while (::read(wakeRead_.get(), buf, sizeof buf) > 0) {}
  }
}

}  // namespace lw::sandbox::process::posix

#endif
