#include <doctest/doctest.h>

#include <chrono>

#include "sandbox/process/plan_notes.h"

using namespace lw::sandbox::process;

namespace {

std::unique_ptr<RunningProcess> echo(const std::string& text) {
  SpawnRequest req;
  req.argv = {"/bin/echo", text};
  req.env = {{"PATH", "/usr/bin:/bin"}};
  auto p = spawn(req);
  REQUIRE_MESSAGE(p.ok(), (p.ok() ? "" : p.error().message));
  return std::move(p).value();
}

}  // namespace

TEST_CASE("plan notes: a process launched without notes has none") {
  auto p = echo("hi");
  CHECK(p->planNotes().empty());
  p->wait(std::chrono::steady_clock::now() + std::chrono::seconds(10));
}

TEST_CASE("plan notes: the notes ride with the process, everything else is the process's own") {
  auto p = withPlanNotes(echo("hi"), {"writable path /w does not exist: not bound"});
  REQUIRE(p->planNotes().size() == 1);
  CHECK(p->planNotes()[0] == "writable path /w does not exist: not bound");
  CHECK(p->pid() > 0);
  ExitInfo info = p->wait(std::chrono::steady_clock::now() + std::chrono::seconds(10));
  CHECK(info.status() == 0);
  CHECK(p->stdoutData().data == "hi\n");
}

TEST_CASE("plan notes: no notes leave the process unwrapped") {
  auto inner = echo("x");
  RunningProcess* raw = inner.get();
  auto p = withPlanNotes(std::move(inner), {});
  CHECK(p.get() == raw);
  p->wait(std::chrono::steady_clock::now() + std::chrono::seconds(10));
}
