# Writes OUT: every SCHEMA_DIR/<name>.schema.json as a C++ string literal
# lw::schemas::<name>, and lw::schemas::kAll naming each with its file, so
# that an installed binary needs no source tree and the schemas have one
# copy (schemas/). Run at build time: cmake -DSCHEMA_DIR=… -DOUT=… -P this.
file(GLOB files "${SCHEMA_DIR}/*.schema.json")
list(SORT files)
set(delimiter "lwschema")
set(literals "")
set(table "")
foreach(path IN LISTS files)
  get_filename_component(file "${path}" NAME)
  string(REGEX REPLACE "\\.schema\\.json$" "" name "${file}")
  if(NOT name MATCHES "^[a-z][a-z0-9_]*$")
    message(FATAL_ERROR "${path}: the name before .schema.json must be a C++ identifier in lower case")
  endif()
  file(READ "${path}" text)
  string(FIND "${text}" ")${delimiter}\"" clash)
  if(NOT clash EQUAL -1)
    message(FATAL_ERROR "${path}: contains the literal's delimiter )${delimiter}\"")
  endif()
  string(APPEND literals "// ${file}\ninline constexpr std::string_view ${name} = R\"${delimiter}(${text})${delimiter}\";\n\n")
  string(APPEND table "    {\"${file}\", ${name}},\n")
endforeach()
set(header "// Generated from schemas/*.schema.json by cmake/embed_schemas.cmake: edit the\n// schemas, not this file.\n#pragma once\n\n#include <string_view>\n\nnamespace lw::schemas {\n\n${literals}struct Embedded {\n  std::string_view file;  // its name in schemas/\n  std::string_view text;  // its bytes\n};\n\ninline constexpr Embedded kAll[] = {\n${table}};\n\n}  // namespace lw::schemas\n")
# Rewritten only when different, so that what includes it is not rebuilt
# for nothing.
if(EXISTS "${OUT}")
  file(READ "${OUT}" old)
  if(old STREQUAL header)
    return()
  endif()
endif()
file(WRITE "${OUT}" "${header}")
