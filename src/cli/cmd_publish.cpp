// `loopwright publish --resume [--state-dir DIR]`: finishes the publications
// left in the outbox by a run that was interrupted or could not reach
// GitHub. `--request FILE` publishes a publication request written as JSON
// (the form the outbox stores). GITHUB_TOKEN, GITHUB_API_URL,
// GITHUB_STEP_SUMMARY and GITHUB_OUTPUT come from the environment.
#include <fstream>
#include <iostream>
#include <sstream>

#include <boost/json.hpp>

#include "cli/commands.h"
#include "cli/policy_context.h"
#include "cli/report.h"
#include "core/http_curl.h"
#include "github/publisher.h"

namespace lw::cli {

namespace {

namespace json = boost::json;

json::value outcomeJson(const github::PublicationOutcome& o) {
  json::array channels;
  for (const auto& c : o.channels)
    channels.push_back(json::object{{"channel", c.channel}, {"state", github::toString(c.state)}, {"detail", c.detail}});
  return json::object{{"id", o.id},
                      {"complete", o.complete},
                      {"permissionDenied", o.permissionDenied},
                      {"channels", std::move(channels)},
                      {"annotations", o.annotations.size()},
                      {"summaryOnly", o.summaryOnly.size()}};
}

Result<github::PublicationRequest> readRequest(const std::string& path) {
  std::ifstream in(path, std::ios::binary);
  if (!in) return makeError(ErrorCode::UsageError, "cannot read '" + path + "'", "--request names a JSON file", path);
  std::ostringstream text;
  text << in.rdbuf();
  boost::system::error_code ec;
  json::value v = json::parse(text.str(), ec);
  if (ec) return makeError(ErrorCode::UsageError, "'" + path + "' is not JSON: " + ec.message(), {}, path);
  auto r = github::publicationFromJson(v);
  if (!r) {
    Error e = std::move(r).error();
    e.code = ErrorCode::UsageError;
    e.subject = path;
    if (e.location) e.location->file = path;
    return e;
  }
  return r;
}

}  // namespace

Command publishCommand() {
  Command c;
  c.name = "publish";
  c.summary = "publish results to GitHub, or finish what the outbox holds";
  c.usage = "--resume [--state-dir DIR] | --request FILE [--state-dir DIR]";
  c.description =
      "--resume publishes every pending entry of <state dir>/outbox without posting\n"
      "anything twice. --request publishes one publication request (JSON). Uses\n"
      "GITHUB_TOKEN and GITHUB_API_URL; writes GITHUB_STEP_SUMMARY and GITHUB_OUTPUT\n"
      "when set. Exits 6 when a publication could not be finished (it stays in the outbox).";
  c.options = {{"resume", "", "publish the pending outbox entries"},
               {"request", "FILE", "publish this publication request"},
               {"state-dir", "DIR", "the state directory (default: the host config's)"}};
  c.run = [](const Args& args, Io& io) {
    bool resume = args.flag("resume");
    auto requestFile = args.value("request");
    if (resume == requestFile.has_value())
      return reportError(io, makeError(ErrorCode::UsageError, "give exactly one of --resume and --request FILE",
                                       "loopwright publish --resume [--state-dir DIR]"));
    std::string stateDir;
    if (auto d = args.value("state-dir")) {
      stateDir = *d;
    } else {
      auto host = loadHostConfigFrom(io.env);
      if (!host) return reportError(io, host.error());
      stateDir = host->stateDir;
    }
    // Workflow commands must reach the runner; under --json stdout is the
    // JSON document, so they go to stderr, which the runner also reads.
    std::ostream& log = io.json ? io.err : io.out;
    http::CurlTransport transport{github::httpPolicy()};
    github::SystemClock clock;
    github::ThreadSleeper sleeper;
    github::RestClient api(transport, clock, sleeper, github::restConfigFromEnvironment(io.env), &log);
    github::Outbox outbox(stateDir);
    github::PublisherConfig config;
    config.stepSummaryPath = io.env.get("GITHUB_STEP_SUMMARY").value_or("");
    config.outputPath = io.env.get("GITHUB_OUTPUT").value_or("");
    github::Publisher publisher(api, outbox, config, log);

    std::vector<github::PublicationOutcome> outcomes;
    if (resume) {
      auto r = publisher.resumeAll();
      if (!r) return reportError(io, r.error());
      outcomes = std::move(r).value();
    } else {
      auto request = readRequest(*requestFile);
      if (!request) return reportError(io, request.error());
      auto r = publisher.publish(*request);
      if (!r) return reportError(io, r.error());
      outcomes.push_back(std::move(r).value());
    }
    if (io.json) {
      json::array a;
      for (const auto& o : outcomes) a.push_back(outcomeJson(o));
      printJson(io.out, json::object{{"publications", std::move(a)}});
    } else if (outcomes.empty()) {
      io.out << "loopwright: the outbox in " << outbox.dir() << " is empty\n";
    } else {
      for (const auto& o : outcomes) {
        io.out << "loopwright: publication " << o.id << ": "
               << (o.complete ? "published" : "published with fallbacks") << "\n";
        for (const auto& ch : o.channels)
          io.out << "  " << ch.channel << ": " << github::toString(ch.state)
                 << (ch.detail.empty() ? "" : " (" + ch.detail + ")") << "\n";
      }
    }
    return 0;
  };
  return c;
}

}  // namespace lw::cli
