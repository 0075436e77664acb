// Typed access to fields of a Boost.JSON document for the adapters in this
// module. A missing or mistyped field throws FieldError with its JSON path;
// each adapter catches it and turns it into an lw::Error, so nothing outside
// src/github sees the exception.
#pragma once

#include <cstdint>
#include <optional>
#include <stdexcept>
#include <string>
#include <string_view>

#include <boost/json/value.hpp>

namespace lw::json_fields {

struct FieldError : std::runtime_error {
  FieldError(std::string path, const std::string& what) : std::runtime_error(what), path(std::move(path)) {}
  std::string path;  // "pull_request.head.sha"
};

// "a.b" + "c" -> "a.b.c"; "" + "c" -> "c"; "a" + "[2]" -> "a[2]".
std::string join(const std::string& path, const std::string& key);

const boost::json::object& object(const boost::json::value& v, const std::string& path);
const boost::json::array& array(const boost::json::value& v, const std::string& path);

// Required fields: throw when missing or of another type.
const boost::json::value& field(const boost::json::object& o, const std::string& key, const std::string& path);
std::string str(const boost::json::object& o, const std::string& key, const std::string& path);
std::int64_t integer(const boost::json::object& o, const std::string& key, const std::string& path);
bool boolean(const boost::json::object& o, const std::string& key, const std::string& path);

// Optional fields: nullopt when missing or null; throw when of another type.
std::optional<std::string> optStr(const boost::json::object& o, const std::string& key, const std::string& path);
std::optional<std::int64_t> optInt(const boost::json::object& o, const std::string& key, const std::string& path);
std::optional<bool> optBool(const boost::json::object& o, const std::string& key, const std::string& path);
const boost::json::object* optObject(const boost::json::object& o, const std::string& key, const std::string& path);
const boost::json::array* optArray(const boost::json::object& o, const std::string& key, const std::string& path);

// Lenient reads, for the items of a GitHub listing where an entry that
// lacks a field is not ours to judge (a deleted user's comment has
// "user": null): nullopt when `v` is not an object or the field is missing,
// null or of another type. Never throw.
std::optional<std::string> peekStr(const boost::json::value& v, std::string_view key);
// An integer that fits std::int64_t, as integer() reads it.
std::optional<std::int64_t> peekInt(const boost::json::value& v, std::string_view key);
// The member `key` of `v`, or a null value: peekStr(peekMember(c, "user"), "login").
const boost::json::value& peekMember(const boost::json::value& v, std::string_view key);
// The same with what a missing field reads as: "" and 0.
std::string textOf(const boost::json::value& v, std::string_view key);
std::int64_t idOf(const boost::json::value& v);  // its "id"
// The login of an item's "user" ("" for a deleted user's).
std::string loginOf(const boost::json::value& item);

}  // namespace lw::json_fields
