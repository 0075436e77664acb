#include "verify/json_schema.h"

#include <array>

#include <boost/json.hpp>

namespace lw::verify {
namespace {

namespace json = boost::json;

constexpr std::array kKnownKeywords = {
    "$schema", "$id",     "title",    "description", "type",      "required",  "properties",
    "additionalProperties", "items", "enum", "minimum", "maximum", "minLength", "maxLength",
    "minItems", "maxItems"};

std::string typeOf(const json::value& v) {
  switch (v.kind()) {
    case json::kind::object: return "object";
    case json::kind::array: return "array";
    case json::kind::string: return "string";
    case json::kind::bool_: return "boolean";
    case json::kind::null: return "null";
    case json::kind::int64:
    case json::kind::uint64: return "integer";
    case json::kind::double_: {
      double d = v.get_double();
      return d == static_cast<double>(static_cast<std::int64_t>(d)) ? "integer" : "number";
    }
  }
  return "null";
}

bool typeMatches(const std::string& want, const json::value& v) {
  std::string got = typeOf(v);
  return want == got || (want == "number" && got == "integer");
}

double asNumber(const json::value& v) {
  if (v.is_int64()) return static_cast<double>(v.get_int64());
  if (v.is_uint64()) return static_cast<double>(v.get_uint64());
  return v.get_double();
}

// JSON Schema lengths count code points, not bytes.
std::size_t codePoints(json::string_view s) {
  std::size_t n = 0;
  for (char c : s)
    if ((static_cast<unsigned char>(c) & 0xC0) != 0x80) ++n;
  return n;
}

class Validator {
 public:
  std::optional<SchemaError> run(const json::value& schema, const json::value& v,
                                 const std::string& path) {
    if (!schema.is_object()) return SchemaError{path, "schema node is not an object"};
    const json::object& s = schema.get_object();
    for (const auto& kv : s) {
      bool known = false;
      for (const char* k : kKnownKeywords) known = known || kv.key() == k;
      if (!known)
        return SchemaError{"#schema", "unsupported schema keyword '" + std::string(kv.key()) + "'"};
    }
    if (const json::value* t = s.if_contains("type")) {
      bool ok = false;
      std::string wanted;
      auto consider = [&](const json::value& one) {
        std::string w(one.as_string());
        wanted += (wanted.empty() ? "" : " or ") + w;
        ok = ok || typeMatches(w, v);
      };
      if (t->is_array()) {
        for (const json::value& one : t->get_array()) consider(one);
      } else {
        consider(*t);
      }
      if (!ok) return SchemaError{path, "must be " + wanted + ", not " + typeOf(v)};
    }
    if (const json::value* e = s.if_contains("enum")) {
      bool ok = false;
      std::string allowed;
      for (const json::value& one : e->as_array()) {
        ok = ok || one == v;
        allowed += (allowed.empty() ? "" : ", ") + json::serialize(one);
      }
      if (!ok) return SchemaError{path, "must be one of " + allowed};
    }
    if (v.is_number()) {
      if (const json::value* m = s.if_contains("minimum"); m && asNumber(v) < asNumber(*m))
        return SchemaError{path, "must be at least " + json::serialize(*m)};
      if (const json::value* m = s.if_contains("maximum"); m && asNumber(v) > asNumber(*m))
        return SchemaError{path, "must be at most " + json::serialize(*m)};
    }
    if (v.is_string()) {
      std::size_t n = codePoints(v.get_string());
      if (const json::value* m = s.if_contains("minLength"); m && n < m->to_number<std::size_t>())
        return SchemaError{path, "must be at least " + json::serialize(*m) + " characters"};
      if (const json::value* m = s.if_contains("maxLength"); m && n > m->to_number<std::size_t>())
        return SchemaError{path, "must be at most " + json::serialize(*m) + " characters"};
    }
    if (v.is_array()) return array(s, v.get_array(), path);
    if (v.is_object()) return object(s, v.get_object(), path);
    return std::nullopt;
  }

 private:
  std::optional<SchemaError> array(const json::object& s, const json::array& a,
                                   const std::string& path) {
    if (const json::value* m = s.if_contains("minItems"); m && a.size() < m->to_number<std::size_t>())
      return SchemaError{path, "must have at least " + json::serialize(*m) + " items"};
    if (const json::value* m = s.if_contains("maxItems"); m && a.size() > m->to_number<std::size_t>())
      return SchemaError{path, "must have at most " + json::serialize(*m) + " items"};
    if (const json::value* items = s.if_contains("items")) {
      for (std::size_t i = 0; i < a.size(); ++i)
        if (auto e = run(*items, a[i], path + "[" + std::to_string(i) + "]")) return e;
    }
    return std::nullopt;
  }

  std::optional<SchemaError> object(const json::object& s, const json::object& o,
                                    const std::string& path) {
    const json::object* props = nullptr;
    if (const json::value* p = s.if_contains("properties")) props = &p->as_object();
    if (const json::value* req = s.if_contains("required")) {
      for (const json::value& name : req->as_array())
        if (!o.contains(name.as_string()))
          return SchemaError{path, "missing required property '" + std::string(name.as_string()) + "'"};
    }
    const json::value* extra = s.if_contains("additionalProperties");
    bool closed = extra != nullptr && extra->is_bool() && !extra->get_bool();
    for (const auto& kv : o) {
      std::string child = path + "." + std::string(kv.key());
      const json::value* sub = props != nullptr ? props->if_contains(kv.key()) : nullptr;
      if (sub == nullptr) {
        if (closed) return SchemaError{child, "unknown property '" + std::string(kv.key()) + "'"};
        continue;
      }
      if (auto e = run(*sub, kv.value(), child)) return e;
    }
    return std::nullopt;
  }
};

}  // namespace

std::optional<SchemaError> validateJson(const json::value& schema, const json::value& value) {
  try {
    return Validator().run(schema, value, "$");
  } catch (const std::exception& ex) {
    return SchemaError{"#schema", std::string("malformed schema: ") + ex.what()};
  }
}

}  // namespace lw::verify
