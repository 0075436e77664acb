#include "github/rest/pulls.h"

#include <boost/json.hpp>

#include "core/json_fields.h"

namespace lw::github {

using namespace json_fields;

Result<PullInfo> fetchPull(RestClient& api, const RepoRef& repo, int number) {
  std::string path = "/repos/" + repo.owner + "/" + repo.name + "/pulls/" + std::to_string(number);
  auto r = api.get(path);
  if (!r) return std::move(r).error();
  if (r->status / 100 != 2)
    return makeError(ErrorCode::PublicationFailed, "GET " + path + ": " + describe(*r),
                     "the token needs pull-requests: read");
  try {
    boost::json::value v = jsonBody(*r);
    const auto& pr = object(v, "");
    const auto& head = object(field(pr, "head", ""), "head");
    const auto& base = object(field(pr, "base", ""), "base");
    PullInfo info;
    info.headSha = str(head, "sha", "head");
    info.baseSha = str(base, "sha", "base");
    const auto* headRepo = optObject(head, "repo", "head");
    const auto* baseRepo = optObject(base, "repo", "base");
    if (headRepo) info.headRepo = str(*headRepo, "full_name", "head.repo");
    info.fromFork =
        !headRepo || !baseRepo || str(*headRepo, "full_name", "head.repo") != str(*baseRepo, "full_name", "base.repo");
    return info;
  } catch (const FieldError& e) {
    Error err = makeError(ErrorCode::PublicationFailed, "GET " + path + ": " + e.path + ": " + e.what());
    err.location = Location{.file = {}, .line = 0, .column = 0, .path = e.path};
    return err;
  }
}

}  // namespace lw::github
