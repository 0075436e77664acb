// The Docker client's use of the HTTP layer (core/http.h): HTTP/1.1 with the
// engine over its unix socket. Behind http::Transport so that the client's
// logic (status codes, error bodies, the wait/kill/remove sequence) is
// tested with a fake engine.
#pragma once

#include <chrono>
#include <memory>
#include <string>

#include "core/http.h"
#include "core/http_policy.h"
#include "core/result.h"

namespace lw::sandbox::docker {

using HttpResponse = http::Response;
using HttpTransport = http::Transport;
using BodySink = http::BodySink;

// Every exchange to `socketPath`; no redirects (the engine sends none), no
// proxy, 8 MiB bodies each way (a create body is a few KiB; logs stream
// through a sink and the demuxer bounds them); `connectTimeout` bounds
// reaching the socket, each request's own timeout the whole exchange.
http::Policy enginePolicy(const std::string& socketPath,
                          std::chrono::milliseconds connectTimeout = std::chrono::seconds(5));

// libcurl under enginePolicy().
std::shared_ptr<HttpTransport> engineTransport(const std::string& socketPath,
                                               std::chrono::milliseconds connectTimeout = std::chrono::seconds(5));

// A request for the engine: `target` is "/v1.41/containers/create?…",
// already escaped; a body goes as application/json; `timeout` zero means
// none (a wait without a deadline); `sink` receives the body as it arrives.
http::Request engineRequest(const std::string& method, const std::string& target, std::string body,
                            std::chrono::milliseconds timeout, BodySink sink = {});

// The target of a request made by engineRequest() ("/v1.41/…").
std::string engineTarget(const http::Request& request);

// One exchange. A timeout is not an error: the response comes back with
// timedOut() true. IO_ERROR when the engine cannot be reached or the
// exchange breaks, naming the request.
Result<HttpResponse> exchange(HttpTransport& transport, const http::Request& request);

// Whether the request's timeout passed before the engine answered.
inline bool timedOut(const HttpResponse& r) { return r.failure == http::Failure::kTimedOut; }

}  // namespace lw::sandbox::docker
