// Boost.Process v2 on std::filesystem, so that no Boost.Filesystem library
// is linked for it. Boost 1.81 then misses two includes of its own.
#define BOOST_PROCESS_USE_STD_FS 1
#include <boost/optional.hpp>
#include <boost/type_traits/remove_pointer.hpp>

#include "agents/lint/linter_process.h"

#include <array>
#include <functional>

#include <boost/asio/io_context.hpp>
#include <boost/asio/readable_pipe.hpp>
#include <boost/process/v2/environment.hpp>
#include <boost/process/v2/process.hpp>
#include <boost/process/v2/start_dir.hpp>
#include <boost/process/v2/stdio.hpp>

namespace lw::agents::lint {

namespace asio = boost::asio;
namespace bp = boost::process::v2;
namespace fs = std::filesystem;

namespace {

Error notFound(const std::string& name) {
  return makeError(ErrorCode::TaskpackInvalid, "builtin/lint: the linter '" + name + "' was not found",
                   "install it in the runner's image (or the step's container), or give its path "
                   "relative to the repository in `with: command`",
                   "with.command");
}

Result<fs::path> executable(const std::string& name, const fs::path& dir) {
  if (name.empty()) return notFound(name);
  if (name.find('/') != std::string::npos) {
    fs::path p = fs::path(name).is_absolute() ? fs::path(name) : dir / name;
    std::error_code ec;
    if (fs::is_regular_file(p, ec)) return p;
    return notFound(name);
  }
  fs::path found = bp::environment::find_executable(name);
  if (found.empty()) return notFound(name);
  return found;
}

// Reads a pipe to its end, handing each piece to `sink`.
void drain(asio::readable_pipe& pipe, std::array<char, 65536>& buffer,
           const std::function<void(std::string_view)>& sink) {
  pipe.async_read_some(asio::buffer(buffer), [&pipe, &buffer, sink](boost::system::error_code ec, std::size_t n) {
    if (n > 0) sink(std::string_view(buffer.data(), n));
    if (!ec) drain(pipe, buffer, sink);
  });
}

void keepTail(std::string& tail, std::string_view piece) {
  tail.append(piece);
  if (tail.size() > kStderrTail) tail.erase(0, tail.size() - kStderrTail);
}

}  // namespace

Result<LinterRun> runLinter(const std::vector<std::string>& argv, const fs::path& dir, std::size_t maxOutput,
                            std::ostream& log) {
  if (argv.empty()) {
    return makeError(ErrorCode::TaskpackInvalid, "builtin/lint: `with: command` is empty",
                     "give the linter's argv, e.g. [shellcheck, -f, checkstyle, script.sh]", "with.command");
  }
  Result<fs::path> exe = executable(argv[0], dir);
  if (!exe) return exe.error();
  asio::io_context ctx;
  asio::readable_pipe out(ctx);
  asio::readable_pipe err(ctx);
  LinterRun run;
  std::array<char, 65536> outBuffer{};
  std::array<char, 65536> errBuffer{};
  try {
    bp::process proc(ctx, exe->string(), std::vector<std::string>(argv.begin() + 1, argv.end()),
                     bp::process_stdio{nullptr, out, err}, bp::process_start_dir{dir.string()});
    drain(out, outBuffer, [&](std::string_view piece) {
      std::size_t room = maxOutput - std::min(maxOutput, run.output.size());
      if (piece.size() > room) run.outputTruncated = true;
      run.output.append(piece.substr(0, room));
    });
    drain(err, errBuffer, [&](std::string_view piece) {
      log << piece;
      keepTail(run.stderrTail, piece);
    });
    ctx.run();
    run.exitCode = proc.wait();
  } catch (const boost::system::system_error& e) {
    return makeError(ErrorCode::SandboxLaunchFailed,
                     "builtin/lint: could not run '" + argv[0] + "': " + e.code().message(),
                     "check that the linter is executable inside the step's sandbox", "with.command");
  }
  log.flush();
  return run;
}

}  // namespace lw::agents::lint
