#include "verify/outputs/json_schema.h"

#include <memory>
#include <string_view>
#include <vector>

#include <boost/json.hpp>
#include <valijson/adapters/boost_json_adapter.hpp>
#include <valijson/schema.hpp>
#include <valijson/schema_parser.hpp>
#include <valijson/validation_results.hpp>
#include <valijson/validator.hpp>

#include "verify/outputs/json_schema_explain.h"

namespace lw::verify {
namespace {

namespace json = boost::json;

// What valijson applies under draft 7, plus the annotations it skips. A
// keyword outside this list (a draft 2020-12 one such as prefixItems or
// unevaluatedProperties) would be ignored by valijson: it is refused instead.
constexpr std::string_view kKnownKeywords[] = {"$schema",
                                               "$id",
                                               "$comment",
                                               "$ref",
                                               "title",
                                               "description",
                                               "default",
                                               "examples",
                                               "type",
                                               "enum",
                                               "const",
                                               "properties",
                                               "required",
                                               "additionalProperties",
                                               "patternProperties",
                                               "propertyNames",
                                               "minProperties",
                                               "maxProperties",
                                               "dependencies",
                                               "items",
                                               "additionalItems",
                                               "contains",
                                               "minItems",
                                               "maxItems",
                                               "uniqueItems",
                                               "minimum",
                                               "maximum",
                                               "exclusiveMinimum",
                                               "exclusiveMaximum",
                                               "multipleOf",
                                               "minLength",
                                               "maxLength",
                                               "pattern",
                                               "format",
                                               "allOf",
                                               "anyOf",
                                               "oneOf",
                                               "not",
                                               "if",
                                               "then",
                                               "else",
                                               "definitions",
                                               "$defs"};

// Keywords whose value is a schema, an array of schemas, or an object of schemas.
constexpr std::string_view kSchemaValued[] = {
    "additionalProperties", "propertyNames", "items", "additionalItems", "contains", "not", "if", "then", "else"};
constexpr std::string_view kSchemaArrays[] = {"allOf", "anyOf", "oneOf"};
constexpr std::string_view kSchemaMaps[] = {"properties", "patternProperties", "definitions", "$defs"};

bool among(auto const& list, std::string_view key) {
  for (std::string_view k : list)
    if (k == key) return true;
  return false;
}

std::optional<SchemaError> unsupportedKeyword(const json::value& schema);

std::optional<SchemaError> unsupportedIn(const json::value& sub) {
  if (sub.is_array()) {
    for (const json::value& one : sub.get_array())
      if (auto e = unsupportedKeyword(one)) return e;
    return std::nullopt;
  }
  return unsupportedKeyword(sub);
}

std::optional<SchemaError> unsupportedKeyword(const json::value& schema) {
  if (!schema.is_object()) return std::nullopt;  // true/false schemas
  for (const auto& kv : schema.get_object()) {
    std::string_view key = kv.key();
    if (!among(kKnownKeywords, key))
      return SchemaError{"#schema", "unsupported schema keyword '" + std::string(key) + "'"};
    std::optional<SchemaError> inner;
    if (among(kSchemaValued, key) || among(kSchemaArrays, key)) inner = unsupportedIn(kv.value());
    if (among(kSchemaMaps, key) && kv.value().is_object())
      for (const auto& member : kv.value().get_object())
        if (!inner) inner = unsupportedKeyword(member.value());
    if (inner) return inner;
  }
  return std::nullopt;
}

// Draft 2020-12 (validation §6.1.1) counts 1.0 as an integer; valijson under
// draft 7 does not. A document holding such numbers is validated as a copy
// where they are integers.
bool hasIntegralDouble(const json::value& v) {
  switch (v.kind()) {
    case json::kind::double_: {
      double d = v.get_double();
      return d == static_cast<double>(static_cast<std::int64_t>(d));
    }
    case json::kind::array:
      for (const json::value& e : v.get_array())
        if (hasIntegralDouble(e)) return true;
      return false;
    case json::kind::object:
      for (const auto& kv : v.get_object())
        if (hasIntegralDouble(kv.value())) return true;
      return false;
    default: return false;
  }
}

void integralDoublesAsIntegers(json::value& v) {
  if (v.is_double() && hasIntegralDouble(v)) v = static_cast<std::int64_t>(v.get_double());
  if (v.is_array())
    for (json::value& e : v.get_array()) integralDoublesAsIntegers(e);
  if (v.is_object())
    for (auto& kv : v.get_object()) integralDoublesAsIntegers(kv.value());
}

// valijson's context of the deepest error: "<root>", then "[name]" or
// "[index]" per step. The deepest is where the document is wrong; the ones
// above it only say that a child failed.
const valijson::ValidationResults::Error* deepest(const valijson::ValidationResults& results) {
  const valijson::ValidationResults::Error* best = nullptr;
  for (const auto& e : results)
    if (best == nullptr || e.context.size() > best->context.size()) best = &e;
  return best;
}

// Compiling a schema costs ~40 us (Release), validating a small document
// ~3 us: each thread keeps the schemas it has compiled, found again by value
// (a process uses a handful: the output schemas and its tools' inputs), by
// its text: comparing two json::values is slower than compiling.
const valijson::Schema& compiled(const json::value& schema) {
  struct Entry {
    std::string source;
    std::unique_ptr<valijson::Schema> schema;
  };
  constexpr std::size_t kKept = 16;
  thread_local std::vector<Entry> cache;
  std::string text = json::serialize(schema);
  for (const Entry& e : cache)
    if (e.source == text) return *e.schema;
  auto fresh = std::make_unique<valijson::Schema>();
  valijson::SchemaParser parser(valijson::SchemaParser::kDraft7);
  valijson::adapters::BoostJsonAdapter schemaDoc(schema);
  parser.populateSchema(schemaDoc, *fresh);
  if (cache.size() == kKept) cache.erase(cache.begin());
  cache.push_back(Entry{std::move(text), std::move(fresh)});
  return *cache.back().schema;
}

std::optional<SchemaError> validateNormalised(const json::value& schema, const json::value& value) {
  const valijson::Schema& rules = compiled(schema);
  valijson::Validator validator(valijson::Validator::kStrongTypes);
  valijson::ValidationResults results;
  valijson::adapters::BoostJsonAdapter target(value);
  if (validator.validate(rules, target, &results)) return std::nullopt;
  const auto* error = deepest(results);
  std::vector<std::string> steps;
  if (error != nullptr)
    for (std::size_t i = 1; i < error->context.size(); ++i)
      steps.push_back(error->context[i].substr(1, error->context[i].size() - 2));
  return explainSchemaError(schema, value, steps, error != nullptr ? error->description : "invalid");
}

}  // namespace

std::optional<SchemaError> validateJson(const json::value& schema, const json::value& value) {
  if (auto e = unsupportedKeyword(schema)) return e;
  try {
    if (!hasIntegralDouble(value)) return validateNormalised(schema, value);
    json::value copy = value;
    integralDoublesAsIntegers(copy);
    return validateNormalised(schema, copy);
  } catch (const std::exception& ex) {
    return SchemaError{"#schema", std::string("malformed schema: ") + ex.what()};
  }
}

}  // namespace lw::verify
