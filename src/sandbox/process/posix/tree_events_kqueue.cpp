// TreeEvents on macOS: kqueue EVFILT_PROC with NOTE_FORK and NOTE_EXIT on
// every process seen in the tree, so that a fork is looked at at once rather
// than at the next interval. NOTE_TRACK, which would follow children by
// itself, is refused by XNU (ENOTSUP), hence a watch per process.
#include "sandbox/process/posix/tree_events.h"

#if defined(__APPLE__)

#include <fcntl.h>
#include <poll.h>
#include <sys/event.h>

#include <cerrno>

namespace lw::sandbox::process::posix {

TreeEvents::TreeEvents() : queue_(::kqueue()) {
  if (!makePipe(wakeRead_, wakeWrite_)) return;
  ::fcntl(wakeRead_.get(), F_SETFL, O_NONBLOCK);
  ::fcntl(wakeWrite_.get(), F_SETFL, O_NONBLOCK);
  struct kevent ev;
  EV_SET(&ev, wakeRead_.get(), EVFILT_READ, EV_ADD, 0, 0, nullptr);
  if (queue_) ::kevent(queue_.get(), &ev, 1, nullptr, 0, nullptr);
}

TreeEvents::~TreeEvents() = default;

bool TreeEvents::reportsForks() { return true; }

void TreeEvents::watch(pid_t pid) {
  if (!queue_) return;
  struct kevent ev;
  EV_SET(&ev, static_cast<uintptr_t>(pid), EVFILT_PROC, EV_ADD | EV_CLEAR, NOTE_FORK | NOTE_EXIT, 0, nullptr);
  ::kevent(queue_.get(), &ev, 1, nullptr, 0, nullptr);  // ESRCH: gone already
}

void TreeEvents::wake() {
  const char b = 'w';
  (void)!::write(wakeWrite_.get(), &b, 1);
}

void TreeEvents::waitFor(std::chrono::milliseconds timeout) {
  struct timespec ts;
  ts.tv_sec = static_cast<time_t>(timeout.count() / 1000);
  ts.tv_nsec = static_cast<long>((timeout.count() % 1000) * 1000000);
  if (!queue_) {  // no kqueue: the interval alone, as elsewhere
    pollfd p{wakeRead_.get(), POLLIN, 0};
    ::poll(&p, 1, static_cast<int>(timeout.count()));
    return;
  }
  struct kevent got[16];
  const int n = ::kevent(queue_.get(), nullptr, 0, got, 16, &ts);
  for (int i = 0; i < n; ++i) {
    if (got[i].filter != EVFILT_READ) continue;
    char buf[64];
    while (::read(wakeRead_.get(), buf, sizeof buf) > 0) {}
  }
}

}  // namespace lw::sandbox::process::posix

#endif
