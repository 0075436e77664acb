// The model lanes' use of the HTTP layer (core/http.h). A lane's request is
// one POST (bridge/lane_protocol.h builds it); its transport is
// http::CurlTransport under this policy in production, a scripted fake or
// the fake model server in tests.
#pragma once

#include "core/http_policy.h"

namespace lw::bridge {

// No redirects (one would carry the x-api-key or Authorization header to
// wherever it points: a 3xx is the answer, and the lane rejects it),
// responses up to 8 MiB, requests up to 8 MiB (a prompt is bounded far
// lower by the taskpack), and the proxy variables honoured: a model API is a
// remote https service, reached as GitHub's is.
http::Policy laneHttpPolicy();

}  // namespace lw::bridge
