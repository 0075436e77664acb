// What GitHub renders as Markdown of every write the fake server received:
// review and comment bodies, inline comments, check run summaries and
// texts. The tests judge them with cmark-gfm (github/markdown/inert_check.h).
#pragma once

#include <string>
#include <vector>

#include <boost/json.hpp>

#include "support/fake_github.h"

namespace lw::test {

inline std::vector<std::string> renderedBodies(const FakeGithub& gh) {
  namespace json = boost::json;
  std::vector<std::string> out;
  auto take = [&](const json::value* v) {
    if (v && v->is_string()) out.emplace_back(v->as_string());
  };
  for (const FakeGithub::Request& r : gh.requests()) {
    if (r.method == "GET" || r.body.empty()) continue;
    boost::system::error_code ec;
    json::value body = json::parse(r.body, ec);
    if (ec || !body.is_object()) continue;
    const json::object& o = body.as_object();
    take(o.if_contains("body"));
    if (const json::value* cs = o.if_contains("comments"); cs && cs->is_array())
      for (const json::value& c : cs->as_array())
        if (c.is_object()) take(c.as_object().if_contains("body"));
    if (const json::value* output = o.if_contains("output"); output && output->is_object()) {
      take(output->as_object().if_contains("summary"));
      take(output->as_object().if_contains("text"));
    }
  }
  return out;
}

}  // namespace lw::test
