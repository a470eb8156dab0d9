# SPDX-License-Identifier: Apache-2.0
# Packs objects linked into targets as one relocatable object whose only
# global definitions are the names that must be: a static link does not
# honour hidden visibility, so a hidden `rt` clashes with a target's `rt`.
#
# cmake -DLD= -DOBJCOPY= -DNM= -DINPUTS=a.o;b.o -DMERGED=m.o -DOUTPUT=o.o
#       -DKEEP=REGEX [-DFOREIGN=1] -P rt_pack.cmake
#   MERGED  `ld -r` of INPUTS, before localisation (tests read its names)
#   OUTPUT  MERGED with every hidden symbol made local
#   KEEP    the defined global names OUTPUT may keep (anchored regex)
#   FOREIGN the objects are not ours (AFL++'s runtime: default visibility
#           throughout), so globals outside KEEP are localised by name
#           instead of failing the build.
foreach(v LD OBJCOPY NM INPUTS MERGED OUTPUT KEEP)
  if(NOT DEFINED ${v} OR "${${v}}" STREQUAL "")
    message(FATAL_ERROR "rt_pack.cmake: ${v} is not set")
  endif()
endforeach()

function(run)
  execute_process(COMMAND ${ARGN} RESULT_VARIABLE rc ERROR_VARIABLE err)
  if(NOT rc EQUAL 0)
    list(JOIN ARGN " " cmd)
    message(FATAL_ERROR "rt_pack.cmake: `${cmd}` failed (${rc}): ${err}")
  endif()
endfunction()

# Defined global (and weak) symbols of `obj` outside KEEP, into `out_var`.
function(stray_globals obj out_var)
  execute_process(COMMAND ${NM} -g --defined-only ${obj} OUTPUT_VARIABLE syms
                  RESULT_VARIABLE rc)
  if(NOT rc EQUAL 0)
    message(FATAL_ERROR "rt_pack.cmake: ${NM} failed on ${obj}")
  endif()
  string(REPLACE "\n" ";" lines "${syms}")
  set(stray "")
  foreach(line ${lines})
    # "ADDRESS TYPE NAME"; the name is the last field.
    if(line MATCHES "^[0-9a-fA-F]* +[A-Za-z] +([^ ]+)$")
      set(name ${CMAKE_MATCH_1})
      if(NOT name MATCHES "${KEEP}")
        list(APPEND stray ${name})
      endif()
    endif()
  endforeach()
  set(${out_var} "${stray}" PARENT_SCOPE)
endfunction()

run(${LD} -r -o ${MERGED} ${INPUTS})
run(${OBJCOPY} --localize-hidden ${MERGED} ${OUTPUT})
stray_globals(${OUTPUT} stray)
if(stray AND FOREIGN)
  set(flags "")
  foreach(name ${stray})
    list(APPEND flags --localize-symbol=${name})
  endforeach()
  run(${OBJCOPY} ${flags} ${OUTPUT})
  stray_globals(${OUTPUT} stray)
endif()
if(stray)
  file(REMOVE ${OUTPUT})
  list(JOIN stray " " names)
  message(FATAL_ERROR "rt_pack.cmake: ${OUTPUT} would export ${names}: a target may define "
          "these names too. Give them hidden visibility (static, or RT_HIDDEN in "
          "tracer/rt/rt_int.h) or a __gb_ name.")
endif()
