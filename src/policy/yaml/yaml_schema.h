// Reading YAML against a schema while collecting every problem: each check
// records a Diagnostic (file:line:col, the YAML path, a message and a hint)
// and returns nullopt/false, so a loader reports all mistakes in one pass.
#pragma once

#include <cstdint>
#include <functional>
#include <optional>
#include <string>
#include <string_view>
#include <vector>

#include <yaml-cpp/yaml.h>

#include "core/error.h"

namespace lw {

// The entries of a YAML mapping in document order, keys as text.
struct MapEntry {
  std::string key;
  YAML::Node keyNode;
  YAML::Node value;
};

class YamlSchemaReader {
 public:
  explicit YamlSchemaReader(std::string file) : file_(std::move(file)) {}

  // Checks that `node` is a mapping whose keys are all in `known` (unknown
  // ones are reported with a did-you-mean), that no key repeats, and that
  // every key in `required` is present. Returns the entries (also when some
  // were wrong, so that the rest is still checked), or nullopt if not a map.
  std::optional<std::vector<MapEntry>> mapping(const YAML::Node& node, const std::string& path,
                                               const std::vector<std::string_view>& known,
                                               const std::vector<std::string_view>& required = {});

  // A scalar's text (quoted or not). Rejects maps, sequences and null.
  std::optional<std::string> string(const YAML::Node& node, const std::string& path, std::size_t maxLength = 1024);
  // A string matching [a-z0-9-]{1,63}.
  std::optional<std::string> name(const YAML::Node& node, const std::string& path);
  // A plain decimal integer (digits, optional '-', '_' between digits) in [min, max].
  std::optional<std::int64_t> integer(const YAML::Node& node, const std::string& path, std::int64_t min,
                                      std::int64_t max);
  // Exactly true or false (YAML 1.1's yes/no/on/off are refused: too easy to misread).
  std::optional<bool> boolean(const YAML::Node& node, const std::string& path);
  // One of `allowed` (did-you-mean on a miss).
  std::optional<std::string> oneOf(const YAML::Node& node, const std::string& path,
                                   const std::vector<std::string_view>& allowed);
  // A sequence of size [minItems, maxItems]; `item` is called for each element
  // with its path ("spec.stages[2]"). Returns false if not a sequence or out of bounds.
  bool sequence(const YAML::Node& node, const std::string& path, std::size_t minItems, std::size_t maxItems,
                const std::function<void(const YAML::Node&, const std::string&)>& item);
  // A sequence of distinct strings from `allowed` (or any string when `allowed`
  // is empty, checked by `check` when given).
  std::optional<std::vector<std::string>> stringList(const YAML::Node& node, const std::string& path,
                                                     std::size_t minItems, std::size_t maxItems,
                                                     const std::vector<std::string_view>& allowed = {},
                                                     std::size_t maxLength = 1024);

  void error(const YAML::Node& node, const std::string& path, std::string message, std::string hint = {});
  void errorAt(Location location, std::string message, std::string hint = {}) {
    diagnostics_.push_back({std::move(location), std::move(message), std::move(hint)});
  }
  Location locate(const YAML::Node& node, const std::string& path) const;

  const std::string& file() const { return file_; }
  bool hasErrors() const { return !diagnostics_.empty(); }
  std::vector<Diagnostic> takeDiagnostics() { return std::move(diagnostics_); }

 private:
  std::string file_;
  std::vector<Diagnostic> diagnostics_;
};

// "spec" + "sandbox" -> "spec.sandbox"; "steps" + 2 -> "steps[2]".
std::string childPath(const std::string& parent, std::string_view key);
std::string indexPath(const std::string& parent, std::size_t index);

// The value of `key` among `entries`, or an undefined node.
YAML::Node find(const std::vector<MapEntry>& entries, std::string_view key);

}  // namespace lw
