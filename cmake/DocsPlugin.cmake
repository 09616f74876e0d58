# docs_add_plugin(<name> SOURCES ... [MIGRATIONS dir]) builds a loadable docsd plugin:
# a MODULE library named <name>.so with hidden symbols (only the manifest is exported),
# linked to docs::core. Migrations (*.sql named NNNN_title.sql) are embedded in the plugin;
# the plugin includes "<name>_migrations.hpp" and calls
# docs_plugin_<name>::registerMigrations(registry) from configure().
function(docs_add_plugin name)
  cmake_parse_arguments(PLUGIN "" "MIGRATIONS;OUTPUT_DIRECTORY" "SOURCES;LIBRARIES" ${ARGN})
  set(target docs_plugin_${name})
  set(sources ${PLUGIN_SOURCES})
  if(PLUGIN_MIGRATIONS)
    file(GLOB migration_files CONFIGURE_DEPENDS ${PLUGIN_MIGRATIONS}/*.sql)
    list(SORT migration_files)
    set(generated ${CMAKE_CURRENT_BINARY_DIR}/${name}_migrations.cpp)
    set(generated_header ${CMAKE_CURRENT_BINARY_DIR}/${name}_migrations.hpp)
    # The header: what the plugin includes to declare its migrations in configure().
    file(GENERATE OUTPUT ${generated_header} CONTENT "// Generated from ${PLUGIN_MIGRATIONS}; do not edit.\n#pragma once\n#include <vector>\n#include <docs/registry.hpp>\nnamespace docs_plugin_${name} {\nstruct EmbeddedMigration { int version; const char* name; const char* sql; };\nconst std::vector<EmbeddedMigration>& embeddedMigrations();\n// Declares every embedded migration (call it from configure()).\ninline void registerMigrations(docs::Registry& registry) {\n  for (const auto& m : embeddedMigrations()) registry.migration(m.version, m.name, m.sql);\n}\n}  // namespace docs_plugin_${name}\n")
    set(body "// Generated from ${PLUGIN_MIGRATIONS}; do not edit.\n#include \"${name}_migrations.hpp\"\nnamespace docs_plugin_${name} {\nconst std::vector<EmbeddedMigration>& embeddedMigrations() {\n  static const std::vector<EmbeddedMigration> list = {\n")
    foreach(file ${migration_files})
      get_filename_component(base ${file} NAME_WE)
      string(REGEX MATCH "^[0-9]+" version "${base}")
      string(REGEX REPLACE "^[0-9]+_" "" title "${base}")
      math(EXPR version "${version} + 0")
      file(READ ${file} sql)
      string(APPEND body "    {${version}, \"${title}\", R\"docs_sql(${sql})docs_sql\"},\n")
    endforeach()
    string(APPEND body "  };\n  return list;\n}\n}  // namespace docs_plugin_${name}\n")
    file(GENERATE OUTPUT ${generated} CONTENT "${body}")
    set_property(DIRECTORY APPEND PROPERTY CMAKE_CONFIGURE_DEPENDS ${migration_files})
    list(APPEND sources ${generated})
  endif()
  add_library(${target} MODULE ${sources})
  set_property(GLOBAL APPEND PROPERTY DOCS_PLUGIN_TARGETS ${target})
  target_link_libraries(${target} PRIVATE docs::core ${PLUGIN_LIBRARIES})
  target_include_directories(${target} PRIVATE ${CMAKE_CURRENT_BINARY_DIR})
  set(output_dir ${PLUGIN_OUTPUT_DIRECTORY})
  if(NOT output_dir)
    if(DEFINED DOCS_PLUGIN_OUTPUT_DIR)
      set(output_dir ${DOCS_PLUGIN_OUTPUT_DIR})
    else()
      set(output_dir ${CMAKE_BINARY_DIR}/plugins)
    endif()
  endif()
  set_target_properties(${target} PROPERTIES
    PREFIX "" OUTPUT_NAME ${name}
    LIBRARY_OUTPUT_DIRECTORY ${output_dir}
    CXX_VISIBILITY_PRESET hidden VISIBILITY_INLINES_HIDDEN ON
    CXX_STANDARD 20 CXX_STANDARD_REQUIRED ON)
endfunction()
