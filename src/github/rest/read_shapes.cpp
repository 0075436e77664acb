#include "github/rest/read_shapes.h"

#include <boost/json.hpp>

#include "core/json_fields.h"

namespace lw::github {

namespace json = boost::json;
using namespace json_fields;

namespace {

Error shapeError(const FieldError& e, const std::string& what) {
  Error err = makeError(ErrorCode::IoError, "GitHub's " + what + " answer: " + e.path + ": " + e.what());
  err.location = Location{.file = {}, .line = 0, .column = 0, .path = e.path};
  return err;
}

std::string login(const json::object& o, const std::string& key, const std::string& path) {
  // A deleted account's content is kept with a null user ("ghost").
  const json::object* user = optObject(o, key, path);
  return user ? str(*user, "login", join(path, key)) : std::string("ghost");
}

std::vector<std::string> labelNames(const json::object& o, const std::string& path) {
  std::vector<std::string> out;
  if (const json::array* labels = optArray(o, "labels", path))
    for (std::size_t i = 0; i < labels->size(); ++i) {
      std::string at = join(path, "labels[" + std::to_string(i) + "]");
      // Issue labels are objects; GitHub also accepts (and may echo) bare names.
      if ((*labels)[i].is_string())
        out.emplace_back((*labels)[i].get_string());
      else
        out.push_back(str(object((*labels)[i], at), "name", at));
    }
  return out;
}

}  // namespace

Result<PullSummary> pullFromJson(const json::value& v) {
  try {
    const json::object& pr = object(v, "");
    const json::object& base = object(field(pr, "base", ""), "base");
    const json::object& head = object(field(pr, "head", ""), "head");
    PullSummary p;
    p.number = static_cast<int>(integer(pr, "number", ""));
    p.title = str(pr, "title", "");
    p.body = optStr(pr, "body", "").value_or("");
    p.author = login(pr, "user", "");
    p.authorAssociation = optStr(pr, "author_association", "").value_or("NONE");
    p.baseSha = str(base, "sha", "base");
    p.headSha = str(head, "sha", "head");
    p.baseRef = str(base, "ref", "base");
    p.headRef = str(head, "ref", "head");
    p.labels = labelNames(pr, "");
    p.draft = optBool(pr, "draft", "").value_or(false);
    return p;
  } catch (const FieldError& e) {
    return shapeError(e, "pull request");
  }
}

Result<std::vector<ChangedFile>> filesFromJson(const json::array& files) {
  std::vector<ChangedFile> out;
  try {
    for (std::size_t i = 0; i < files.size(); ++i) {
      std::string at = "[" + std::to_string(i) + "]";
      const json::object& f = object(files[i], at);
      ChangedFile c;
      c.path = str(f, "filename", at);
      std::string status = str(f, "status", at);
      auto change = parseFileChange(status);
      if (!change) throw FieldError(join(at, "status"), "unknown file status '" + status + "'");
      c.status = *change;
      c.previousPath = optStr(f, "previous_filename", at).value_or("");
      c.additions = static_cast<int>(optInt(f, "additions", at).value_or(0));
      c.deletions = static_cast<int>(optInt(f, "deletions", at).value_or(0));
      bool hasPatch = f.contains("patch");
      bool pureRename = c.status == FileChange::Renamed && optInt(f, "changes", at).value_or(0) == 0;
      c.binary = !hasPatch && !pureRename && c.additions == 0 && c.deletions == 0;
      out.push_back(std::move(c));
    }
    return out;
  } catch (const FieldError& e) {
    return shapeError(e, "file list");
  }
}

Result<IssueThread> issueFromJson(const json::value& v, const json::array& comments) {
  try {
    const json::object& issue = object(v, "");
    IssueThread t;
    t.number = static_cast<int>(integer(issue, "number", ""));
    t.title = str(issue, "title", "");
    t.body = optStr(issue, "body", "").value_or("");
    t.author = login(issue, "user", "");
    t.authorAssociation = optStr(issue, "author_association", "").value_or("NONE");
    t.state = str(issue, "state", "");
    t.labels = labelNames(issue, "");
    for (std::size_t i = 0; i < comments.size(); ++i) {
      std::string at = "comments[" + std::to_string(i) + "]";
      const json::object& c = object(comments[i], at);
      t.comments.push_back({login(c, "user", at), optStr(c, "author_association", at).value_or("NONE"),
                            optStr(c, "body", at).value_or(""), str(c, "created_at", at)});
    }
    return t;
  } catch (const FieldError& e) {
    return shapeError(e, "issue");
  }
}

Result<IssueSearch> searchFromJson(const json::value& v) {
  try {
    const json::object& body = object(v, "");
    IssueSearch s;
    s.total = integer(body, "total_count", "");
    const json::array& items = array(field(body, "items", ""), "items");
    for (std::size_t i = 0; i < items.size(); ++i) {
      std::string at = "items[" + std::to_string(i) + "]";
      const json::object& it = object(items[i], at);
      IssueHit h;
      h.number = static_cast<int>(integer(it, "number", at));
      h.title = str(it, "title", at);
      h.body = optStr(it, "body", at).value_or("");
      h.state = str(it, "state", at);
      h.url = str(it, "html_url", at);
      h.labels = labelNames(it, at);
      s.items.push_back(std::move(h));
    }
    return s;
  } catch (const FieldError& e) {
    return shapeError(e, "search");
  }
}

Result<std::vector<RepoLabel>> labelsFromJson(const json::array& labels) {
  std::vector<RepoLabel> out;
  try {
    for (std::size_t i = 0; i < labels.size(); ++i) {
      std::string at = "[" + std::to_string(i) + "]";
      const json::object& l = object(labels[i], at);
      out.push_back(
          {str(l, "name", at), optStr(l, "description", at).value_or(""), optStr(l, "color", at).value_or("")});
    }
    return out;
  } catch (const FieldError& e) {
    return shapeError(e, "labels");
  }
}

}  // namespace lw::github
