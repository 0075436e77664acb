#include "core/unique_fd.h"

#include <doctest/doctest.h>
#include <fcntl.h>

#include <utility>

TEST_CASE("unique fd: a pipe's ends are owned, close-on-exec and carry bytes") {
  lw::UniqueFd readEnd, writeEnd;
  REQUIRE(lw::makePipe(readEnd, writeEnd));
  CHECK((::fcntl(readEnd.get(), F_GETFD) & FD_CLOEXEC) != 0);
  CHECK((::fcntl(writeEnd.get(), F_GETFD) & FD_CLOEXEC) != 0);
  REQUIRE(::write(writeEnd.get(), "x", 1) == 1);
  char c = 0;
  REQUIRE(::read(readEnd.get(), &c, 1) == 1);
  CHECK(c == 'x');
  const int raw = readEnd.get();
  lw::UniqueFd moved = std::move(readEnd);
  CHECK_FALSE(readEnd);
  CHECK(moved.get() == raw);
  moved.reset();
  CHECK(::fcntl(raw, F_GETFD) == -1);
}
