// Every publication is written to the outbox in the state directory before
// anything is sent, with its progress saved after each step, so a
// publication that was interrupted or failed is finished by the next run or
// `loopwright publish --resume` without posting anything twice.
#pragma once

#include <cstdint>
#include <map>
#include <optional>
#include <string>
#include <vector>

#include "core/result.h"
#include "github/publish/publication.h"

namespace lw::github {

struct CheckProgress {
  std::int64_t id = 0;          // the check run, once created
  std::size_t batchesDone = 0;  // annotation PATCHes that landed
  bool done = false;
};

struct OutboxProgress {
  bool reviewDone = false;
  std::map<std::string, CheckProgress> checks;  // by stage name
  bool labelsDone = false;
  bool commentDone = false;
};

// Tries of one publication (this run's and the resumes) before it is parked.
inline constexpr int kMaxPublishAttempts = 3;

struct OutboxEntry {
  PublicationRequest request;
  OutboxProgress progress;
  int attempts = 0;
  std::string lastError;
  std::string file;  // where it is stored
};

// A process's exclusive claim on one publication (an flock on its claim
// file), held while it publishes it: processes that share a state directory
// (runners on one host) never publish the same entry at once. Released when
// destroyed, or when the process dies.
class OutboxClaim {
 public:
  OutboxClaim(OutboxClaim&& o) noexcept : fd_(o.fd_) { o.fd_ = -1; }
  OutboxClaim& operator=(OutboxClaim&&) = delete;
  OutboxClaim(const OutboxClaim&) = delete;
  ~OutboxClaim();

 private:
  friend class Outbox;
  explicit OutboxClaim(int fd) : fd_(fd) {}
  int fd_;
};

class Outbox {
 public:
  // Entries live in <stateDir>/outbox/<id>.json; finished ones move to
  // <stateDir>/outbox/done/.
  explicit Outbox(std::string stateDir);

  // Records a new publication, or returns the stored entry when one with the
  // same id is pending (a re-run resumes it). Fails with IO_ERROR.
  Result<OutboxEntry> enqueue(const PublicationRequest& request);

  // Saves the entry atomically (write, fsync, rename). Fails with IO_ERROR.
  Status save(OutboxEntry& entry);

  // Where complete() moves the entry.
  std::string donePath(const OutboxEntry& entry) const;
  // Where park() moves the entry.
  std::string parkedPath(const OutboxEntry& entry) const;

  // Moves a finished entry to done/. Irreversible for resume purposes.
  Status complete(const OutboxEntry& entry);

  // Moves an entry that failed kMaxPublishAttempts times to parked/, with
  // its lastError: a publication that cannot succeed (a request GitHub
  // rejects every time) must not block every later run. Never resumed.
  Status park(const OutboxEntry& entry);

  // Publication `id` claimed for this process and read again under the
  // claim (the holder before may have advanced or finished it).
  struct Claimed {
    OutboxClaim claim;
    std::optional<OutboxEntry> entry;  // nullopt: no longer pending
  };
  // nullopt while another process holds the claim. Fails with IO_ERROR, or
  // PUBLICATION_FAILED for an unreadable entry.
  Result<std::optional<Claimed>> claim(const std::string& id);

  // Pending entries, oldest id first. An unreadable entry fails the call
  // with PUBLICATION_FAILED naming its file, rather than being skipped.
  Result<std::vector<OutboxEntry>> pending() const;

  const std::string& dir() const { return dir_; }

 private:
  Status moveTo(const OutboxEntry& entry, const std::string& sub);
  std::string pathFor(const std::string& id) const;
  std::string claimPathFor(const std::string& id) const;
  std::string dir_;
};

}  // namespace lw::github
