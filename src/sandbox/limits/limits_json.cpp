#include "sandbox/limits/limits_json.h"

#include <boost/json/object.hpp>

namespace lw::sandbox::limits {

boost::json::array toJson(const std::vector<Enforcement>& enforcement) {
  boost::json::array out;
  for (const Enforcement& e : enforcement)
    out.push_back(boost::json::object{{"limit", keyOf(e.limit)},
                                      {"value", e.value ? boost::json::value(*e.value) : boost::json::value(nullptr)},
                                      {"enforced", e.enforced},
                                      {"mechanism", e.mechanism},
                                      {"note", e.note}});
  return out;
}

}  // namespace lw::sandbox::limits
