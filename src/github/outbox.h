// Every publication is written to the outbox in the state directory before
// anything is sent, with its progress saved after each step, so a
// publication that was interrupted or failed is finished by the next run or
// `loopwright publish --resume` without posting anything twice.
#pragma once

#include <cstdint>
#include <map>
#include <string>
#include <vector>

#include "core/result.h"
#include "github/publication.h"

namespace lw::github {

struct CheckProgress {
  std::int64_t id = 0;         // the check run, once created
  std::size_t batchesDone = 0;  // annotation PATCHes that landed
  bool done = false;
};

struct OutboxProgress {
  bool reviewDone = false;
  std::map<std::string, CheckProgress> checks;  // by stage name
  bool labelsDone = false;
  bool commentDone = false;
};

struct OutboxEntry {
  PublicationRequest request;
  OutboxProgress progress;
  int attempts = 0;
  std::string lastError;
  std::string file;  // where it is stored
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

  // Moves a finished entry to done/. Irreversible for resume purposes.
  Status complete(const OutboxEntry& entry);

  // Pending entries, oldest id first. An unreadable entry fails the call
  // with PUBLICATION_FAILED naming its file, rather than being skipped.
  Result<std::vector<OutboxEntry>> pending() const;

  const std::string& dir() const { return dir_; }

 private:
  std::string pathFor(const std::string& id) const;
  std::string dir_;
};

}  // namespace lw::github
