// A built-in's `with:` parameters as its agent reads them. The policy has
// already checked them against the catalogue (policy/builtin/builtin_catalog.h);
// they are read again with their types because `loopwright agent` can also
// be run by hand. One reader for every agent, so that a wrong parameter is
// told the same way by each.
#pragma once

#include <string>
#include <vector>

#include <boost/json/object.hpp>

#include "core/error.h"
#include "core/finding.h"

namespace lw::agents {

class ParamReader {
 public:
  // `agent` names the built-in in messages ("security" for builtin/security).
  ParamReader(std::string agent, const boost::json::object& params) : agent_(std::move(agent)), params_(params) {}

  // Each leaves `out` as it is when the parameter is absent or null (the
  // catalogue's default stays), and is false when it has another type.
  bool number(const char* name, double& out) const;
  bool boolean(const char* name, bool& out) const;
  bool string(const char* name, std::string& out) const;
  bool strings(const char* name, std::vector<std::string>& out) const;
  bool severity(const char* name, Severity& out) const;

  // TASKPACK_INVALID: "builtin/<agent>: with.<name> must be <expected>".
  Error bad(const std::string& name, const std::string& expected) const;

 private:
  const boost::json::value* present(const char* name) const;

  std::string agent_;
  const boost::json::object& params_;
};

}  // namespace lw::agents
