#include "core/json_fields.h"

namespace lw::json_fields {

namespace json = boost::json;

namespace {

const char* kindName(const json::value& v) {
  switch (v.kind()) {
    case json::kind::null: return "null";
    case json::kind::bool_: return "a boolean";
    case json::kind::int64:
    case json::kind::uint64:
    case json::kind::double_: return "a number";
    case json::kind::string: return "a string";
    case json::kind::array: return "an array";
    case json::kind::object: return "an object";
  }
  return "a value";
}

[[noreturn]] void mistyped(const std::string& path, const char* want, const json::value& v) {
  throw FieldError(path, std::string("expected ") + want + ", found " + kindName(v));
}

const json::value* find(const json::object& o, const std::string& key) {
  auto it = o.find(key);
  if (it == o.end() || it->value().is_null()) return nullptr;
  return &it->value();
}

}  // namespace

std::string join(const std::string& path, const std::string& key) {
  if (path.empty()) return key;
  if (!key.empty() && key.front() == '[') return path + key;
  return path + "." + key;
}

const json::object& object(const json::value& v, const std::string& path) {
  if (!v.is_object()) mistyped(path.empty() ? "$" : path, "an object", v);
  return v.get_object();
}

const json::array& array(const json::value& v, const std::string& path) {
  if (!v.is_array()) mistyped(path, "an array", v);
  return v.get_array();
}

const json::value& field(const json::object& o, const std::string& key, const std::string& path) {
  const json::value* v = find(o, key);
  if (!v) throw FieldError(join(path, key), "required field is missing");
  return *v;
}

std::string str(const json::object& o, const std::string& key, const std::string& path) {
  const json::value& v = field(o, key, path);
  if (!v.is_string()) mistyped(join(path, key), "a string", v);
  return std::string(v.get_string());
}

std::int64_t integer(const json::object& o, const std::string& key, const std::string& path) {
  const json::value& v = field(o, key, path);
  if (v.is_int64()) return v.get_int64();
  if (v.is_uint64() && v.get_uint64() <= static_cast<std::uint64_t>(INT64_MAX))
    return static_cast<std::int64_t>(v.get_uint64());
  mistyped(join(path, key), "an integer", v);
}

bool boolean(const json::object& o, const std::string& key, const std::string& path) {
  const json::value& v = field(o, key, path);
  if (!v.is_bool()) mistyped(join(path, key), "a boolean", v);
  return v.get_bool();
}

std::optional<std::string> optStr(const json::object& o, const std::string& key, const std::string& path) {
  if (!find(o, key)) return std::nullopt;
  return str(o, key, path);
}

std::optional<std::int64_t> optInt(const json::object& o, const std::string& key, const std::string& path) {
  if (!find(o, key)) return std::nullopt;
  return integer(o, key, path);
}

std::optional<bool> optBool(const json::object& o, const std::string& key, const std::string& path) {
  if (!find(o, key)) return std::nullopt;
  return boolean(o, key, path);
}

const json::object* optObject(const json::object& o, const std::string& key, const std::string& path) {
  const json::value* v = find(o, key);
  if (!v) return nullptr;
  return &object(*v, join(path, key));
}

const json::array* optArray(const json::object& o, const std::string& key, const std::string& path) {
  const json::value* v = find(o, key);
  if (!v) return nullptr;
  return &array(*v, join(path, key));
}

const json::value& peekMember(const json::value& v, std::string_view key) {
  static const json::value kNull;
  const json::value* f = v.is_object() ? v.as_object().if_contains(key) : nullptr;
  return f ? *f : kNull;
}

std::optional<std::string> peekStr(const json::value& v, std::string_view key) {
  const json::value& f = peekMember(v, key);
  if (!f.is_string()) return std::nullopt;
  return std::string(f.get_string());
}

std::optional<std::int64_t> peekInt(const json::value& v, std::string_view key) {
  const json::value& f = peekMember(v, key);
  if (f.is_int64()) return f.get_int64();
  if (f.is_uint64() && f.get_uint64() <= static_cast<std::uint64_t>(INT64_MAX))
    return static_cast<std::int64_t>(f.get_uint64());
  return std::nullopt;
}

std::string textOf(const json::value& v, std::string_view key) { return peekStr(v, key).value_or(""); }

std::int64_t idOf(const json::value& v) { return peekInt(v, "id").value_or(0); }

std::string loginOf(const json::value& item) { return textOf(peekMember(item, "user"), "login"); }

}  // namespace lw::json_fields
