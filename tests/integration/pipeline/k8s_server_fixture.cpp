// The tests' local Kubernetes API server, for `loopwright run` on k8s-pod.
#include "support/local_http_server.cpp"      // NOLINT(bugprone-suspicious-include)
#include "support/local_k8s_pods.cpp"         // NOLINT(bugprone-suspicious-include)
#include "support/local_k8s_server.cpp"       // NOLINT(bugprone-suspicious-include)
#include "support/local_k8s_server_pods.cpp"  // NOLINT(bugprone-suspicious-include)
#include "support/openapi_check.cpp"          // NOLINT(bugprone-suspicious-include)
