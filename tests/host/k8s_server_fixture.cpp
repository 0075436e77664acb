// The local Kubernetes API server and its OpenAPI check, for the k8s-pod sweep test.
#include "support/local_http_server.cpp"      // NOLINT(bugprone-suspicious-include)
#include "support/local_k8s_pods.cpp"         // NOLINT(bugprone-suspicious-include)
#include "support/local_k8s_server.cpp"       // NOLINT(bugprone-suspicious-include)
#include "support/local_k8s_server_pods.cpp"  // NOLINT(bugprone-suspicious-include)
#include "support/openapi_check.cpp"          // NOLINT(bugprone-suspicious-include)
