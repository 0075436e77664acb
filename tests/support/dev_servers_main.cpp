// loopwright-dev-servers: the test suite's local GitHub and model servers as
// one program, for scripts/demo.sh. It serves the fake GitHub REST API (one
// pull request of octo/hello) and an OpenAI-compatible model lane whose
// answers come from the demo reviewer (support/demo_reviewer.h). It prints
// where they listen, then reads commands on its standard input (the URLs
// go into the repository before its commits exist):
//   pull <number> <head sha> <diff file>   serve that pull request
//   issue <number> <json file>             serve that issue (GitHub's issue object)
// and when its input closes, writes what was posted (reviews, comments,
// check runs, annotations) as JSON to the file named by its one argument.
// Never installed, never part of a release.
#include <fstream>
#include <iostream>
#include <sstream>
#include <string>

#include <boost/json.hpp>

#include "support/demo_reviewer.h"
#include "support/fake_github.h"
#include "support/fake_github_reads.h"
#include "support/fake_model.h"

namespace {

namespace json = boost::json;
using lw::test::FakeGithub;

std::string readAll(const std::string& path) {
  std::ifstream in(path, std::ios::binary);
  std::ostringstream s;
  s << in.rdbuf();
  return s.str();
}

json::object postedState(const FakeGithub& github, int pull) {
  json::array annotations;
  for (const json::value& run : github.checkRuns())
    for (const json::value& a : github.annotations(run.at("id").to_number<std::int64_t>())) annotations.push_back(a);
  return {{"reviews", github.reviews(pull)},
          {"reviewComments", github.reviewComments(pull)},
          {"checkRuns", github.checkRuns()},
          {"annotations", std::move(annotations)},
          {"issueComments", github.issueComments(pull)},
          {"issueLabels", json::value_from(github.issueLabels(pull))}};
}

}  // namespace

// "pull 1 <sha> <file>": the pull request the run is about.
bool servePull(FakeGithub& github, const std::string& command, int& pull) {
  std::istringstream in(command);
  std::string verb, head, diffFile;
  if (!(in >> verb >> pull >> head >> diffFile) || verb != "pull") return false;
  github.addPull(pull, head, readAll(diffFile));
  return true;
}

// "issue 21 <file>": the issue the run is about, as GitHub's issue object.
bool serveIssue(FakeGithub& github, const std::string& command, int& number) {
  std::istringstream in(command);
  std::string verb, file;
  if (!(in >> verb >> number >> file) || verb != "issue") return false;
  github.reads().issues[number] = json::parse(readAll(file)).as_object();
  return true;
}

int main(int argc, char** argv) {
  if (argc != 2) {
    std::cerr
        << "usage: loopwright-dev-servers STATE_FILE (commands on stdin: pull N SHA DIFF_FILE, issue N JSON_FILE)\n";
    return 2;
  }
  FakeGithub github;
  lw::test::FakeModel model;
  model.respondWith(lw::test::demoReviewerAnswer);
  std::cout << "GITHUB_API_URL=" << github.url() << "\nMODEL_URL=" << model.url() << std::endl;
  int pull = 1;
  for (std::string line; std::getline(std::cin, line);)
    if (!servePull(github, line, pull) && !serveIssue(github, line, pull))
      std::cerr << "loopwright-dev-servers: not a command: " << line << "\n";
  std::ofstream(argv[1]) << json::serialize(postedState(github, pull)) << "\n";
  return 0;
}
