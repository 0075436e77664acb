// Requests checked against a published OpenAPI v3 description (the subset a
// test vendors under tests/data/): the operation exists, every query
// parameter is declared and of its type, and the JSON body matches the
// operation's schema. What a real server would refuse before doing
// anything fails here too, so a fake server built on this cannot accept a
// request the real one rejects.
//
// Schema keywords applied: $ref (to #/components/schemas), allOf, type,
// oneOf, format (int32, int64, date-time, int-or-string), properties, required,
// additionalProperties, items, enum, and Kubernetes' x-kubernetes-int-or-string
// and x-kubernetes-preserve-unknown-fields. An object with `properties` and
// no `additionalProperties` refuses unknown fields (Kubernetes'
// fieldValidation=Strict). Any other validation keyword is reported as
// unsupported rather than ignored.
#pragma once

#include <filesystem>
#include <map>
#include <string>
#include <vector>

#include <boost/json/value.hpp>

namespace lw::test {

class OpenApiSpec {
 public:
  // The union of the paths and component schemas of `files`; throws
  // std::runtime_error when one cannot be read or parsed.
  explicit OpenApiSpec(const std::vector<std::filesystem::path>& files);

  // "" when the request is valid, else what is wrong with it, e.g.
  // "PUT /apis/...: body: $.spec.renewTime: not a MicroTime".
  // `target` is the path and query as sent.
  std::string checkRequest(const std::string& method, const std::string& target, const std::string& body) const;

  // "" when the answer `status` with `body` matches what the operation
  // declares for that status (a status it declares nothing for: the body must
  // be a meta/v1 Status), else what is wrong with it: the fake's own check.
  std::string checkResponse(const std::string& method, const std::string& target, int status,
                            const std::string& body) const;

  // "" when `value` matches the named component schema
  // ("io.k8s.api.coordination.v1.Lease"), else the first problem.
  std::string checkValue(const std::string& schemaName, const boost::json::value& value) const;

 private:
  const boost::json::object* findOperation(const std::string& method, const std::string& path,
                                           const boost::json::object** pathItem) const;
  void validate(const boost::json::value& schema, const boost::json::value& value, const std::string& where,
                std::vector<std::string>& errors) const;
  void validateObject(const boost::json::object& schema, const boost::json::object& value, const std::string& where,
                      std::vector<std::string>& errors) const;

  boost::json::object paths_;
  boost::json::object schemas_;
};

// The query of `target` as name -> value, percent-decoded ("+" is a space).
std::multimap<std::string, std::string> queryOf(const std::string& target);

// `target` without its query.
std::string pathOf(const std::string& target);

}  // namespace lw::test
