// The k8s-pod backend's pure half: the Pod and the default-deny
// NetworkPolicy as golden JSON (tests/data/k8s/), every restricted Pod
// Security field asserted by name, and the pre-flight checks that refuse a
// missing or unsandboxed RuntimeClass and a namespace whose policies do not
// deny — never a downgrade.
#include <doctest/doctest.h>

#include <boost/json.hpp>

#include "docker_golden.h"
#include "sandbox/k8s/k8s_pod_plan.h"
#include "sandbox/k8s/k8s_preflight.h"
#include "support/openapi_check.h"

using namespace lw;
using namespace lw::sandbox;
using namespace lw::sandbox::k8s;
namespace json = boost::json;

namespace {

const std::string kImage = "ghcr.io/acme/tools@sha256:" + std::string(64, 'a');

PodPlanInput reviewerInput() {
  PodPlanInput in;
  in.spec.argv = {"/usr/bin/review", "--json"};
  in.spec.env = {{"HOME", "/tmp"}, {"LOOPWRIGHT_OUT", "/out"}};
  in.spec.limits.memoryBytes = std::int64_t{2} << 30;
  in.spec.limits.tmpBytes = std::int64_t{256} << 20;
  in.image = kImage;
  in.ns = "ci-runners";
  in.podName = "lw-1234-review-1";
  in.runtimeClassName = "gvisor";
  in.runLabel = "1234";
  in.stepLabel = "review";
  return in;
}

json::object labels() {
  return json::object{{kManagedByLabel, "loopwright"}, {kRunLabel, "1234"}, {kStepLabel, "review"}};
}

json::object runtimeClass(const std::string& handler) {
  return json::object{{"apiVersion", "node.k8s.io/v1"},
                      {"kind", "RuntimeClass"},
                      {"metadata", json::object{{"name", "gvisor"}}},
                      {"handler", handler}};
}

PreflightFacts facts(std::optional<json::object> rc, json::array policies) {
  return PreflightFacts{"gvisor", std::move(rc), "ci-runners", std::move(policies), labels()};
}

json::object denyAll() { return planDefaultDenyPolicy("ci-runners", std::nullopt); }

const lw::test::OpenApiSpec& kubernetesSpec() {
  static const lw::test::OpenApiSpec spec(
      {std::string(LOOPWRIGHT_SOURCE_DIR) + "/tests/data/k8s/api__v1_openapi.json",
       std::string(LOOPWRIGHT_SOURCE_DIR) + "/tests/data/k8s/apis__networking.k8s.io__v1_openapi.json",
       std::string(LOOPWRIGHT_SOURCE_DIR) + "/tests/data/k8s/apis__node.k8s.io__v1_openapi.json"});
  return spec;
}

}  // namespace

TEST_CASE("k8s pod plan: a reviewer's pod, golden") {
  lw::test::checkGoldenJson("k8s/pod_reviewer.json", planPod(reviewerInput()));
}

// A reviewer with a bridge: loopwright's files in, the init's architecture asked of the node.
PodPlanInput bridgedInput() {
  PodPlanInput in = reviewerInput();
  in.spec.argv = {"/loopwright/loopwright-container-init", "/loopwright/seccomp.bpf", "--", "/usr/bin/review"};
  in.spec.env["LOOPWRIGHT_BRIDGE"] = "/tmp/.loopwright-bridge/bridge.sock";
  in.spec.env["LOOPWRIGHT_EVENT"] = "/loopwright/event.json";
  in.loopwrightFiles = true;
  in.nodeArch = "amd64";
  return in;
}

TEST_CASE(
    "k8s pod plan: a reviewer's pod with a bridge (golden) mounts /loopwright read-only in the step and asks for the "
    "runner's arch") {
  lw::test::checkGoldenJson("k8s/pod_bridged.json", planPod(bridgedInput()));
  const json::object pod = planPod(bridgedInput());
  CHECK(pod.at("spec").at("nodeSelector").at("kubernetes.io/arch") == "amd64");
  const json::array& containers = pod.at("spec").at("containers").as_array();
  CHECK(containers[0].at("volumeMounts").as_array().back() ==
        json::object{{"name", "loopwright"}, {"mountPath", "/loopwright"}, {"readOnly", false}});
  CHECK(containers[1].at("volumeMounts").as_array().back() ==
        json::object{{"name", "loopwright"}, {"mountPath", "/loopwright"}, {"readOnly", true}});
  CHECK(kubernetesSpec().checkValue("io.k8s.api.core.v1.Pod", pod) == "");
}

TEST_CASE("k8s pod plan: the pods are valid against core/v1's OpenAPI description") {
  CHECK(kubernetesSpec().checkValue("io.k8s.api.core.v1.Pod", planPod(reviewerInput())) == "");
  PodPlanInput author = reviewerInput();
  author.spec.workspaceWritable = true;
  CHECK(kubernetesSpec().checkValue("io.k8s.api.core.v1.Pod", planPod(author)) == "");
  // The check is live: a field Pod Security does not know is refused.
  json::object pod = planPod(reviewerInput());
  pod["spec"].as_object()["securityContext"].as_object()["privileged"] = false;
  CHECK(kubernetesSpec().checkValue("io.k8s.api.core.v1.Pod", pod) != "");
}

TEST_CASE("k8s pod plan: every restricted Pod Security field, in every container") {
  PodPlanInput in = reviewerInput();
  in.spec.workspaceWritable = true;
  json::object pod = planPod(in);
  const json::object& spec = pod.at("spec").as_object();
  CHECK(spec.at("runtimeClassName").as_string() == "gvisor");
  CHECK(spec.at("automountServiceAccountToken") == false);
  CHECK(spec.at("hostNetwork") == false);
  CHECK(spec.at("hostPID") == false);
  CHECK(spec.at("hostIPC") == false);
  CHECK(spec.at("securityContext").at("runAsNonRoot") == true);
  CHECK(spec.at("securityContext").at("runAsUser").as_int64() != 0);
  CHECK(spec.at("securityContext").at("seccompProfile").at("type").as_string() == "RuntimeDefault");
  CHECK(spec.at("activeDeadlineSeconds").as_int64() == 6 * 3600);  // a pod a crash leaves ends by itself
  CHECK(!spec.contains("initContainers"));
  for (const json::value& c : spec.at("containers").as_array()) {
    CAPTURE(c.at("name").as_string());
    const json::object& sc = c.at("securityContext").as_object();
    CHECK(sc.at("allowPrivilegeEscalation") == false);
    CHECK(sc.at("privileged") == false);
    CHECK(sc.at("readOnlyRootFilesystem") == true);
    CHECK(sc.at("runAsNonRoot") == true);
    CHECK(sc.at("capabilities").at("drop") == json::array{"ALL"});
    CHECK(sc.at("seccompProfile").at("type").as_string() == "RuntimeDefault");
    CHECK(c.at("resources").at("requests") == c.at("resources").at("limits"));
    CHECK(c.at("command") == json::array{"sleep", "21600"});  // the step is exec'd, once its workspace is in
  }
  const json::array& containers = spec.at("containers").as_array();
  CHECK(containers[0].at("name") == "files");
  CHECK(containers[0].at("volumeMounts").as_array()[0].at("readOnly") == false);  // it unpacks the workspace
  CHECK(containers[1].at("name") == "step");
  CHECK(containers[1].at("resources").at("limits").at("memory").as_string() == "2147483648");
  CHECK(containers[1].at("volumeMounts").as_array()[0].at("readOnly") == false);  // the author writes the workspace
  CHECK(planPod(reviewerInput())
            .at("spec")
            .at("containers")
            .as_array()[1]
            .at("volumeMounts")
            .as_array()[0]
            .at("readOnly") == true);
}

TEST_CASE("k8s pod plan: the default-deny NetworkPolicy, golden, with and without the egress proxy") {
  lw::test::checkGoldenJson("k8s/networkpolicy_default_deny.json", denyAll());
  lw::test::checkGoldenJson("k8s/networkpolicy_egress_proxy.json",
                            planDefaultDenyPolicy("ci-runners", EgressProxy{"10.0.0.7/32", 3128}));
  // What `kubectl apply` would send, valid against Kubernetes' OpenAPI description.
  const std::string create = "/apis/networking.k8s.io/v1/namespaces/ci-runners/networkpolicies?fieldValidation=Strict";
  CHECK(kubernetesSpec().checkRequest("POST", create, json::serialize(denyAll())) == "");
  CHECK(kubernetesSpec().checkRequest(
            "POST", create, json::serialize(planDefaultDenyPolicy("ci-runners", EgressProxy{"10.0.0.7/32", 3128}))) ==
        "");
  CHECK(kubernetesSpec().checkValue("io.k8s.api.node.v1.RuntimeClass", runtimeClass("runsc")) == "");
  // The check can fail: a policy with a field the API does not have.
  json::object wrong = denyAll();
  wrong["spec"].as_object()["egressRules"] = json::array{};
  CHECK(kubernetesSpec().checkRequest("POST", create, json::serialize(wrong)) ==
        "POST /apis/networking.k8s.io/v1/namespaces/ci-runners/networkpolicies: body: $.spec: unknown field "
        "\"egressRules\"");
}

TEST_CASE("k8s preflight: gVisor or Kata with a default-deny policy passes, capabilities from what the API shows") {
  auto ok = checkPreflight(facts(runtimeClass("runsc"), json::array{denyAll()}));
  REQUIRE(ok.ok());
  CHECK(ok->runtime == SandboxRuntime::GVisor);
  CHECK(ok->denyPolicy == kDefaultDenyPolicyName);
  CHECK(ok->capabilities.at(Capability::NetworkIsolation).support == Support::Partial);  // the plugin is unseen
  CHECK(ok->capabilities.at(Capability::SyscallFiltering).support == Support::Enforced);
  auto kata = checkPreflight(facts(runtimeClass("kata-qemu"), json::array{denyAll()}));
  REQUIRE(kata.ok());
  CHECK(kata->runtime == SandboxRuntime::Kata);
  auto proxy = checkPreflight(
      facts(runtimeClass("runsc"), json::array{planDefaultDenyPolicy("ci-runners", EgressProxy{"10.0.0.7/32", 3128})}));
  CHECK(proxy.ok());
}

TEST_CASE("k8s preflight: refused, never downgraded") {
  struct Case {
    const char* what;
    PreflightFacts facts;
    std::string message;
  };
  json::object openEgress = denyAll();
  openEgress["metadata"].as_object()["name"] = "allow-all-egress";
  openEgress["spec"].as_object()["policyTypes"] = json::array{"Egress"};
  openEgress["spec"].as_object()["egress"] = json::array{json::object{}};
  json::object wideBlock = planDefaultDenyPolicy("ci-runners", EgressProxy{"0.0.0.0/0", 443});
  json::object otherPods = denyAll();
  otherPods["spec"].as_object()["podSelector"] = json::object{{"matchLabels", json::object{{"app", "web"}}}};
  json::object ingressOnly = denyAll();
  ingressOnly["spec"].as_object()["policyTypes"] = json::array{"Ingress"};
  for (const Case& c : {
           Case{"no RuntimeClass", facts(std::nullopt, json::array{denyAll()}),
                "the RuntimeClass gvisor does not exist"},
           Case{"runc", facts(runtimeClass("runc"), json::array{denyAll()}),
                "the RuntimeClass gvisor has the handler \"runc\", which is neither gVisor (runsc) nor Kata"},
           Case{"no policy", facts(runtimeClass("runsc"), json::array{}),
                "no NetworkPolicy in ci-runners denies the step's pods ingress and egress"},
           Case{"a policy for other pods only", facts(runtimeClass("runsc"), json::array{otherPods}),
                "no NetworkPolicy in ci-runners denies"},
           Case{"ingress denied, egress not", facts(runtimeClass("runsc"), json::array{ingressOnly}),
                "no NetworkPolicy in ci-runners denies"},
           Case{"a second policy opens egress", facts(runtimeClass("runsc"), json::array{denyAll(), openEgress}),
                "the NetworkPolicy ci-runners/allow-all-egress selects the step's pods and it allows egress beyond one "
                "address on listed ports"},
           Case{"the proxy rule is a whole network", facts(runtimeClass("runsc"), json::array{wideBlock}),
                "it allows egress beyond one address"},
       }) {
    CAPTURE(c.what);
    auto r = checkPreflight(c.facts);
    REQUIRE_FALSE(r.ok());
    CHECK(r.error().code == ErrorCode::SandboxCapabilityInsufficient);
    CHECK_MESSAGE(r.error().message.find(c.message) != std::string::npos, r.error().message);
  }
}
