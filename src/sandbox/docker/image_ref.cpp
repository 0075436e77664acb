#include "sandbox/docker/image_ref.h"

#include <regex>

#include "core/hex.h"

namespace lw::sandbox::docker {
namespace {

constexpr std::string_view kSha = "sha256:";

Error imageError(std::string_view ref, std::string message) {
  return makeError(ErrorCode::SandboxLaunchFailed, std::move(message),
                   "pin the image by digest, e.g. 'registry.example/tools@sha256:<64 hex>' "
                   "(docker images --digests shows it), or give a local image ID 'sha256:<64 hex>'",
                   std::string(ref));
}

bool isLowerHex64(std::string_view s) { return s.size() == 64 && isLowerHex(s); }

// The reference grammar of the distribution project (reference/regexp.go):
// an optional domain (has a '.' or ':' or is "localhost") and path
// components of lowercase alphanumerics joined by '.', '_', '__' or dashes,
// then an optional tag.
const std::regex& nameRegex() {
  static const std::regex re(
      R"(^(?:(?:[a-zA-Z0-9](?:[a-zA-Z0-9-]*[a-zA-Z0-9])?)(?:\.[a-zA-Z0-9](?:[a-zA-Z0-9-]*[a-zA-Z0-9])?)*(?::[0-9]+)?/)?)"
      R"([a-z0-9]+(?:(?:[._]|__|-+)[a-z0-9]+)*(?:/[a-z0-9]+(?:(?:[._]|__|-+)[a-z0-9]+)*)*)"
      R"((?::[A-Za-z0-9_][A-Za-z0-9_.-]{0,127})?$)");
  return re;
}

Result<std::string> parseDigest(std::string_view ref, std::string_view digest) {
  if (digest.substr(0, kSha.size()) != kSha)
    return imageError(ref, "image digest '" + std::string(digest) + "' is not a sha256 digest");
  if (!isLowerHex64(digest.substr(kSha.size())))
    return imageError(
        ref, "image digest '" + std::string(digest) + "' must be 'sha256:' followed by 64 lowercase hex digits");
  return std::string(digest);
}

}  // namespace

Result<PinnedImage> parsePinnedImage(std::string_view ref) {
  if (ref.empty()) return imageError(ref, "no container image given");
  if (ref.size() > 512) return imageError(ref.substr(0, 64), "image reference is longer than 512 characters");
  const auto at = ref.find('@');
  if (at == std::string_view::npos) {
    if (ref.substr(0, kSha.size()) == kSha) {
      auto digest = parseDigest(ref, ref);
      if (!digest) return digest.error();
      return PinnedImage{std::string(ref), "", digest.value()};
    }
    return imageError(ref,
                      "image '" + std::string(ref) + "' is not pinned by digest (a tag can be moved to other content)");
  }
  const std::string_view name = ref.substr(0, at);
  auto digest = parseDigest(ref, ref.substr(at + 1));
  if (!digest) return digest.error();
  if (name.empty() || !std::regex_match(name.begin(), name.end(), nameRegex()))
    return imageError(ref, "image name '" + std::string(name) + "' is not a valid repository reference");
  return PinnedImage{std::string(ref), std::string(name), digest.value()};
}

}  // namespace lw::sandbox::docker
