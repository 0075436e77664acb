#include "github/rest/own_login.h"

#include "core/json_fields.h"

namespace lw::github {

std::string ownLogin(RestClient& api, const std::string& fallback) {
  // GET /user answers 403 to installation tokens (GITHUB_TOKEN); their
  // comments are authored by the Actions bot.
  auto r = api.get("/user");
  if (r && r->status == 200) {
    if (auto login = json_fields::peekStr(jsonBody(*r), "login")) return *login;
  }
  return fallback;
}

}  // namespace lw::github
