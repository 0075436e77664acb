#include <doctest/doctest.h>

#include <map>

#include "core/environment.h"
#include "sandbox/docker/endpoint.h"
#include "sandbox/docker/image_ref.h"

using lw::ErrorCode;
using lw::sandbox::docker::dockerSocketPath;
using lw::sandbox::docker::parsePinnedImage;

namespace {
const std::string kHex = "0a709705be1a8ae76f7092d34a0b5fe8140d13b0dea666a492e7e5d708f06f5a";
}

TEST_CASE("docker image ref: references pinned by digest are accepted as they are") {
  SUBCASE("repository with registry, port, path and tag") {
    auto r = parsePinnedImage("registry.example:5000/team/tools:1.2@sha256:" + kHex);
    REQUIRE(r.ok());
    CHECK(r->name == "registry.example:5000/team/tools:1.2");
    CHECK(r->digest == "sha256:" + kHex);
    CHECK(r->reference == "registry.example:5000/team/tools:1.2@sha256:" + kHex);
  }
  SUBCASE("short name") {
    auto r = parsePinnedImage("busybox@sha256:" + kHex);
    REQUIRE(r.ok());
    CHECK(r->name == "busybox");
  }
  SUBCASE("a bare local image ID") {
    auto r = parsePinnedImage("sha256:" + kHex);
    REQUIRE(r.ok());
    CHECK(r->name.empty());
    CHECK(r->digest == "sha256:" + kHex);
  }
}

TEST_CASE("docker image ref: anything not pinned is refused with a hint") {
  struct Case {
    std::string ref;
    std::string message;
  };
  const Case cases[] = {
      {"", "no container image given"},
      {"busybox", "image 'busybox' is not pinned by digest (a tag can be moved to other content)"},
      {"busybox:latest", "image 'busybox:latest' is not pinned by digest (a tag can be moved to other content)"},
      {"busybox@sha512:" + kHex, "image digest 'sha512:" + kHex + "' is not a sha256 digest"},
      {"busybox@sha256:" + kHex.substr(1),
       "image digest 'sha256:" + kHex.substr(1) + "' must be 'sha256:' followed by 64 lowercase hex digits"},
      {"busybox@sha256:" + std::string(64, 'A'),
       "image digest 'sha256:" + std::string(64, 'A') + "' must be 'sha256:' followed by 64 lowercase hex digits"},
      {"sha256:xyz", "image digest 'sha256:xyz' must be 'sha256:' followed by 64 lowercase hex digits"},
      {"Busybox@sha256:" + kHex, "image name 'Busybox' is not a valid repository reference"},
      {"@sha256:" + kHex, "image name '' is not a valid repository reference"},
      {"a//b@sha256:" + kHex, "image name 'a//b' is not a valid repository reference"},
      {"busybox@sha256:" + kHex + "@sha256:" + kHex,
       "image digest 'sha256:" + kHex + "@sha256:" + kHex + "' must be 'sha256:' followed by 64 lowercase hex digits"},
  };
  for (const auto& c : cases) {
    CAPTURE(c.ref);
    auto r = parsePinnedImage(c.ref);
    REQUIRE(!r.ok());
    CHECK(r.error().code == ErrorCode::SandboxLaunchFailed);
    CHECK(r.error().message == c.message);
    CHECK(r.error().hint.find("pin the image by digest") != std::string::npos);
  }
  CHECK(!parsePinnedImage(std::string(600, 'a') + "@sha256:" + kHex).ok());
}

TEST_CASE("docker endpoint: DOCKER_HOST names a unix socket or the default is used") {
  using lw::Environment;
  auto env = [](std::string v) {
    return Environment(std::map<std::string, std::string>{{"DOCKER_HOST", std::move(v)}});
  };
  CHECK(dockerSocketPath(Environment{}).value() == "/var/run/docker.sock");
  CHECK(dockerSocketPath(env("")).value() == "/var/run/docker.sock");
  CHECK(dockerSocketPath(env("unix:///run/x/docker.sock")).value() == "/run/x/docker.sock");
  auto tcp = dockerSocketPath(env("tcp://10.0.0.1:2375"));
  REQUIRE(!tcp.ok());
  CHECK(tcp.error().code == ErrorCode::SandboxBackendUnavailable);
  CHECK(tcp.error().message == "DOCKER_HOST 'tcp://10.0.0.1:2375' is not a unix socket");
  CHECK(!dockerSocketPath(env("unix://relative.sock")).ok());
  CHECK(!dockerSocketPath(env("ssh://host")).ok());
}
