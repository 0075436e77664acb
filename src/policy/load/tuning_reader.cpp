#include "policy/load/tuning_reader.h"

#include <cstdlib>
#include <set>

namespace lw {
namespace {

// Bounds: generous for real use, tight enough that a typo (an extra zero
// group, a negative) is caught rather than silently accepted.
constexpr std::int64_t kMaxWallTimeMs = 6 * 3'600'000;  // GitHub's job limit is 6 h
constexpr std::int64_t kMaxOutputBytes = 256LL * 1024 * 1024;

void readInt(YamlSchemaReader& reader, const MapEntry& e, const std::string& path, std::int64_t min, std::int64_t max,
             auto& target) {
  if (auto v = reader.integer(e.value, childPath(path, e.key), min, max))
    target = static_cast<std::remove_reference_t<decltype(target)>>(*v);
}

struct LimitBound {
  std::string_view key;
  std::int64_t min, max;
};
constexpr LimitBound kLimitBounds[] = {{"wallTimeMs", 1000, kMaxWallTimeMs},
                                       {"maxModelCalls", 0, 100'000},
                                       {"maxToolCalls", 0, 1'000'000},
                                       {"maxOutputBytes", 1024, kMaxOutputBytes}};

const LimitBound& boundOf(std::string_view key) {
  for (const auto& b : kLimitBounds)
    if (b.key == key) return b;
  return kLimitBounds[0];
}

bool isEnvName(const std::string& s) {
  if (s.empty() || s.size() > 128 || (s[0] >= '0' && s[0] <= '9')) return false;
  for (char c : s)
    if (!((c >= 'A' && c <= 'Z') || (c >= '0' && c <= '9') || c == '_')) return false;
  return true;
}

// https:// anywhere; plain http only to this machine (local model servers, tests).
bool isAllowedBaseUrl(const std::string& url) {
  if (url.starts_with("https://") && url.size() > 8) return true;
  for (std::string_view local : {"http://127.0.0.1", "http://localhost", "http://[::1]"})
    if (url.starts_with(local) && (url.size() == local.size() || url[local.size()] == ':' || url[local.size()] == '/'))
      return true;
  return false;
}

// A count as a plain integer; a size as bytes or a strict unit ("256MiB").
std::optional<std::int64_t> readResourceLimit(YamlSchemaReader& reader, const YAML::Node& node, const std::string& path,
                                              ResourceLimit r) {
  const ResourceBound b = lw::boundOf(r);
  if (!isSize(r)) return reader.integer(node, path, b.min, b.max);
  auto text = reader.string(node, path, 64);
  if (!text) return std::nullopt;
  std::string range = "from " + formatSize(b.min) + " to " + formatSize(b.max);
  SizeProblem problem;
  auto bytes = parseSize(*text, &problem);
  if (!bytes) {
    reader.error(node, path, "'" + *text + "' " + problem.message, problem.hint);
    return std::nullopt;
  }
  if (*bytes < b.min || *bytes > b.max) {
    reader.error(node, path, "'" + *text + "' is out of range", "write a size " + range);
    return std::nullopt;
  }
  return bytes;
}

}  // namespace

void readGuardrails(YamlSchemaReader& reader, const YAML::Node& node, const std::string& path, Guardrails& out) {
  auto entries = reader.mapping(node, path, {"loop", "breaker"});
  if (!entries) return;
  if (YAML::Node loop = find(*entries, "loop"); loop.IsDefined()) {
    std::string p = childPath(path, "loop");
    if (auto fields = reader.mapping(
            loop, p, {"warnRepeats", "stopRepeats", "windowSeconds", "suspiciousCallsPerTool", "maxCallsPerTool"})) {
      for (const MapEntry& e : *fields) {
        if (e.key == "warnRepeats") readInt(reader, e, p, 1, 1000, out.loop.warnRepeats);
        if (e.key == "stopRepeats") readInt(reader, e, p, 1, 1000, out.loop.stopRepeats);
        if (e.key == "windowSeconds") readInt(reader, e, p, 1, 86400, out.loop.windowSeconds);
        if (e.key == "suspiciousCallsPerTool") readInt(reader, e, p, 1, 100'000, out.loop.suspiciousCallsPerTool);
        if (e.key == "maxCallsPerTool") readInt(reader, e, p, 1, 100'000, out.loop.maxCallsPerTool);
      }
      if (out.loop.warnRepeats >= out.loop.stopRepeats)
        reader.error(loop, p,
                     "warnRepeats (" + std::to_string(out.loop.warnRepeats) + ") must be below stopRepeats (" +
                         std::to_string(out.loop.stopRepeats) + ")",
                     "a warning must come before the stop");
      if (out.loop.suspiciousCallsPerTool >= out.loop.maxCallsPerTool)
        reader.error(loop, p, "suspiciousCallsPerTool must be below maxCallsPerTool",
                     "the suspicion threshold must come before the hard stop");
    }
  }
  if (YAML::Node breaker = find(*entries, "breaker"); breaker.IsDefined()) {
    std::string p = childPath(path, "breaker");
    if (auto fields =
            reader.mapping(breaker, p, {"failures", "windowSeconds", "cooldownSeconds", "escalateAfterCycles"})) {
      for (const MapEntry& e : *fields) {
        if (e.key == "failures") readInt(reader, e, p, 1, 1000, out.breaker.failures);
        if (e.key == "windowSeconds") readInt(reader, e, p, 1, 86400, out.breaker.windowSeconds);
        if (e.key == "cooldownSeconds") readInt(reader, e, p, 1, 86400, out.breaker.cooldownSeconds);
        if (e.key == "escalateAfterCycles") readInt(reader, e, p, 1, 100, out.breaker.escalateAfterCycles);
      }
    }
  }
}

void readLimits(YamlSchemaReader& reader, const YAML::Node& node, const std::string& path, Limits& out,
                ResourceLimitsOverride& resources) {
  LimitsOverride o;
  readLimitsOverride(reader, node, path, o);
  resources = o.resources;
  if (o.wallTimeMs) out.wallTimeMs = *o.wallTimeMs;
  if (o.maxModelCalls) out.maxModelCalls = *o.maxModelCalls;
  if (o.maxToolCalls) out.maxToolCalls = *o.maxToolCalls;
  if (o.maxOutputBytes) out.maxOutputBytes = *o.maxOutputBytes;
}

void readLimitsOverride(YamlSchemaReader& reader, const YAML::Node& node, const std::string& path,
                        LimitsOverride& out) {
  auto entries = reader.mapping(node, path,
                                {"wallTimeMs", "maxModelCalls", "maxToolCalls", "maxOutputBytes", "pids", "memory",
                                 "fileSize", "openFiles", "cpuSeconds", "tmpSize"});
  if (!entries) return;
  out.resources.location = reader.locate(node, path);
  for (const MapEntry& e : *entries) {
    if (auto r = resourceLimitOfKey(e.key)) {
      fieldOf(out.resources, *r) = readResourceLimit(reader, e.value, childPath(path, e.key), *r);
      continue;
    }
    const LimitBound& b = boundOf(e.key);
    auto v = reader.integer(e.value, childPath(path, e.key), b.min, b.max);
    if (e.key == "wallTimeMs") out.wallTimeMs = v;
    if (e.key == "maxModelCalls") out.maxModelCalls = v;
    if (e.key == "maxToolCalls") out.maxToolCalls = v;
    if (e.key == "maxOutputBytes") out.maxOutputBytes = v;
  }
}

namespace {

// US dollars per million tokens: a plain decimal from 0 to 10000 (no
// YAML 1.1 .inf/.nan, no hex, nothing left over).
std::optional<double> readPrice(YamlSchemaReader& reader, const YAML::Node& n, const std::string& path) {
  if (n.IsScalar() && n.Tag() != "!" && !n.Scalar().empty() &&
      n.Scalar().find_first_not_of("0123456789.") == std::string::npos) {
    char* end = nullptr;
    double v = std::strtod(n.Scalar().c_str(), &end);
    if (end == n.Scalar().c_str() + n.Scalar().size() && v <= 10'000) return v;
  }
  reader.error(n, path, "this is not a price from 0 to 10000", "US dollars per million tokens, e.g. 0.40");
  return std::nullopt;
}

// The price keys of one lane as written.
struct LanePriceKeys {
  std::optional<double> both;  // pricePerMTok: the single price of earlier taskpacks
  std::optional<double> input, output;
};

// The lane's prices: the input and output prices, or the single
// pricePerMTok for both (taskpacks written before the two were apart).
// Mixing the two forms, or giving one side only, is a diagnostic: a cost
// estimated from half a price would be wrong without saying so.
std::optional<TokenPrices> lanePrices(YamlSchemaReader& reader, const YAML::Node& n, const std::string& path,
                                      const LanePriceKeys& k) {
  if (k.both && (k.input || k.output)) {
    reader.error(n, path, "gives pricePerMTok and inputPricePerMTok/outputPricePerMTok",
                 "give inputPricePerMTok and outputPricePerMTok (pricePerMTok is one price for both)");
    return std::nullopt;
  }
  if (k.both) return TokenPrices{*k.both, *k.both};
  if (k.input.has_value() != k.output.has_value()) {
    reader.error(n, path, std::string("gives ") + (k.input ? "inputPricePerMTok" : "outputPricePerMTok") + " alone",
                 "give both inputPricePerMTok and outputPricePerMTok, US dollars per million tokens");
    return std::nullopt;
  }
  if (k.input) return TokenPrices{*k.input, *k.output};
  return std::nullopt;
}

}  // namespace

void readLanes(YamlSchemaReader& reader, const YAML::Node& node, const std::string& path, std::vector<Lane>& out) {
  std::set<std::string> names;
  reader.sequence(node, path, 0, 16, [&](const YAML::Node& n, const std::string& p) {
    auto entries = reader.mapping(n, p,
                                  {"name", "api", "baseUrl", "model", "apiKeyEnv", "fallbackLane", "timeoutMs",
                                   "pricePerMTok", "inputPricePerMTok", "outputPricePerMTok"},
                                  {"name", "api", "baseUrl", "model", "apiKeyEnv"});
    if (!entries) return;
    Lane lane;
    LanePriceKeys price;
    lane.location = reader.locate(n, p);
    for (const MapEntry& e : *entries) {
      std::string fp = childPath(p, e.key);
      if (e.key == "name") {
        if (auto s = reader.name(e.value, fp)) {
          if (!names.insert(*s).second)
            reader.error(e.value, fp, "lane '" + *s + "' is defined twice", "lane names must be unique");
          lane.name = *s;
        }
      } else if (e.key == "api") {
        if (auto s = reader.oneOf(e.value, fp, {"openai-chat", "anthropic-messages"}))
          lane.api = *s == "openai-chat" ? LaneApi::OpenAiChat : LaneApi::AnthropicMessages;
      } else if (e.key == "baseUrl") {
        if (auto s = reader.string(e.value, fp, 2048)) {
          if (!isAllowedBaseUrl(*s))
            reader.error(e.value, fp, "'" + *s + "' is not an https:// URL",
                         "model traffic carries an API key: use https:// (plain http only to "
                         "localhost)");
          lane.baseUrl = *s;
        }
      } else if (e.key == "model") {
        if (auto s = reader.string(e.value, fp, 256)) lane.model = *s;
      } else if (e.key == "apiKeyEnv") {
        if (auto s = reader.string(e.value, fp, 128)) {
          if (!isEnvName(*s))
            reader.error(e.value, fp, "'" + *s + "' is not an environment variable name",
                         "use A-Z, 0-9 and '_', e.g. OPENAI_API_KEY");
          lane.apiKeyEnv = *s;
        }
      } else if (e.key == "fallbackLane") {
        lane.fallbackLane = reader.name(e.value, fp);
      } else if (e.key == "timeoutMs") {
        if (auto v = reader.integer(e.value, fp, 1000, 600'000)) lane.timeoutMs = *v;
      } else if (e.key == "pricePerMTok") {
        price.both = readPrice(reader, e.value, fp);
      } else if (e.key == "inputPricePerMTok") {
        price.input = readPrice(reader, e.value, fp);
      } else if (e.key == "outputPricePerMTok") {
        price.output = readPrice(reader, e.value, fp);
      }
    }
    lane.prices = lanePrices(reader, n, p, price);
    out.push_back(std::move(lane));
  });
}

}  // namespace lw
