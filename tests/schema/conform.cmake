# One schema file against its released copy (ctest schema_conforms_NAME).
#   cmake -DFLATC=... -DSCHEMA_DIR=.../schema -DNAME=dog -P conform.cmake
# Fails when schema/released/NAME.fbs is missing (a schema file that was never
# released must be copied there when it is), and when `flatc --conform` finds
# the current schema is not an evolution of the released one (a field
# removed, renamed, retyped or moved; an enum value changed).
foreach(v FLATC SCHEMA_DIR NAME)
  if(NOT DEFINED ${v})
    message(FATAL_ERROR "conform.cmake: -D${v}=... is required")
  endif()
endforeach()
set(current "${SCHEMA_DIR}/${NAME}.fbs")
set(released "${SCHEMA_DIR}/released/${NAME}.fbs")
if(NOT EXISTS "${current}")
  message(FATAL_ERROR "schema/${NAME}.fbs is gone, but schema/released/${NAME}.fbs was released: "
                      "a released schema file is never removed (databases written with it must still read)")
endif()
if(NOT EXISTS "${released}")
  message(FATAL_ERROR "schema/${NAME}.fbs has no released copy: schema/released/${NAME}.fbs is missing. "
                      "Every schema file is checked against its released copy; copy schema/${NAME}.fbs to "
                      "schema/released/ (and commit it) when the release that introduces it is made")
endif()
execute_process(
  COMMAND "${FLATC}" --conform "${released}" -I "${SCHEMA_DIR}/released" "${current}"
  WORKING_DIRECTORY "${SCHEMA_DIR}"
  RESULT_VARIABLE rc
  OUTPUT_VARIABLE out
  ERROR_VARIABLE err)
if(NOT rc EQUAL 0 OR NOT "${out}${err}" STREQUAL "")
  message(FATAL_ERROR "schema/${NAME}.fbs is not an evolution of schema/released/${NAME}.fbs "
                      "(only additions at the end of a table or enum; nothing renamed, retyped or removed):\n"
                      "${out}${err}")
endif()
message(STATUS "schema/${NAME}.fbs conforms to schema/released/${NAME}.fbs")
