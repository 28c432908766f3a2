# conformance.cmake - included by ctest when it starts (tests/CMakeLists.txt): one entry
# test_conformance_<id> for every game `pilfer games --json` lists, running the suite over that
# game alone. PILFER and SUITE are the two programs' paths.
execute_process(COMMAND "${PILFER}" games --json OUTPUT_VARIABLE games RESULT_VARIABLE rc ERROR_QUIET)
if(NOT rc EQUAL 0)
  # Not built (or broken): an entry that fails, saying so, rather than no entries at all.
  add_test(test_conformance_registry "${PILFER}" games --json)
  set_tests_properties(test_conformance_registry PROPERTIES LABELS game)
  return()
endif()
string(JSON n LENGTH "${games}")
math(EXPR last "${n} - 1")
foreach(i RANGE ${last})
  string(JSON id GET "${games}" ${i} id)
  add_test(test_conformance_${id} "${SUITE}" ${id})
  # Thief's suite took 15.5 minutes under ASan+UBSan on a fresh 2-core machine, close to ctest's
  # default limit of 25: an hour leaves room for a slower one.
  set_tests_properties(test_conformance_${id} PROPERTIES TIMEOUT 3600 LABELS game)
endforeach()
