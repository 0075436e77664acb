// The read endpoints of the fake GitHub (the bridge's github.* tools):
// pulls/{n}/files, compare/{a}...{b}, contents/{path}?ref=, issues/{n},
// search/issues and labels, in GitHub's shapes, with its limits: 3000 files
// per pull request, 300 per compare, a search query of at most 256
// characters besides its qualifiers, and the search API's own rate limit
// answered as GitHub does (403 with x-ratelimit-remaining 0 and
// x-ratelimit-reset). State lives in FakeGithub::State; this header only
// knows the data and the routes, so the fake's other endpoints stay apart.
#pragma once

#include <cstdint>
#include <ctime>
#include <functional>
#include <map>
#include <optional>
#include <regex>
#include <string>
#include <vector>

#include <boost/json.hpp>

namespace lw::test {

struct ReadModel {
  struct Reply {
    int status = 200;
    std::map<std::string, std::string> headers;
    std::string body;
  };
  // Pages a list as GitHub does (per_page, page, Link); `key` names the array
  // in an object answer ("items"), "" for a bare list.
  using Pager = std::function<Reply(const boost::json::array& all, const std::string& key)>;

  struct PullMeta {
    std::string title = "Pull request";
    std::string body;
    std::string author = "octocat";
    std::string association = "CONTRIBUTOR";
    std::string baseRef = "main";
    std::string headRef = "feature";
    std::vector<std::string> labels;
    bool draft = false;
  };
  std::map<int, PullMeta> pulls;                // decorates FakeGithub::addPull's pulls
  std::map<int, boost::json::array> pullFiles;  // GitHub's file objects
  struct Compare {
    std::string status = "ahead";  // ahead | behind | diverged | identical
    boost::json::array files;
    std::string diff;
  };
  std::map<std::string, Compare> compares;                             // by "base...head"
  std::map<std::string, std::map<std::string, std::string>> contents;  // ref -> path -> bytes
  std::map<int, boost::json::object> issues;                           // GitHub's issue objects
  boost::json::array searchItems;                                      // every search answers these
  std::vector<std::string> searchQueries;                              // the q of each search, decoded
  int searchesBeforeLimit = 1 << 30;                                   // then one 403 rate-limit answer, then reset
  std::int64_t resetIn = 30;                                           // seconds, for x-ratelimit-reset
  std::map<std::string, std::string> labelDescriptions;

  // Adds the fields of a pull's metadata to FakeGithub's pull object.
  void decoratePull(int number, boost::json::object& pr) const {
    auto it = pulls.find(number);
    PullMeta m = it == pulls.end() ? PullMeta{} : it->second;
    pr["title"] = m.title;
    pr["body"] = m.body;
    pr["user"] = boost::json::object{{"login", m.author}, {"type", "User"}};
    pr["author_association"] = m.association;
    pr["draft"] = m.draft;
    boost::json::array labels;
    for (const auto& l : m.labels) labels.push_back(boost::json::object{{"name", l}, {"color", "ededed"}});
    pr["labels"] = labels;
    pr["head"].as_object()["ref"] = m.headRef;
    pr["base"].as_object()["ref"] = m.baseRef;
  }

  static std::string base64(const std::string& in) {
    static constexpr char kAlphabet[] = "ABCDEFGHIJKLMNOPQRSTUVWXYZabcdefghijklmnopqrstuvwxyz0123456789+/";
    std::string out;
    for (std::size_t i = 0; i < in.size(); i += 3) {
      std::uint32_t n = static_cast<unsigned char>(in[i]) << 16;
      if (i + 1 < in.size()) n |= static_cast<unsigned char>(in[i + 1]) << 8;
      if (i + 2 < in.size()) n |= static_cast<unsigned char>(in[i + 2]);
      out += kAlphabet[(n >> 18) & 63];
      out += kAlphabet[(n >> 12) & 63];
      out += i + 1 < in.size() ? kAlphabet[(n >> 6) & 63] : '=';
      out += i + 2 < in.size() ? kAlphabet[n & 63] : '=';
    }
    return out;
  }

  static std::string decode(const std::string& s) {
    std::string out;
    for (std::size_t i = 0; i < s.size(); ++i) {
      if (s[i] == '%' && i + 2 < s.size()) {
        out += static_cast<char>(std::stoi(s.substr(i + 1, 2), nullptr, 16));
        i += 2;
      } else {
        out += s[i];
      }
    }
    return out;
  }

  static Reply json(int status, const boost::json::value& v) {
    return {status, {{"content-type", "application/json"}}, boost::json::serialize(v)};
  }
  static Reply message(int status, const std::string& m) { return json(status, boost::json::object{{"message", m}}); }

  Reply content(const std::string& ref, const std::string& path, const std::string& accept) const {
    auto tree = contents.find(ref);
    if (tree == contents.end()) return message(404, "No commit found for the ref " + ref);
    if (auto f = tree->second.find(path); f != tree->second.end()) {
      if (accept == "application/vnd.github.raw")
        return {200, {{"content-type", "application/octet-stream"}}, f->second};
      // Files over 1 MB come with encoding "none" and no content (docs: "Get repository content").
      bool big = f->second.size() > (1u << 20);
      return json(200, boost::json::object{{"type", "file"},
                                           {"name", path.substr(path.rfind('/') + 1)},
                                           {"path", path},
                                           {"sha", "blob-" + std::to_string(f->second.size())},
                                           {"size", f->second.size()},
                                           {"encoding", big ? "none" : "base64"},
                                           {"content", big ? "" : base64(f->second)}});
    }
    boost::json::array dir;
    for (const auto& [p, bytes] : tree->second)
      if (p.rfind(path + "/", 0) == 0) dir.push_back(boost::json::object{{"type", "file"}, {"path", p}});
    if (!dir.empty()) return json(200, dir);
    return message(404, "Not Found");
  }

  Reply search(const std::map<std::string, std::string>& q, const Pager& page) {
    std::string query = q.count("q") ? q.at("q") : "";
    searchQueries.push_back(query);
    if (searchesBeforeLimit-- <= 0) {
      searchesBeforeLimit = 1 << 30;
      std::int64_t reset = static_cast<std::int64_t>(std::time(nullptr)) + resetIn;
      Reply r = message(403, "API rate limit exceeded for user ID 1. [search]");
      r.headers = {{"content-type", "application/json"},
                   {"x-ratelimit-limit", "30"},
                   {"x-ratelimit-remaining", "0"},
                   {"x-ratelimit-resource", "search"},
                   {"x-ratelimit-reset", std::to_string(reset)}};
      return r;
    }
    // GitHub counts the words, not the qualifiers, against its 256 characters.
    std::string words = std::regex_replace(query, std::regex(R"((^|\s)-?[a-z]+:\S+)"), "");
    if (words.size() > 256) return message(422, "Validation Failed: The search is longer than 256 characters.");
    if (query.find("repo:") == std::string::npos) return message(422, "Validation Failed: no repository scope");
    return page(searchItems, "items");
  }

  // The read routes; nullopt for any other request.
  std::optional<Reply> route(const std::string& method, const std::string& repo, const std::string& path,
                             const std::map<std::string, std::string>& q, const std::string& accept,
                             const std::map<std::string, std::string>& labelColours, const Pager& page) {
    if (method != "GET") return std::nullopt;
    std::smatch m;
    auto is = [&](const char* re) { return std::regex_match(path, m, std::regex(repo + re)); };
    if (path == "/search/issues") return search(q, page);
    if (is(R"(/pulls/(\d+)/files)")) {
      auto it = pullFiles.find(std::stoi(m[1]));
      if (it == pullFiles.end()) return message(404, "Not Found");
      boost::json::array capped;  // GitHub lists at most 3000 files
      for (std::size_t i = 0; i < it->second.size() && i < 3000; ++i) capped.push_back(it->second[i]);
      return page(capped, "");
    }
    if (is(R"(/compare/([0-9a-zA-Z]+)\.\.\.([0-9a-zA-Z]+))")) {
      auto it = compares.find(std::string(m[1]) + "..." + std::string(m[2]));
      if (it == compares.end()) return message(404, "Not Found");
      if (accept == "application/vnd.github.diff") return Reply{200, {{"content-type", "text/plain"}}, it->second.diff};
      boost::json::array files;
      for (std::size_t i = 0; i < it->second.files.size() && i < 300; ++i) files.push_back(it->second.files[i]);
      return json(200, boost::json::object{{"status", it->second.status}, {"files", files}});
    }
    if (is(R"(/contents/(.+))")) return content(q.count("ref") ? q.at("ref") : "main", decode(m[1]), accept);
    if (is(R"(/issues/(\d+))")) {
      auto it = issues.find(std::stoi(m[1]));
      if (it == issues.end()) return message(404, "Not Found");
      return json(200, it->second);
    }
    if (is(R"(/labels)")) {
      boost::json::array all;
      for (const auto& [name, colour] : labelColours) {
        auto d = labelDescriptions.find(name);
        all.push_back(
            boost::json::object{{"name", name},
                                {"color", colour},
                                {"description", d == labelDescriptions.end() ? boost::json::value(nullptr)
                                                                             : boost::json::value(d->second)}});
      }
      return page(all, "");
    }
    return std::nullopt;
  }
};

}  // namespace lw::test
