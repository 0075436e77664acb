// Reading a linter's JSON (SARIF, rdjson, rdjsonl) with Boost.JSON, with the
// place of every problem: line and column for text that does not parse, the
// JSON path of a member of the wrong type.
#pragma once

#include <optional>
#include <string>
#include <string_view>

#include <boost/json/array.hpp>
#include <boost/json/object.hpp>
#include <boost/json/value.hpp>

#include "core/error.h"

namespace lw::agents::lint {

// Thrown by JsonReader inside a parser; the parser's public function catches
// it and returns its Error, so no malformed output escapes as an exception.
struct MalformedOutput {
  Error error;
};

class JsonReader {
 public:
  explicit JsonReader(std::string_view format) : format_(format) {}

  // One JSON text; throws at the line:column where it stops parsing
  // (`firstLine`: the line of `text`'s start in the whole output).
  boost::json::value parse(std::string_view text, int firstLine = 1) const;

  // Absent or null members are nullopt / nullptr / 0; a member of another
  // type throws, located at path.key.
  const boost::json::object& object(const boost::json::value& v, const std::string& path) const;
  const boost::json::object* object(const boost::json::object& o, std::string_view key, const std::string& path) const;
  const boost::json::array* array(const boost::json::object& o, std::string_view key, const std::string& path) const;
  std::optional<std::string> string(const boost::json::object& o, std::string_view key, const std::string& path) const;
  // A 1-based line or column (0 when absent); negative or huge throws.
  int position(const boost::json::object& o, std::string_view key, const std::string& path) const;

  [[noreturn]] void fail(std::string what, Location where) const;

 private:
  [[noreturn]] void wrongType(const std::string& path, std::string_view key, std::string_view expected) const;
  std::string format_;
};

// "runs[0].results[2]"
std::string indexed(const std::string& path, std::string_view key, std::size_t index);

}  // namespace lw::agents::lint
