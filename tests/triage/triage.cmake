# SPDX-License-Identifier: Apache-2.0
# Crash analysis, triage and replay (tests/triage/triage_* and replay_*):
# the planted bugs of bugs/bugs.c built the way `glassbox build` makes
# NAME.asan (ASan + UBSan with Glassbox's file-reading main), and once more
# with AFL++'s runtime linked in so the runner drives it through a
# forkserver.
set(GB_TRIAGE_WORK ${CMAKE_CURRENT_BINARY_DIR}/triage-work)
file(MAKE_DIRECTORY ${GB_TRIAGE_WORK})
set(GB_BUGS_SRC ${CMAKE_CURRENT_SOURCE_DIR}/bugs/bugs.c)
set(GB_BUGS_ASAN ${CMAKE_CURRENT_BINARY_DIR}/bugs.asan)
set(GB_BUGS_AFL ${CMAKE_CURRENT_BINARY_DIR}/bugs.afl-asan)
set(GB_RT_COV ${CMAKE_BINARY_DIR}/lib/libgb_rt_cov.a)
add_custom_command(OUTPUT ${GB_BUGS_ASAN}
  COMMAND ${GB_CLANG} -O1 -g -fsanitize=address,undefined ${GB_BUGS_SRC} ${GB_RT_COV}
          -o ${GB_BUGS_ASAN}
  DEPENDS ${GB_BUGS_SRC} gb_runtimes
  COMMENT "Building the planted bugs with ASan and UBSan")
add_custom_command(OUTPUT ${GB_BUGS_AFL}
  COMMAND ${GB_CLANG} -O1 -g -fsanitize=address,undefined ${GB_BUGS_SRC} ${GB_RT_COV}
          ${GB_AFL_RT} -o ${GB_BUGS_AFL}
  DEPENDS ${GB_BUGS_SRC} gb_runtimes ${GB_AFL_RT}
  COMMENT "Building the planted bugs with ASan, UBSan and AFL++'s forkserver")
# And as glassbox build's NAME.lf: libFuzzer's own main and driver.
set(GB_BUGS_LF ${CMAKE_CURRENT_BINARY_DIR}/bugs.lf)
add_custom_command(OUTPUT ${GB_BUGS_LF}
  COMMAND ${GB_CLANG} -O1 -g -fsanitize=fuzzer,address ${GB_BUGS_SRC} -o ${GB_BUGS_LF}
  DEPENDS ${GB_BUGS_SRC}
  COMMENT "Building the planted bugs with libFuzzer and ASan")
add_custom_target(gb_triage_bugs ALL DEPENDS ${GB_BUGS_ASAN} ${GB_BUGS_AFL} ${GB_BUGS_LF})

add_executable(triage_crash triage_crash.c)
target_link_libraries(triage_crash PRIVATE gb_triage)
add_dependencies(triage_crash gb_triage_bugs)
add_test(NAME triage.crash COMMAND triage_crash ${GB_BUGS_ASAN} ${GB_BUGS_AFL} ${GB_TRIAGE_WORK}/crash
         ${GB_BUGS_LF})
set_tests_properties(triage.crash PROPERTIES TIMEOUT 60)

# The same bugs without any sanitizer: triage tells them apart by signal.
set(GB_BUGS_PLAIN ${CMAKE_CURRENT_BINARY_DIR}/bugs.plain)
add_custom_command(OUTPUT ${GB_BUGS_PLAIN}
  COMMAND ${GB_CLANG} -O1 -g ${GB_BUGS_SRC} ${GB_RT_COV} -o ${GB_BUGS_PLAIN}
  DEPENDS ${GB_BUGS_SRC} gb_runtimes
  COMMENT "Building the planted bugs without sanitizers")
add_custom_target(gb_triage_bugs_plain ALL DEPENDS ${GB_BUGS_PLAIN})

# glassbox triage end to end; installs the SARIF validator into
# build/npm on first use (npm must reach its registry: else it fails).
add_test(NAME triage.triage COMMAND ${CMAKE_CURRENT_SOURCE_DIR}/triage_e2e.sh ${CMAKE_BINARY_DIR}
         ${GB_BUGS_ASAN} ${GB_BUGS_AFL} ${GB_BUGS_PLAIN})
set_tests_properties(triage.triage PROPERTIES TIMEOUT 300)
add_test(NAME triage.replay COMMAND ${CMAKE_CURRENT_SOURCE_DIR}/replay_e2e.sh ${CMAKE_BINARY_DIR}
         ${GB_BUGS_ASAN})
set_tests_properties(triage.replay PROPERTIES TIMEOUT 60)

# Issue 34's holes (tests/triage/holes.sh), one test per part: symlinks in
# a report dir, damaged .seen and crash.json, JSON that must stay UTF-8,
# repro.sh with a '"' in the binary's name, names escaped on the
# terminal, and the outputs tmin and cmin refuse.
foreach(part symlinks seen crashjson utf8 repro escape tmin cmin)
  add_test(NAME triage.holes.${part}
    COMMAND ${CMAKE_CURRENT_SOURCE_DIR}/holes.sh ${CMAKE_BINARY_DIR} ${GB_BUGS_ASAN} ${part})
  set_tests_properties(triage.holes.${part} PROPERTIES TIMEOUT 180
    ENVIRONMENT "GB_CMIN_T=${CMAKE_CURRENT_BINARY_DIR}/cmin_target")
endforeach()

# Issue 38's ground truth: truth/truth.c's seven known bugs, built as
# glassbox build's NAME.asan is but at -O0 and at -O2 (inlining and other
# optimisations change the stacks): one bucket per bug on both.
set(GB_TRUTH_SRC ${CMAKE_CURRENT_SOURCE_DIR}/truth/truth.c)
foreach(opt O0 O2)
  set(GB_TRUTH_${opt} ${CMAKE_CURRENT_BINARY_DIR}/truth-${opt}.asan)
  add_custom_command(OUTPUT ${GB_TRUTH_${opt}}
    COMMAND ${GB_CLANG} -${opt} -g -fsanitize=address,undefined ${GB_TRUTH_SRC} ${GB_RT_COV}
            -o ${GB_TRUTH_${opt}}
    DEPENDS ${GB_TRUTH_SRC} gb_runtimes
    COMMENT "Building the triage ground truth at -${opt} with ASan and UBSan")
endforeach()
add_custom_target(gb_triage_truth ALL DEPENDS ${GB_TRUTH_O0} ${GB_TRUTH_O2})
add_test(NAME triage.truth COMMAND ${CMAKE_CURRENT_SOURCE_DIR}/truth_test.sh ${CMAKE_BINARY_DIR}
         ${GB_TRUTH_O0} ${GB_TRUTH_O2})
set_tests_properties(triage.truth PROPERTIES TIMEOUT 300)
# bench/magma/triage.sh's account of splits and merges, on a made-up Magma
# build around the ground truth.
add_test(NAME triage.magma COMMAND ${CMAKE_CURRENT_SOURCE_DIR}/magma_triage.sh ${CMAKE_BINARY_DIR}
         ${PROJECT_SOURCE_DIR} ${GB_TRUTH_O0})
set_tests_properties(triage.magma PROPERTIES TIMEOUT 120)
