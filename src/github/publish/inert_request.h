// The publication boundary for a whole request: every string of a
// PublicationRequest made inert (github/markdown/neutralise.h) as its field
// is shown, so that a channel cannot be handed text that skipped it.
#pragma once

#include "core/result.h"
#include "github/markdown/neutralise.h"
#include "github/publish/publication.h"
#include "verify/secrets/secret_scanner.h"

namespace lw::github {

// A request every string of which passed the boundary. Only makeInert makes
// one, so a channel cannot be handed text that skipped it.
class InertRequest {
 public:
  const PublicationRequest& get() const { return request_; }

 private:
  explicit InertRequest(PublicationRequest request) : request_(std::move(request)) {}
  PublicationRequest request_;
  friend Result<InertRequest> makeInert(PublicationRequest request, const LinkScope& scope,
                                        const verify::SecretScanner& secrets);
};

// Every string of `request` through the boundary, each as its field is shown.
// Fails with PUBLICATION_FAILED when a commit id (the head, a change's base,
// a coverage head) is not one.
Result<InertRequest> makeInert(PublicationRequest request, const LinkScope& scope,
                               const verify::SecretScanner& secrets);

}  // namespace lw::github
