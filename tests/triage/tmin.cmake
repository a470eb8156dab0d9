# SPDX-License-Identifier: Apache-2.0
# tmin: the engine on synthetic predicates (tmin_unit.c), and glassbox tmin
# on a target written for it (tmin_target.c: a header, an offset, a
# checksummed record, junk), built three ways: afl-clang-fast (coverage
# mode, compared with afl-tmin and checked with afl-showmap),
# afl-clang-fast with ASan (crash mode) and glassbox-cc (--trace); and the
# demo harness's planted bug (examples/crash.gbox on demo.cov).
find_program(GB_AFL_CLANG_FAST afl-clang-fast REQUIRED)
set(GB_TMIN_T ${CMAKE_CURRENT_BINARY_DIR}/tmin_target)
add_custom_command(OUTPUT ${GB_TMIN_T}.afl ${GB_TMIN_T}.asan
  COMMAND ${CMAKE_COMMAND} -E env AFL_QUIET=1
          ${GB_AFL_CLANG_FAST} -O1 -g ${CMAKE_CURRENT_SOURCE_DIR}/tmin_target.c -o ${GB_TMIN_T}.afl
  COMMAND ${CMAKE_COMMAND} -E env AFL_QUIET=1 AFL_USE_ASAN=1
          ${GB_AFL_CLANG_FAST} -O1 -g ${CMAKE_CURRENT_SOURCE_DIR}/tmin_target.c -o ${GB_TMIN_T}.asan
  DEPENDS ${CMAKE_CURRENT_SOURCE_DIR}/tmin_target.c
  COMMENT "Building tmin_target with afl-clang-fast (plain and ASan)" VERBATIM)
add_custom_target(tmin_target_afl ALL DEPENDS ${GB_TMIN_T}.afl ${GB_TMIN_T}.asan)
glassbox_add_target(tmin_target SOURCES ${CMAKE_CURRENT_SOURCE_DIR}/tmin_target.c FLAGS -O1 -g)

add_executable(test_tmin tmin_unit.c)
target_link_libraries(test_tmin PRIVATE gb_triage)
# The crash predicates run on triage.cmake's planted-bug build (AFL++'s
# forkserver, ASan, UBSan).
add_dependencies(test_tmin gb_triage_bugs)
file(MAKE_DIRECTORY ${CMAKE_CURRENT_BINARY_DIR}/tmin-work)
add_test(NAME triage.tmin.unit
  COMMAND test_tmin ${CMAKE_CURRENT_BINARY_DIR}/bugs.afl-asan ${CMAKE_CURRENT_BINARY_DIR}/tmin-work)

foreach(t coverage trace crash samebug demo interrupt errors)
  add_test(NAME triage.tmin.${t}
    COMMAND ${CMAKE_CURRENT_SOURCE_DIR}/tmin_test.sh ${CMAKE_BINARY_DIR} ${CMAKE_SOURCE_DIR} ${t}
            ${GB_TMIN_T})
  # samebug uses triage.cmake's planted-bug build: 77 = skipped when it is not built.
  set_tests_properties(triage.tmin.${t} PROPERTIES TIMEOUT 60 SKIP_RETURN_CODE 77)
endforeach()
