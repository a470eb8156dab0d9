# SPDX-License-Identifier: Apache-2.0
# glassbox cmin: one target written for the tests (cmin_target.c), built
# twice: glassbox-cc --mode=cov (glassbox_add_target) and afl-clang-fast,
# the build afl-cmin and afl-showmap compare against. Each test is one part
# of tests/triage/cmin.sh. afl-cmin refuses to work under /tmp, so the
# tests' scratch dirs live in the build tree.
find_program(GB_AFL_CLANG_FAST afl-clang-fast)
set(GB_CMIN_T ${CMAKE_CURRENT_SOURCE_DIR}/cmin_target.c)
glassbox_add_target(cmin_target SOURCES ${GB_CMIN_T} FLAGS -O1 -g)
if(GB_AFL_CLANG_FAST)
  add_custom_command(OUTPUT ${CMAKE_CURRENT_BINARY_DIR}/cmin_target.afl
    COMMAND ${CMAKE_COMMAND} -E env AFL_QUIET=1 ${GB_AFL_CLANG_FAST} -O1 -g ${GB_CMIN_T}
            -o ${CMAKE_CURRENT_BINARY_DIR}/cmin_target.afl
    DEPENDS ${GB_CMIN_T} VERBATIM)
  add_custom_target(cmin_target_afl ALL DEPENDS ${CMAKE_CURRENT_BINARY_DIR}/cmin_target.afl)
endif()
set(GB_CMIN_WORK ${CMAKE_CURRENT_BINARY_DIR}/cmin-work)
file(MAKE_DIRECTORY ${GB_CMIN_WORK})
foreach(part coverage vs_afl verify inputs usage)
  add_test(NAME triage.cmin.${part}
    COMMAND ${CMAKE_CURRENT_SOURCE_DIR}/cmin.sh ${CMAKE_BINARY_DIR} ${CMAKE_SOURCE_DIR} ${part})
  set_tests_properties(triage.cmin.${part} PROPERTIES TIMEOUT 60
    ENVIRONMENT "TMPDIR=${GB_CMIN_WORK};GB_CMIN_T=${CMAKE_CURRENT_BINARY_DIR}/cmin_target")
endforeach()
