#include "github/actions/comment_command.h"

#include <cctype>

#include <boost/json.hpp>

#include "core/json_fields.h"

namespace lw::github {

using namespace json_fields;

std::string_view toString(CommentCommand c) { return c == CommentCommand::Review ? "review" : "triage"; }

std::optional<CommentCommand> parseCommentCommand(std::string_view body) {
  auto start = body.find_first_not_of(" \t\r\n");
  if (start == std::string_view::npos) return std::nullopt;
  body.remove_prefix(start);
  constexpr std::string_view kPrefix = "/loopwright ";
  if (!body.starts_with(kPrefix)) return std::nullopt;
  body.remove_prefix(kPrefix.size());
  body.remove_prefix(std::min(body.find_first_not_of(' '), body.size()));
  std::string_view word = body.substr(0, body.find_first_of(" \t\r\n"));
  if (word == "review") return CommentCommand::Review;
  if (word == "triage") return CommentCommand::Triage;
  return std::nullopt;
}

bool permissionMayCommand(std::string_view permission) {
  return permission == "admin" || permission == "maintain" || permission == "write";
}

namespace {
// GitHub logins are letters, digits and single hyphens; anything else (an
// app's "name[bot]", an empty login) is no collaborator and is not put in a
// request path.
bool isUserLogin(std::string_view login) {
  if (login.empty() || login.size() > 39) return false;
  for (char c : login)
    if (!std::isalnum(static_cast<unsigned char>(c)) && c != '-') return false;
  return true;
}
}  // namespace

Result<std::string> fetchPermission(RestClient& api, const RepoRef& repo, const std::string& login) {
  if (!isUserLogin(login)) return std::string("none");
  std::string path = "/repos/" + repo.owner + "/" + repo.name + "/collaborators/" + login + "/permission";
  auto r = api.get(path);
  if (!r) return std::move(r).error();
  if (r->status == 404) return std::string("none");
  if (r->status / 100 != 2)
    return makeError(ErrorCode::PublicationFailed, "GET " + path + ": " + describe(*r),
                     "the token needs metadata: read to read a commenter's permission");
  try {
    boost::json::value v = jsonBody(*r);
    return str(object(v, ""), "permission", "");
  } catch (const FieldError& e) {
    Error err = makeError(ErrorCode::PublicationFailed, "GET " + path + ": " + e.path + ": " + e.what());
    err.location = Location{.file = {}, .line = 0, .column = 0, .path = e.path};
    return err;
  }
}

}  // namespace lw::github
