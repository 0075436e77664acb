// The tests' local Kubernetes API server, for the k8s-pod pre-flight tests.
#include "support/local_http_server.cpp"      // NOLINT(bugprone-suspicious-include)
#include "support/local_k8s_pods.cpp"         // NOLINT(bugprone-suspicious-include)
#include "support/local_k8s_server.cpp"       // NOLINT(bugprone-suspicious-include)
#include "support/local_k8s_server_pods.cpp"  // NOLINT(bugprone-suspicious-include)
