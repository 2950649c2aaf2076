# datagen_bin.cmake — `chariot datagen --format bin` and `chariot
# datagen-convert` end to end (cmake -P): the binary file of a seed is the
# same bytes with 1 and 2 workers and holds the text run's positions, text ->
# binary -> text gives the same lines, a killed run continues to the same
# bytes as an unbroken one, the shards of a seed make up its run, and bad
# files or arguments exit non-zero with a message.
# Usage: cmake -DCHARIOT=<binary> -DWORK=<dir> [-DEMULATOR=...] -P datagen_bin.cmake
if(NOT CHARIOT OR NOT WORK)
  message(FATAL_ERROR "usage: cmake -DCHARIOT=<binary> -DWORK=<dir> -P datagen_bin.cmake")
endif()
file(REMOVE_RECURSE ${WORK})
file(MAKE_DIRECTORY ${WORK})

# Runs chariot with the given arguments; expects exit code `want`.
function(chariot want)
  execute_process(COMMAND ${EMULATOR} ${CHARIOT} ${ARGN} OUTPUT_VARIABLE out ERROR_VARIABLE err RESULT_VARIABLE rc)
  if(NOT rc STREQUAL "${want}")
    message(FATAL_ERROR "'chariot ${ARGN}': exit ${rc} (expected ${want}), stderr '${err}'")
  endif()
  set(last_err "${err}" PARENT_SCOPE)
endfunction()

function(same a b what)
  execute_process(COMMAND ${CMAKE_COMMAND} -E compare_files ${a} ${b} RESULT_VARIABLE rc)
  if(NOT rc EQUAL 0)
    message(FATAL_ERROR "${what}: ${a} and ${b} differ")
  endif()
endfunction()

set(run --nodes 300 --seed 21 --quiet)
chariot(0 datagen -o ${WORK}/a.bin --games 4 --concurrency 1 ${run})
chariot(0 datagen -o ${WORK}/b.dat --format bin --games 4 --concurrency 2 ${run})
same(${WORK}/a.bin ${WORK}/b.dat "1 and 2 workers")
chariot(0 datagen -o ${WORK}/a.txt --games 4 --concurrency 2 ${run})
file(STRINGS ${WORK}/a.txt text_lines)
list(LENGTH text_lines count)
if(count LESS 60)
  message(FATAL_ERROR "only ${count} positions from 4 games")
endif()

# Binary -> text equals the text run; text -> binary -> text is the identity.
chariot(0 datagen-convert ${WORK}/a.bin ${WORK}/a_from_bin.txt)
same(${WORK}/a.txt ${WORK}/a_from_bin.txt "binary run converted to text")
chariot(0 datagen-convert ${WORK}/a.txt ${WORK}/rt.bin)
chariot(0 datagen-convert ${WORK}/rt.bin ${WORK}/rt.txt)
same(${WORK}/a.txt ${WORK}/rt.txt "text -> bin -> text")
chariot(0 datagen-convert ${WORK}/rt.txt ${WORK}/rt2.dat --format bin)
same(${WORK}/rt.bin ${WORK}/rt2.dat "text -> bin twice")

# A killed run continues: a file holding the first games plus a torn write
# grows, by the same command, into the bytes of the unbroken run.
chariot(0 datagen -o ${WORK}/part.bin --games 2 --concurrency 1 ${run})
file(APPEND ${WORK}/part.bin "torn")
chariot(0 datagen -o ${WORK}/part.bin --games 4 --concurrency 2 --nodes 300 --seed 21)
if(NOT last_err MATCHES "unfinished write; cut" OR NOT last_err MATCHES "continuing after 2 games")
  message(FATAL_ERROR "continuing: stderr '${last_err}'")
endif()
same(${WORK}/a.bin ${WORK}/part.bin "a continued run")
# Without --seed the file's own seed is used.
chariot(0 datagen -o ${WORK}/part.bin --games 4 --concurrency 1 --nodes 300 --quiet)
same(${WORK}/a.bin ${WORK}/part.bin "a finished run run again")

# Shards of one seed: together the positions of the whole run.
chariot(0 datagen -o ${WORK}/s0.bin --games 4 --shard 0/2 --concurrency 1 ${run})
chariot(0 datagen -o ${WORK}/s1.bin --games 4 --shard 1/2 --concurrency 1 ${run})
chariot(0 datagen-convert ${WORK}/s0.bin ${WORK}/s1.bin ${WORK}/shards.txt)
file(STRINGS ${WORK}/shards.txt shard_lines)
list(SORT shard_lines)
set(sorted_text ${text_lines})
list(SORT sorted_text)
if(NOT shard_lines STREQUAL sorted_text)
  message(FATAL_ERROR "the shards 0/2 and 1/2 do not make up the run")
endif()

# Bad input: a clear message and a non-zero exit, never a crash.
chariot(2 datagen -o ${WORK}/a.bin --games 4 --nodes 700 --seed 21 --quiet)          # other settings
chariot(2 datagen -o ${WORK}/a.bin --games 4 --nodes 300 --seed 22 --quiet)          # other seed
chariot(2 datagen -o ${WORK}/a.txt --format bin --games 1 --quiet)                    # not binary
chariot(2 datagen -o ${WORK}/rt.bin --games 1 --nodes 300 --seed 21 --quiet)         # converted, not a run
chariot(2 datagen -o ${WORK}/x.bin --format binary)
chariot(2 datagen -o ${WORK}/x.bin --shard 2/2)
chariot(2 datagen-convert ${WORK}/a.txt)
chariot(2 datagen-convert ${WORK}/a.txt ${WORK}/a.txt)
chariot(1 datagen-convert ${WORK}/no_such_file.bin ${WORK}/x.txt)
file(WRITE ${WORK}/torn.txt "2bakr3/4an3/c3b4/p3p1p1p/1np6/6P2/P1r1P3P/2N3N1C/5R3/2BAKABR1 w - - 2 10 | 0.5 | -76\n2bakr3/4an3/c3b4/p3p1")
chariot(1 datagen-convert ${WORK}/torn.txt ${WORK}/torn.bin)
if(NOT last_err MATCHES "torn.txt:2:" OR EXISTS ${WORK}/torn.bin)
  message(FATAL_ERROR "a torn line: stderr '${last_err}'")
endif()
message(STATUS "datagen --format bin: ${count} positions; conversions, continuation, shards and bad input OK")
