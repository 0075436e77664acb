#include "lease/local_store.h"

#include "lease/lease_record.h"
#include "lease/store_dir.h"
#include "lease/transitions.h"

namespace lw::lease {
namespace {

// The record of `resource` as decided on: absent, a lease, or corrupt.
Result<std::optional<Lease>> readLease(const StoreDir& dir, const std::string& resource) {
  auto text = dir.read(resource);
  if (!text) return text.error();
  if (!*text) return std::optional<Lease>();
  auto lease = decodeRecord(**text, resource, dir.recordPath(resource));
  if (!lease) return lease.error();
  return std::optional<Lease>(std::move(*lease));
}

// One operation: lock the resource, read, decide, and write what changed.
Result<Lease> transactIn(const std::filesystem::path& path, const Request& request, std::int64_t nowMs) {
  auto dir = StoreDir::open(path);
  if (!dir) return dir.error();
  auto lock = dir->lock(request.resource);
  if (!lock) return lock.error();
  auto current = readLease(*dir, request.resource);
  if (!current) return current.error();
  auto next = nextRecord(*current, request, nowMs);
  if (!next || request.kind == RequestKind::CheckFence) return next;
  if (auto written = dir->write(request.resource, encodeRecord(*next)); !written) return written.error();
  return next;
}

// One record as `list` shows it; nullopt when it was removed by hand
// between the listing and the read.
std::optional<ListedRecord> listed(const StoreDir& dir, const std::string& name) {
  ListedRecord rec{name, dir.recordPath(name), std::nullopt, std::nullopt};
  if (!validateResourceName(name)) {
    rec.unreadable =
        makeError(ErrorCode::LeaseUnavailable, rec.file + " is not a lease record: its name is not a resource name",
                  "inspect it and remove it by hand", rec.file);
    return rec;
  }
  auto lease = readLease(dir, name);
  if (!lease)
    rec.unreadable = lease.error();
  else if (*lease)
    rec.lease = **lease;
  else
    return std::nullopt;
  return rec;
}

}  // namespace

LocalStore::LocalStore(std::filesystem::path dir, Clock nowMs) : dir_(std::move(dir)), nowMs_(std::move(nowMs)) {}

Result<Lease> LocalStore::transact(const Request& request) { return transactIn(dir_, request, nowMs_()); }

Result<std::vector<ListedRecord>> LocalStore::survey() {
  auto dir = StoreDir::open(dir_);
  if (!dir) return dir.error();
  auto names = dir->resources();
  if (!names) return names.error();
  std::vector<ListedRecord> records;
  for (const std::string& name : *names)
    if (auto rec = listed(*dir, name)) records.push_back(std::move(*rec));
  return records;
}

std::unique_ptr<Store> openLocalStore(const std::filesystem::path& dir, Clock nowMs) {
  return std::make_unique<LocalStore>(dir, std::move(nowMs));
}

}  // namespace lw::lease
