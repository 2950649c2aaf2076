# datagen_repro.cmake — `chariot datagen` end to end (cmake -P): the same
# seed gives the same positions with 1 and 2 workers, every line has the
# documented "FEN | RESULT | SCORE" form, a torn last line (a killed run) is
# cut before appending, endgame-table starts give endgame positions, and bad
# arguments exit 2 with a message.
# Usage: cmake -DCHARIOT=<binary> -DWORK=<dir> [-DEMULATOR=...] -P datagen_repro.cmake
if(NOT CHARIOT OR NOT WORK)
  message(FATAL_ERROR "usage: cmake -DCHARIOT=<binary> -DWORK=<dir> -P datagen_repro.cmake")
endif()
file(MAKE_DIRECTORY ${WORK})

function(datagen file conc)
  file(REMOVE ${file})
  execute_process(COMMAND ${EMULATOR} ${CHARIOT} datagen -o ${file} --games 6 --nodes 800 --seed 11
                          --concurrency ${conc} --quiet
                  OUTPUT_VARIABLE out ERROR_VARIABLE err RESULT_VARIABLE rc)
  if(NOT rc EQUAL 0)
    message(FATAL_ERROR "chariot datagen failed (${rc}): ${err}")
  endif()
endfunction()

function(sorted_lines file out_var)
  file(STRINGS ${file} lines)
  list(SORT lines)
  set(${out_var} "${lines}" PARENT_SCOPE)
endfunction()

datagen(${WORK}/dg_a.txt 1)
datagen(${WORK}/dg_b.txt 2)
sorted_lines(${WORK}/dg_a.txt a)
sorted_lines(${WORK}/dg_b.txt b)
list(LENGTH a count)
if(count LESS 50)
  message(FATAL_ERROR "only ${count} positions from 6 games")
endif()
if(NOT a STREQUAL b)
  message(FATAL_ERROR "the same seed gave different positions with 1 and 2 workers")
endif()
foreach(line IN LISTS a)
  if(NOT line MATCHES "^[1-9rnbakcpRNBAKCP/]+ [wb] - - [0-9]+ [0-9]+ \\| (1|0|0\\.5) \\| -?[0-9]+$")
    message(FATAL_ERROR "malformed line: '${line}'")
  endif()
endforeach()

# A torn last line is cut, then whole games are appended.
file(APPEND ${WORK}/dg_a.txt "2bakr3/4an3/c3b4/p3p1")
execute_process(COMMAND ${EMULATOR} ${CHARIOT} datagen -o ${WORK}/dg_a.txt --games 1 --nodes 500 --seed 12
                        --concurrency 1 --quiet
                OUTPUT_VARIABLE out ERROR_VARIABLE err RESULT_VARIABLE rc)
if(NOT rc EQUAL 0 OR NOT err MATCHES "torn line")
  message(FATAL_ERROR "append after a torn line: rc ${rc}, '${err}'")
endif()
file(STRINGS ${WORK}/dg_a.txt appended)
list(LENGTH appended count2)
if(count2 LESS_EQUAL count)
  message(FATAL_ERROR "nothing appended (${count} -> ${count2} lines)")
endif()
foreach(line IN LISTS appended)
  if(NOT line MATCHES "\\| -?[0-9]+$")
    message(FATAL_ERROR "malformed line after append: '${line}'")
  endif()
endforeach()

# Endgame-table starts: games begin with little material (no opening
# position has fewer than 20 pieces), and the start is used from ply 0.
file(REMOVE ${WORK}/dg_eg.txt)
execute_process(COMMAND ${EMULATOR} ${CHARIOT} datagen -o ${WORK}/dg_eg.txt --endgame-starts --games 4 --nodes 500
                        --seed 5 --concurrency 1 --quiet
                OUTPUT_VARIABLE out ERROR_VARIABLE err RESULT_VARIABLE rc)
if(NOT rc EQUAL 0)
  message(FATAL_ERROR "chariot datagen --endgame-starts failed (${rc}): ${err}")
endif()
file(STRINGS ${WORK}/dg_eg.txt eg_lines)
list(LENGTH eg_lines eg_count)
if(eg_count LESS 4)
  message(FATAL_ERROR "--endgame-starts: only ${eg_count} positions from 4 games")
endif()
foreach(line IN LISTS eg_lines)
  string(REGEX REPLACE " .*" "" placement "${line}")
  string(REGEX REPLACE "[^rnbakcpRNBAKCP]" "" pieces "${placement}")
  string(LENGTH "${pieces}" npieces)
  if(npieces GREATER 16 OR NOT line MATCHES "\\| (1|0|0\\.5) \\| -?[0-9]+$")
    message(FATAL_ERROR "--endgame-starts: not an endgame line: '${line}'")
  endif()
endforeach()

# Bad input: exit 2 and say why.
foreach(args "datagen" "datagen -o ${WORK}/x.txt --nodes 0" "datagen -o ${WORK}/x.txt --bogus"
             "datagen -o ${WORK}/x.txt --openings ${WORK}/no_such_file.fen")
  separate_arguments(argv UNIX_COMMAND "${args}")
  execute_process(COMMAND ${EMULATOR} ${CHARIOT} ${argv} OUTPUT_VARIABLE out ERROR_VARIABLE err RESULT_VARIABLE rc)
  if(NOT rc EQUAL 2 OR NOT err MATCHES "datagen: ")
    message(FATAL_ERROR "'chariot ${args}': rc ${rc}, stderr '${err}'")
  endif()
endforeach()
message(STATUS "datagen: ${count} positions, identical with 1 and 2 workers; append and bad input OK")
