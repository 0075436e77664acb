// The process environment as a value, so that everything that reads it is a
// thin shell over a function taking the values (tests pass their own).
#pragma once

#include <map>
#include <optional>
#include <string>

namespace lw {

class Environment {
 public:
  Environment() = default;
  explicit Environment(std::map<std::string, std::string> vars) : vars_(std::move(vars)) {}

  // A snapshot of this process's environ.
  static Environment fromProcess();

  std::optional<std::string> get(const std::string& name) const;
  // True when the variable is exactly "true" (GitHub's convention for CI flags).
  bool isTrue(const std::string& name) const;
  void set(const std::string& name, std::string value) { vars_[name] = std::move(value); }
  const std::map<std::string, std::string>& all() const { return vars_; }

 private:
  std::map<std::string, std::string> vars_;
};

}  // namespace lw
