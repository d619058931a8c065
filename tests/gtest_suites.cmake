# Script mode (cmake -P), run after a gtest executable links: lists its tests and writes one ctest test per
# test suite (`ctest -R Suite` still selects it; --output-on-failure names the failing test case).
# One process per suite instead of one per test case: with the sanitizers each process start costs
# 0.3-1 s, which was most of the unit tests' time when ctest ran 1777 processes (docs/building.md).
# Inputs: EXECUTABLE, OUTPUT (the file ctest includes), WORKING_DIRECTORY, LABEL, TIMEOUT (seconds a suite).
foreach(input EXECUTABLE OUTPUT WORKING_DIRECTORY LABEL TIMEOUT)
  if(NOT DEFINED ${input})
    message(FATAL_ERROR "gtest_suites.cmake: ${input} not given")
  endif()
endforeach()
execute_process(COMMAND "${EXECUTABLE}" --gtest_list_tests WORKING_DIRECTORY "${WORKING_DIRECTORY}"
                OUTPUT_VARIABLE listing ERROR_VARIABLE listing_errors RESULT_VARIABLE listed TIMEOUT 60)
if(NOT listed EQUAL 0)
  message(FATAL_ERROR "gtest_suites.cmake: ${EXECUTABLE} --gtest_list_tests failed (${listed}):\n${listing_errors}")
endif()
# A suite's line is its name and a dot, maybe followed by a type parameter comment; test cases are indented.
string(REGEX MATCHALL "(^|\n)[A-Za-z0-9_/]+\\.[ \n]" suite_lines "${listing}\n")
set(text "# Written by tests/gtest_suites.cmake from ${EXECUTABLE} --gtest_list_tests.\n")
set(count 0)
foreach(line IN LISTS suite_lines)
  string(REGEX REPLACE "^\n?([A-Za-z0-9_/]+)\\.[ \n]$" "\\1" suite "${line}")
  if(suite MATCHES "(^|/)DISABLED_")
    continue()
  endif()
  string(APPEND text "add_test([==[${suite}]==] \"${EXECUTABLE}\" \"--gtest_filter=${suite}.*\")\n"
         "set_tests_properties([==[${suite}]==] PROPERTIES LABELS ${LABEL} TIMEOUT ${TIMEOUT} "
         "WORKING_DIRECTORY \"${WORKING_DIRECTORY}\")\n")
  math(EXPR count "${count} + 1")
endforeach()
if(count EQUAL 0)
  message(FATAL_ERROR "gtest_suites.cmake: no test suite listed by ${EXECUTABLE}")
endif()
file(WRITE "${OUTPUT}" "${text}")
