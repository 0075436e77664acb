#include "support/openapi_check.h"

#include <cctype>
#include <fstream>
#include <limits>
#include <regex>
#include <sstream>
#include <stdexcept>

#include <boost/json/parse.hpp>

#include "core/hex.h"

namespace lw::test {
namespace {

namespace json = boost::json;

constexpr std::string_view kRefPrefix = "#/components/schemas/";

// Keywords that say nothing a request can violate.
bool isAnnotation(std::string_view key) {
  return key == "description" || key == "default" || key == "uniqueItems" || key == "example" ||
         (key.starts_with("x-kubernetes-") && key != "x-kubernetes-int-or-string" &&
          key != "x-kubernetes-preserve-unknown-fields");
}

std::vector<std::string> segments(const std::string& path) {
  std::vector<std::string> out;
  std::stringstream in(path);
  for (std::string part; std::getline(in, part, '/');)
    if (!part.empty()) out.push_back(part);
  return out;
}

bool templateMatches(const std::string& pattern, const std::string& path) {
  auto want = segments(pattern);
  auto got = segments(path);
  if (want.size() != got.size()) return false;
  for (std::size_t i = 0; i < want.size(); ++i)
    if (!(want[i].starts_with("{") && want[i].ends_with("}")) && want[i] != got[i]) return false;
  return true;
}

std::string percentDecode(std::string_view s) {
  std::string out;
  for (std::size_t i = 0; i < s.size(); ++i) {
    if (s[i] == '+') {
      out += ' ';
    } else if (s[i] == '%' && i + 2 < s.size() + 0 && hexDigitValue(s[i + 1]) >= 0 && hexDigitValue(s[i + 2]) >= 0) {
      out += static_cast<char>(hexDigitValue(s[i + 1]) * 16 + hexDigitValue(s[i + 2]));
      i += 2;
    } else {
      out += s[i];
    }
  }
  return out;
}

// Go's layouts as the API server's decoders apply them: meta/v1 Time is
// RFC 3339 (fraction optional), MicroTime is RFC3339Micro, which time.Parse
// reads with exactly six fractional digits.
bool isRfc3339(const std::string& s) {
  static const std::regex re(R"(\d{4}-\d{2}-\d{2}T\d{2}:\d{2}:\d{2}(\.\d+)?(Z|[+-]\d{2}:\d{2}))");
  return std::regex_match(s, re);
}
bool isMicroTime(const std::string& s) {
  static const std::regex re(R"(\d{4}-\d{2}-\d{2}T\d{2}:\d{2}:\d{2}\.\d{6}(Z|[+-]\d{2}:\d{2}))");
  return std::regex_match(s, re);
}

bool hasType(const json::value& value, std::string_view type) {
  if (type == "string") return value.is_string();
  if (type == "integer") return value.is_int64() || value.is_uint64();
  if (type == "number") return value.is_number();
  if (type == "boolean") return value.is_bool();
  if (type == "object") return value.is_object();
  if (type == "array") return value.is_array();
  return false;
}

std::string queryTypeProblem(const json::object& parameter, const std::string& value) {
  const json::value* schema = parameter.if_contains("schema");
  if (schema == nullptr || !schema->is_object()) return "";
  const json::value* type = schema->as_object().if_contains("type");
  if (type == nullptr || !type->is_string()) return "";
  if (type->as_string() == "boolean" && value != "true" && value != "false") return "not a boolean";
  if (type->as_string() == "integer" &&
      (value.empty() || !std::all_of(value.begin(), value.end(), [](unsigned char c) { return std::isdigit(c); })))
    return "not an integer";
  return "";
}

json::value readJsonFile(const std::filesystem::path& file) {
  std::ifstream in(file);
  if (!in) throw std::runtime_error("cannot read " + file.string());
  std::stringstream text;
  text << in.rdbuf();
  return json::parse(text.str());
}

}  // namespace

std::multimap<std::string, std::string> queryOf(const std::string& target) {
  std::multimap<std::string, std::string> out;
  auto q = target.find('?');
  if (q == std::string::npos) return out;
  std::stringstream in(target.substr(q + 1));
  for (std::string pair; std::getline(in, pair, '&');) {
    if (pair.empty()) continue;
    auto eq = pair.find('=');
    std::string name = percentDecode(pair.substr(0, eq));
    std::string value = eq == std::string::npos ? "" : percentDecode(pair.substr(eq + 1));
    out.emplace(std::move(name), std::move(value));
  }
  return out;
}

std::string pathOf(const std::string& target) { return target.substr(0, target.find('?')); }

OpenApiSpec::OpenApiSpec(const std::vector<std::filesystem::path>& files) {
  for (const auto& file : files) {
    json::value doc = readJsonFile(file);
    for (const auto& [k, v] : doc.at("paths").as_object()) paths_[k] = v;
    for (const auto& [k, v] : doc.at("components").at("schemas").as_object()) schemas_[k] = v;
  }
}

const json::object* OpenApiSpec::findOperation(const std::string& method, const std::string& path,
                                               const json::object** pathItem) const {
  std::string verb = method;
  std::transform(verb.begin(), verb.end(), verb.begin(), ::tolower);
  for (const auto& [pattern, item] : paths_) {
    if (!templateMatches(std::string(pattern), path)) continue;
    *pathItem = &item.as_object();
    const json::value* op = item.as_object().if_contains(verb);
    return op != nullptr ? &op->as_object() : nullptr;
  }
  *pathItem = nullptr;
  return nullptr;
}

std::string OpenApiSpec::checkRequest(const std::string& method, const std::string& target,
                                      const std::string& body) const {
  const std::string path = pathOf(target);
  const std::string what = method + " " + path + ": ";
  const json::object* item = nullptr;
  const json::object* op = findOperation(method, path, &item);
  if (item == nullptr) return what + "no such path in the OpenAPI description";
  if (op == nullptr) return what + "the path has no " + method + " operation";
  std::map<std::string, const json::object*> declared;
  for (const json::object* holder : {item, op})
    if (const json::value* params = holder->if_contains("parameters"))
      for (const json::value& p : params->as_array())
        if (p.at("in").as_string() == "query") declared[std::string(p.at("name").as_string())] = &p.as_object();
  for (const auto& [name, value] : queryOf(target)) {
    auto found = declared.find(name);
    if (found == declared.end()) return what + "query parameter '" + name + "' is not declared";
    if (std::string why = queryTypeProblem(*found->second, value); !why.empty())
      return what + "query parameter '" + name + "'=" + value + ": " + why;
  }
  const json::value* requestBody = op->if_contains("requestBody");
  if (requestBody == nullptr) return body.empty() ? "" : what + "the operation takes no body";
  if (body.empty()) return "";  // DELETE's DeleteOptions are optional
  boost::system::error_code ec;
  json::value value = json::parse(body, ec);
  if (ec) return what + "body: not JSON";
  // Published as "*/*" (any of the encodings the server decodes): the JSON one is sent.
  const json::object& content = requestBody->at("content").as_object();
  const json::value& schema =
      (content.contains("application/json") ? content.at("application/json") : content.at("*/*")).at("schema");
  std::vector<std::string> errors;
  validate(schema, value, "$", errors);
  return errors.empty() ? "" : what + "body: " + errors.front();
}

std::string OpenApiSpec::checkResponse(const std::string& method, const std::string& target, int status,
                                       const std::string& body) const {
  const std::string path = pathOf(target);
  const json::object* item = nullptr;
  const json::object* op = findOperation(method, path, &item);
  if (op == nullptr) return "";  // the request itself was refused
  boost::system::error_code ec;
  json::value value = json::parse(body, ec);
  if (ec) return method + " " + path + ": response: not JSON";
  const json::value* declared = op->at("responses").as_object().if_contains(std::to_string(status));
  // A status declared without a JSON body (401 "Unauthorized") gets a Status like an undeclared one.
  const json::value* content = declared != nullptr ? declared->as_object().if_contains("content") : nullptr;
  const json::value* jsonContent = content != nullptr ? content->as_object().if_contains("application/json") : nullptr;
  std::vector<std::string> errors;
  if (jsonContent != nullptr)
    validate(jsonContent->at("schema"), value, "$", errors);
  else
    validate(schemas_.at("io.k8s.apimachinery.pkg.apis.meta.v1.Status"), value, "$", errors);
  return errors.empty() ? "" : method + " " + path + ": response " + std::to_string(status) + ": " + errors.front();
}

std::string OpenApiSpec::checkValue(const std::string& schemaName, const json::value& value) const {
  const json::value* schema = schemas_.if_contains(schemaName);
  if (schema == nullptr) return "no schema " + schemaName;
  std::vector<std::string> errors;
  validate(*schema, value, "$", errors);
  return errors.empty() ? "" : errors.front();
}

void OpenApiSpec::validate(const json::value& schemaValue, const json::value& value, const std::string& where,
                           std::vector<std::string>& errors) const {
  const json::object& schema = schemaValue.as_object();
  for (const auto& [key, rule] : schema) {
    if (isAnnotation(key) || key == "properties" || key == "required" || key == "additionalProperties" ||
        key == "items" || key == "type" || key == "format")
      continue;
    if (key == "$ref") {
      std::string ref(rule.as_string());
      const json::value* target =
          ref.starts_with(kRefPrefix) ? schemas_.if_contains(ref.substr(kRefPrefix.size())) : nullptr;
      if (target == nullptr) {
        errors.push_back("#schema: unresolved $ref " + ref);
        continue;
      }
      if (ref.ends_with(".meta.v1.MicroTime") && value.is_string() && !isMicroTime(std::string(value.as_string())))
        errors.push_back(where + ": not a MicroTime (RFC 3339 with exactly 6 fractional digits)");
      validate(*target, value, where, errors);
    } else if (key == "allOf") {
      for (const json::value& part : rule.as_array()) validate(part, value, where, errors);
    } else if (key == "oneOf") {
      // Exactly one alternative: IntOrString {integer | string}, Quantity {string | number}.
      std::size_t matched = 0;
      for (const json::value& part : rule.as_array()) {
        std::vector<std::string> partErrors;
        validate(part, value, where, partErrors);
        matched += partErrors.empty() ? 1 : 0;
      }
      if (matched != 1) errors.push_back(where + ": matches " + std::to_string(matched) + " of oneOf's alternatives");
    } else if (key == "enum") {
      const auto& options = rule.as_array();
      if (std::find(options.begin(), options.end(), value) == options.end())
        errors.push_back(where + ": not one of the enum's values");
    } else if (key == "x-kubernetes-int-or-string" || key == "x-kubernetes-preserve-unknown-fields") {
      continue;  // handled with the type below
    } else {
      errors.push_back("#schema" + where.substr(1) + ": unsupported keyword " + std::string(key));
    }
  }
  // IntOrString is published as {format: int-or-string, oneOf: [integer,
  // string]}; the API server's decoder takes a JSON number or string for it.
  const json::value* fmt = schema.if_contains("format");
  if (schema.contains("x-kubernetes-int-or-string") || (fmt != nullptr && fmt->as_string() == "int-or-string")) {
    if (!value.is_string() && !value.is_int64() && !value.is_uint64())
      errors.push_back(where + ": not an int or a string");
    return;
  }
  if (const json::value* type = schema.if_contains("type")) {
    if (!hasType(value, type->as_string())) {
      errors.push_back(where + ": not " + std::string(type->as_string()));
      return;
    }
  }
  if (const json::value* format = schema.if_contains("format")) {
    std::string_view f = format->as_string();
    if (f == "int32" && value.is_int64() &&
        (value.as_int64() < std::numeric_limits<std::int32_t>::min() ||
         value.as_int64() > std::numeric_limits<std::int32_t>::max()))
      errors.push_back(where + ": out of int32's range");
    if (f == "int64" && value.is_uint64()) errors.push_back(where + ": out of int64's range");
    if (f == "date-time" && value.is_string() && !isRfc3339(std::string(value.as_string())))
      errors.push_back(where + ": not an RFC 3339 date-time");
  }
  if (value.is_object()) validateObject(schema, value.as_object(), where, errors);
  if (value.is_array())
    if (const json::value* items = schema.if_contains("items"))
      for (std::size_t i = 0; i < value.as_array().size(); ++i)
        validate(*items, value.as_array()[i], where + "[" + std::to_string(i) + "]", errors);
}

void OpenApiSpec::validateObject(const json::object& schema, const json::object& value, const std::string& where,
                                 std::vector<std::string>& errors) const {
  if (const json::value* required = schema.if_contains("required"))
    for (const json::value& name : required->as_array())
      if (!value.contains(name.as_string()))
        errors.push_back(where + ": required field '" + std::string(name.as_string()) + "' is missing");
  const json::value* properties = schema.if_contains("properties");
  const json::value* additional = schema.if_contains("additionalProperties");
  const bool preserve = schema.contains("x-kubernetes-preserve-unknown-fields");
  for (const auto& [name, field] : value) {
    const std::string at = where + "." + std::string(name);
    if (properties != nullptr && properties->as_object().contains(name)) {
      if (!field.is_null()) validate(properties->as_object().at(name), field, at, errors);
    } else if (additional != nullptr && additional->is_object()) {
      validate(*additional, field, at, errors);
    } else if (properties != nullptr && !preserve &&
               !(additional != nullptr && additional->is_bool() && additional->as_bool())) {
      errors.push_back(where + ": unknown field \"" + std::string(name) + "\"");
    }
  }
}

}  // namespace lw::test
