#include "github/publish/last_reviewed.h"

#include <boost/json.hpp>

#include "github/publish/markers.h"
#include "github/rest/own_login.h"

namespace lw::github {

namespace json = boost::json;

namespace {

std::string stringAt(const json::value& v, const char* key) {
  const json::object* o = v.if_object();
  const json::value* f = o ? o->if_contains(key) : nullptr;
  return f && f->is_string() ? std::string(f->get_string()) : std::string();
}

std::string loginOf(const json::value& review) {
  const json::object* o = review.if_object();
  const json::value* user = o ? o->if_contains("user") : nullptr;
  return user ? stringAt(*user, "login") : std::string();
}

}  // namespace

std::optional<std::string> lastReviewedHead(const json::array& reviews, const std::string& ownLogin) {
  std::optional<std::string> head;
  for (const json::value& r : reviews) {
    // A marker in anyone else's review means nothing; a pending review was
    // never submitted.
    if (loginOf(r) != ownLogin || stringAt(r, "state") == "PENDING") continue;
    // Only a trusted run's review: a fork's artifact must not make a later
    // run skip code it never looked at.
    const BodyMarkers marks = markersIn(stringAt(r, "body"));
    if (!marks.partial && marks.review && marks.review->origin == Origin::Trusted) head = marks.review->headSha;
  }
  return head;
}

Result<std::optional<std::string>> findLastReviewedHead(RestClient& api, const RepoRef& repo, int number,
                                                        const std::string& fallbackLogin) {
  auto reviews = api.getAll("/repos/" + repo.owner + "/" + repo.name + "/pulls/" + std::to_string(number) + "/reviews");
  if (!reviews) return reviews.error();
  return lastReviewedHead(*reviews, ownLogin(api, fallbackLogin));
}

}  // namespace lw::github
