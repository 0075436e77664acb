// The OpenAPI check of the tests' local Kubernetes API server, for the k8s-pod golden objects.
#include "support/openapi_check.cpp"  // NOLINT(bugprone-suspicious-include)
