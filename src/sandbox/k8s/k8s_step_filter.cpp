// The seccomp filter a k8s-pod step with a bridge runs under, compiled on the
// runner with libseccomp (the Linux build; k8s_step_filter_portable.cpp is the
// portable build's).
#include "sandbox/k8s/k8s_pod_backend.h"

namespace lw::sandbox::k8s {

// The step's seccomp filter as bytes, for a step with a bridge (k8s_step_files.h).
Result<std::string> K8sPodBackend::filterFor(const StepSpec& spec) {
  if (!spec.passFd) return std::string();
  auto filter = filters_.get({spec.network, true});
  if (!filter) return filter.error();
  const auto& code = (*filter)->instructions();
  return std::string(reinterpret_cast<const char*>(code.data()), code.size() * sizeof(code[0]));
}

}  // namespace lw::sandbox::k8s
