# search_bench_repro.cmake — runs `chariot bench DEPTH` twice (cmake -P) and
# fails unless both runs print the same per-position node counts and total.
# Usage: cmake -DCHARIOT=<binary> -DDEPTH=<n> -P search_bench_repro.cmake
if(NOT CHARIOT OR NOT DEPTH)
  message(FATAL_ERROR "usage: cmake -DCHARIOT=<binary> -DDEPTH=<n> -P search_bench_repro.cmake")
endif()

function(run_bench out_var)
  # EMULATOR (e.g. wine) runs a cross-compiled binary; empty otherwise.
  execute_process(COMMAND ${EMULATOR} ${CHARIOT} bench ${DEPTH}
                  OUTPUT_VARIABLE out ERROR_VARIABLE err RESULT_VARIABLE rc)
  if(NOT rc EQUAL 0)
    message(FATAL_ERROR "chariot bench failed (${rc}): ${err}")
  endif()
  # Keep only what must be reproducible: node counts, best moves, scores.
  string(REGEX MATCHALL "nodes +[0-9]+ +bestmove [a-z0-9]+ +score +-?[0-9]+" per_pos "${out}")
  string(REGEX MATCH "Nodes searched: [0-9]+" total "${out}")
  if(NOT total)
    message(FATAL_ERROR "no 'Nodes searched' line in:\n${out}")
  endif()
  set(${out_var} "${per_pos};${total}" PARENT_SCOPE)
endfunction()

run_bench(first)
run_bench(second)
if(NOT first STREQUAL second)
  message(FATAL_ERROR "bench is not reproducible:\n${first}\nvs\n${second}")
endif()
message(STATUS "bench reproducible: ${first}")
