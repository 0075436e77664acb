#include "agents/lint/lint_json.h"

#include <algorithm>

#include <boost/json/stream_parser.hpp>

#include "agents/lint/lint_diagnostic.h"
#include "core/file_io.h"

namespace lw::agents::lint {

namespace json = boost::json;

namespace {

std::string member(const std::string& path, std::string_view key) {
  if (key.empty()) return path;
  return path.empty() ? std::string(key) : path + "." + std::string(key);
}

// Far beyond any real file; keeps line arithmetic inside int.
constexpr long long kMaxPosition = 100000000;

}  // namespace

std::string indexed(const std::string& path, std::string_view key, std::size_t index) {
  return member(path, key) + "[" + std::to_string(index) + "]";
}

void JsonReader::fail(std::string what, Location where) const {
  throw MalformedOutput{malformedOutput(format_, std::move(what), std::move(where))};
}

void JsonReader::wrongType(const std::string& path, std::string_view key, std::string_view expected) const {
  Location l;
  l.path = member(path, key);
  fail((l.path.empty() ? std::string("the document") : l.path) + " is not " + std::string(expected), l);
}

json::value JsonReader::parse(std::string_view text, int firstLine) const {
  // Deep nesting is refused by the parser's depth limit, never by the stack.
  json::parse_options options;
  options.max_depth = 64;
  json::stream_parser p(json::storage_ptr(), options);
  boost::system::error_code ec;
  std::size_t used = p.write_some(text.data(), text.size(), ec);
  std::string problem = ec ? ec.message() : "";
  if (!ec && !p.done()) {
    p.finish(ec);
    if (ec) problem = "the text ends inside a value";
  }
  std::size_t extra = text.find_first_not_of(" \t\r\n", used);
  if (problem.empty() && extra != std::string_view::npos) {
    problem = "more text after the value";
    used = extra;
  }
  if (problem.empty()) return p.release();
  auto [line, column] = lineColumnAt(text, std::min(used, text.size()));
  Location l;
  l.line = firstLine + line - 1;
  l.column = column;
  fail("not JSON (" + problem + ")", l);
}

const json::object& JsonReader::object(const json::value& v, const std::string& path) const {
  if (!v.is_object()) wrongType(path, "", "an object");
  return v.as_object();
}

const json::object* JsonReader::object(const json::object& o, std::string_view key, const std::string& path) const {
  const json::value* v = o.if_contains(key);
  if (v == nullptr || v->is_null()) return nullptr;
  if (!v->is_object()) wrongType(path, key, "an object");
  return &v->as_object();
}

const json::array* JsonReader::array(const json::object& o, std::string_view key, const std::string& path) const {
  const json::value* v = o.if_contains(key);
  if (v == nullptr || v->is_null()) return nullptr;
  if (!v->is_array()) wrongType(path, key, "an array");
  return &v->as_array();
}

std::optional<std::string> JsonReader::string(const json::object& o, std::string_view key,
                                              const std::string& path) const {
  const json::value* v = o.if_contains(key);
  if (v == nullptr || v->is_null()) return std::nullopt;
  if (!v->is_string()) wrongType(path, key, "a string");
  return std::string(v->as_string());
}

int JsonReader::position(const json::object& o, std::string_view key, const std::string& path) const {
  const json::value* v = o.if_contains(key);
  if (v == nullptr || v->is_null()) return 0;
  long long n = -1;
  if (v->is_int64())
    n = v->as_int64();
  else if (v->is_uint64())
    n = kMaxPosition + 1;  // only values past int64's range are uint64
  else
    wrongType(path, key, "an integer");
  if (n < 0 || n > kMaxPosition) {
    Location l;
    l.path = member(path, key);
    fail(l.path + " is out of range (" + std::to_string(n) + ")", l);
  }
  return static_cast<int>(n);
}

}  // namespace lw::agents::lint
