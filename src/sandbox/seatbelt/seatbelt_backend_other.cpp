#include "sandbox/seatbelt/seatbelt_backend.h"

#if !defined(__APPLE__)

#include "sandbox/unavailable_backend.h"

namespace lw::sandbox::seatbelt {

std::unique_ptr<Backend> makeSeatbeltBackend(const Environment&) {
  return makeUnavailableBackend(BackendId::MacosSeatbelt,
                                "macos-seatbelt needs macOS's sandbox-exec (this host is not macOS)");
}

}  // namespace lw::sandbox::seatbelt

#endif
