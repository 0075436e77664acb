// The local Kubernetes API server's answers: JSON, and the meta/v1 Status
// every error is answered with (local_k8s_server.h).
#pragma once

#include <string>

#include <boost/json/serialize.hpp>
#include <boost/json/value.hpp>

#include "support/local_http_server.h"

namespace lw::test::k8s_answers {

inline LocalHttpServer::Response jsonResponse(int status, const boost::json::value& body) {
  return LocalHttpServer::Response{status, {{"Content-Type", "application/json"}}, boost::json::serialize(body)};
}

inline LocalHttpServer::Response statusResponse(int code, const std::string& reason, const std::string& message,
                                                boost::json::object details = {}) {
  boost::json::object status{{"kind", "Status"},    {"apiVersion", "v1"}, {"metadata", boost::json::object{}},
                             {"status", "Failure"}, {"message", message}, {"reason", reason},
                             {"code", code}};
  if (!details.empty()) status["details"] = std::move(details);
  return jsonResponse(code, status);
}

}  // namespace lw::test::k8s_answers
