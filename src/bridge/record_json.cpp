#include "bridge/record_json.h"

#include <boost/json/array.hpp>

namespace lw::bridge {

boost::json::object toJson(const guard::Event& e) {
  return {
      {"kind", guard::toString(e.kind)}, {"code", codeName(e.code)}, {"subject", e.subject}, {"message", e.message}};
}

boost::json::object toJson(const CallRecord& r) {
  boost::json::object o{{"tool", r.tool},
                        {"argsDigest", r.argsDigest},
                        {"durationMs", r.duration.count()},
                        {"outcome", toString(r.outcome)}};
  if (!r.detail.empty()) o["detail"] = r.detail;
  boost::json::array events;
  for (const auto& e : r.events) events.push_back(toJson(e));
  o["events"] = std::move(events);
  return o;
}

}  // namespace lw::bridge
