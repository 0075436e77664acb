#include "verify/outputs/json_schema_explain.h"

#include <cstdint>
#include <optional>

#include <boost/json.hpp>

namespace lw::verify {
namespace {

namespace json = boost::json;

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

std::optional<std::string> typeMismatch(const json::object& s, const json::value& v) {
  const json::value* t = s.if_contains("type");
  if (t == nullptr) return std::nullopt;
  std::string got = typeOf(v);
  std::string wanted;
  bool ok = false;
  auto consider = [&](const json::value& one) {
    if (!one.is_string()) return;
    std::string w(one.get_string());
    wanted += (wanted.empty() ? "" : " or ") + w;
    ok = ok || w == got || (w == "number" && got == "integer");
  };
  if (t->is_array()) {
    for (const json::value& one : t->get_array()) consider(one);
  } else {
    consider(*t);
  }
  if (ok) return std::nullopt;
  return "must be " + wanted + ", not " + got;
}

std::optional<std::string> valueMismatch(const json::object& s, const json::value& v) {
  if (const json::value* e = s.if_contains("enum"); e && e->is_array()) {
    bool found = false;
    std::string allowed;
    for (const json::value& one : e->get_array()) {
      found = found || one == v || (one.is_number() && v.is_number() && asNumber(one) == asNumber(v));
      allowed += (allowed.empty() ? "" : ", ") + json::serialize(one);
    }
    if (!found) return "must be one of " + allowed;
  }
  if (v.is_number()) {
    if (const json::value* m = s.if_contains("minimum"); m && m->is_number() && asNumber(v) < asNumber(*m))
      return "must be at least " + json::serialize(*m);
    if (const json::value* m = s.if_contains("maximum"); m && m->is_number() && asNumber(v) > asNumber(*m))
      return "must be at most " + json::serialize(*m);
  }
  if (v.is_string()) {
    std::size_t n = codePoints(v.get_string());
    if (const json::value* m = s.if_contains("minLength"); m && m->is_number() && n < m->to_number<std::size_t>())
      return "must be at least " + json::serialize(*m) + " characters";
    if (const json::value* m = s.if_contains("maxLength"); m && m->is_number() && n > m->to_number<std::size_t>())
      return "must be at most " + json::serialize(*m) + " characters";
  }
  if (v.is_array()) {
    std::size_t n = v.get_array().size();
    if (const json::value* m = s.if_contains("minItems"); m && m->is_number() && n < m->to_number<std::size_t>())
      return "must have at least " + json::serialize(*m) + " items";
    if (const json::value* m = s.if_contains("maxItems"); m && m->is_number() && n > m->to_number<std::size_t>())
      return "must have at most " + json::serialize(*m) + " items";
  }
  return std::nullopt;
}

// A missing required property is the object's error; an unknown one is the
// property's own.
std::optional<SchemaError> objectMismatch(const json::object& s, const json::object& o, const std::string& path) {
  if (const json::value* req = s.if_contains("required"); req && req->is_array())
    for (const json::value& name : req->get_array())
      if (name.is_string() && !o.contains(name.get_string()))
        return SchemaError{path, "missing required property '" + std::string(name.get_string()) + "'"};
  const json::value* extra = s.if_contains("additionalProperties");
  if (extra == nullptr || !extra->is_bool() || extra->get_bool()) return std::nullopt;
  const json::value* props = s.if_contains("properties");
  for (const auto& kv : o)
    if (props == nullptr || !props->is_object() || !props->get_object().contains(kv.key()))
      return SchemaError{path + "." + std::string(kv.key()), "unknown property '" + std::string(kv.key()) + "'"};
  return std::nullopt;
}

// The schema a child is checked against, or null where it is not found by
// properties, additionalProperties or items alone.
const json::value* childSchema(const json::object& s, const json::value& parent, const std::string& step) {
  if (parent.is_object()) {
    if (const json::value* p = s.if_contains("properties"); p && p->is_object())
      if (const json::value* sub = p->get_object().if_contains(step)) return sub;
    const json::value* extra = s.if_contains("additionalProperties");
    return extra != nullptr && extra->is_object() ? extra : nullptr;
  }
  const json::value* items = s.if_contains("items");
  if (items == nullptr) return nullptr;
  if (items->is_object()) return items;
  std::size_t index = std::stoul(step);
  if (items->is_array() && index < items->get_array().size()) return &items->get_array()[index];
  const json::value* extra = s.if_contains("additionalItems");
  return extra != nullptr && extra->is_object() ? extra : nullptr;
}

const json::value* child(const json::value& parent, const std::string& step) {
  if (parent.is_object()) return parent.get_object().if_contains(step);
  if (!parent.is_array() || step.empty() || step.find_first_not_of("0123456789") != std::string::npos) return nullptr;
  std::size_t index = std::stoul(step);
  return index < parent.get_array().size() ? &parent.get_array()[index] : nullptr;
}

}  // namespace

SchemaError explainSchemaError(const json::value& schema, const json::value& document,
                               const std::vector<std::string>& steps, const std::string& fallback) {
  const json::value* node = &schema;
  const json::value* value = &document;
  std::string path = "$";
  for (const std::string& step : steps) {
    const json::value* next = child(*value, step);
    if (next == nullptr || !node->is_object()) return SchemaError{path, fallback};
    const json::value* sub = childSchema(node->get_object(), *value, step);
    path += value->is_object() ? "." + step : "[" + step + "]";
    if (sub == nullptr) return SchemaError{path, fallback};
    node = sub;
    value = next;
  }
  if (!node->is_object()) return SchemaError{path, fallback};
  const json::object& s = node->get_object();
  if (auto why = typeMismatch(s, *value)) return SchemaError{path, *why};
  if (auto why = valueMismatch(s, *value)) return SchemaError{path, *why};
  if (value->is_object())
    if (auto e = objectMismatch(s, value->get_object(), path)) return *e;
  return SchemaError{path, fallback};
}

}  // namespace lw::verify
