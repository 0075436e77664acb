#include "policy/yaml/yaml_schema.h"

#include <algorithm>
#include <charconv>
#include <set>

#include "policy/yaml/did_you_mean.h"

namespace lw {
namespace {

std::string kindOf(const YAML::Node& node) {
  switch (node.Type()) {
    case YAML::NodeType::Map: return "a mapping";
    case YAML::NodeType::Sequence: return "a list";
    case YAML::NodeType::Null: return "empty";
    case YAML::NodeType::Scalar: return "a scalar";
    default: return "missing";
  }
}

std::string joinQuoted(const std::vector<std::string_view>& words) {
  std::string out;
  for (std::size_t i = 0; i < words.size(); ++i) {
    if (i > 0) out += i + 1 == words.size() ? " or " : ", ";
    out += "'" + std::string(words[i]) + "'";
  }
  return out;
}

// Shows user text in messages without letting it run on or carry control bytes.
std::string quoteValue(std::string_view text) {
  std::string out = "'";
  for (char c : text.substr(0, 80)) {
    unsigned char u = static_cast<unsigned char>(c);
    out += (u < 0x20 || u == 0x7f) ? '?' : c;
  }
  if (text.size() > 80) out += "…";
  return out + "'";
}

bool isNameChar(char c) { return (c >= 'a' && c <= 'z') || (c >= '0' && c <= '9') || c == '-'; }

}  // namespace

std::string childPath(const std::string& parent, std::string_view key) {
  return parent.empty() ? std::string(key) : parent + "." + std::string(key);
}

std::string indexPath(const std::string& parent, std::size_t index) {
  return parent + "[" + std::to_string(index) + "]";
}

YAML::Node find(const std::vector<MapEntry>& entries, std::string_view key) {
  for (const MapEntry& e : entries)
    if (e.key == key) return e.value;
  return YAML::Node(YAML::NodeType::Undefined);
}

Location YamlSchemaReader::locate(const YAML::Node& node, const std::string& path) const {
  Location loc;
  loc.file = file_;
  loc.path = path;
  if (node.IsDefined()) {
    YAML::Mark mark = node.Mark();
    if (!mark.is_null()) {
      loc.line = mark.line + 1;
      loc.column = mark.column + 1;
    }
  }
  return loc;
}

void YamlSchemaReader::error(const YAML::Node& node, const std::string& path, std::string message, std::string hint) {
  diagnostics_.push_back({locate(node, path), std::move(message), std::move(hint)});
}

std::optional<std::vector<MapEntry>> YamlSchemaReader::mapping(const YAML::Node& node, const std::string& path,
                                                               const std::vector<std::string_view>& known,
                                                               const std::vector<std::string_view>& required) {
  if (!node.IsMap()) {
    error(node, path, "must be a mapping, not " + kindOf(node),
          "write it as 'key: value' lines; known keys: " + joinQuoted(known));
    return std::nullopt;
  }
  std::vector<MapEntry> entries;
  std::set<std::string> seen;
  for (auto it = node.begin(); it != node.end(); ++it) {
    // Copies: yaml-cpp's iterator hands out a temporary proxy pair.
    YAML::Node key = it->first;
    YAML::Node value = it->second;
    if (!key.IsScalar()) {
      error(key, path, "a key must be a plain word, not " + kindOf(key));
      continue;
    }
    std::string k = key.Scalar();
    std::string keyPath = childPath(path, k);
    if (!seen.insert(k).second) {
      error(key, keyPath, "key " + quoteValue(k) + " appears twice", "keep one of them");
      continue;
    }
    if (std::find(known.begin(), known.end(), k) == known.end()) {
      auto guess = closestMatch(k, known);
      error(key, keyPath, "unknown key " + quoteValue(k),
            guess ? "did you mean '" + *guess + "'?" : "known keys: " + joinQuoted(known));
      continue;
    }
    entries.push_back({k, key, value});
  }
  for (std::string_view r : required) {
    if (!seen.contains(std::string(r)))
      error(node, childPath(path, r), "required key '" + std::string(r) + "' is missing",
            "add '" + std::string(r) + ":'");
  }
  return entries;
}

std::optional<std::string> YamlSchemaReader::string(const YAML::Node& node, const std::string& path,
                                                    std::size_t maxLength) {
  if (!node.IsScalar()) {
    error(node, path, "must be a string, not " + kindOf(node));
    return std::nullopt;
  }
  const std::string& s = node.Scalar();
  if (s.size() > maxLength) {
    error(node, path, "is " + std::to_string(s.size()) + " characters long",
          "at most " + std::to_string(maxLength) + " are allowed");
    return std::nullopt;
  }
  if (std::any_of(s.begin(), s.end(), [](char c) { return c == '\0'; })) {
    error(node, path, "contains a NUL character");
    return std::nullopt;
  }
  return s;
}

std::optional<std::string> YamlSchemaReader::name(const YAML::Node& node, const std::string& path) {
  auto s = string(node, path, 63);
  if (!s) return std::nullopt;
  if (s->empty() || !std::all_of(s->begin(), s->end(), isNameChar)) {
    error(node, path, quoteValue(*s) + " is not a valid name", "use 1 to 63 characters of a-z, 0-9 and '-'");
    return std::nullopt;
  }
  return s;
}

std::optional<std::int64_t> YamlSchemaReader::integer(const YAML::Node& node, const std::string& path, std::int64_t min,
                                                      std::int64_t max) {
  std::string range = "a whole number from " + std::to_string(min) + " to " + std::to_string(max);
  if (!node.IsScalar()) {
    error(node, path, "must be " + range + ", not " + kindOf(node));
    return std::nullopt;
  }
  const std::string& text = node.Scalar();
  std::string digits;
  bool valid = !text.empty() && node.Tag() != "!";  // a quoted "5" is a string
  for (std::size_t i = 0; valid && i < text.size(); ++i) {
    char c = text[i];
    if (c == '-' && i == 0)
      digits += c;
    else if (c >= '0' && c <= '9')
      digits += c;
    else if (c == '_' && i > 0 && i + 1 < text.size() && text[i - 1] != '_')
      continue;
    else
      valid = false;
  }
  std::int64_t value = 0;
  if (valid) {
    auto [ptr, ec] = std::from_chars(digits.data(), digits.data() + digits.size(), value);
    valid = ec == std::errc() && ptr == digits.data() + digits.size();
  }
  if (!valid || value < min || value > max) {
    error(node, path, quoteValue(text) + " is not " + range);
    return std::nullopt;
  }
  return value;
}

std::optional<bool> YamlSchemaReader::boolean(const YAML::Node& node, const std::string& path) {
  if (node.IsScalar() && node.Tag() != "!") {
    if (node.Scalar() == "true") return true;
    if (node.Scalar() == "false") return false;
  }
  error(node, path, (node.IsScalar() ? quoteValue(node.Scalar()) : kindOf(node)) + " is not true or false");
  return std::nullopt;
}

std::optional<std::string> YamlSchemaReader::oneOf(const YAML::Node& node, const std::string& path,
                                                   const std::vector<std::string_view>& allowed) {
  auto s = string(node, path, 256);
  if (!s) return std::nullopt;
  if (std::find(allowed.begin(), allowed.end(), *s) != allowed.end()) return s;
  auto guess = closestMatch(*s, allowed);
  error(node, path, quoteValue(*s) + " is not one of " + joinQuoted(allowed),
        guess ? "did you mean '" + *guess + "'?" : "");
  return std::nullopt;
}

bool YamlSchemaReader::sequence(const YAML::Node& node, const std::string& path, std::size_t minItems,
                                std::size_t maxItems,
                                const std::function<void(const YAML::Node&, const std::string&)>& item) {
  if (!node.IsSequence()) {
    error(node, path, "must be a list, not " + kindOf(node), "write it as [a, b] or '- a' lines");
    return false;
  }
  if (node.size() < minItems || node.size() > maxItems) {
    error(node, path, "has " + std::to_string(node.size()) + " items",
          "it takes " + std::to_string(minItems) + " to " + std::to_string(maxItems));
    return false;
  }
  for (std::size_t i = 0; i < node.size(); ++i) item(node[i], indexPath(path, i));
  return true;
}

std::optional<std::vector<std::string>> YamlSchemaReader::stringList(const YAML::Node& node, const std::string& path,
                                                                     std::size_t minItems, std::size_t maxItems,
                                                                     const std::vector<std::string_view>& allowed,
                                                                     std::size_t maxLength) {
  std::vector<std::string> out;
  bool fine = true;
  std::set<std::string> seen;
  bool isList = sequence(node, path, minItems, maxItems, [&](const YAML::Node& n, const std::string& p) {
    auto s = allowed.empty() ? string(n, p, maxLength) : oneOf(n, p, allowed);
    if (!s) {
      fine = false;
      return;
    }
    if (!seen.insert(*s).second) {
      error(n, p, quoteValue(*s) + " is listed twice", "each entry may appear once");
      fine = false;
      return;
    }
    out.push_back(*s);
  });
  if (!isList || !fine) return std::nullopt;
  return out;
}

}  // namespace lw
