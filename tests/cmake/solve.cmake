# solve.cmake — tests of `chariot solve` (label solve): the EPD reader and
# reports as a unit, the command's handling of good and bad input, and a
# fixed-depth regression run over the short mates of mate.epd.

add_executable(test_solve_epd ${CMAKE_CURRENT_SOURCE_DIR}/test_solve_epd.c
               ${CMAKE_SOURCE_DIR}/engine/solve_epd.c ${CMAKE_SOURCE_DIR}/engine/solve_report.c)
target_include_directories(test_solve_epd PRIVATE ${CMAKE_SOURCE_DIR}/engine)
target_link_libraries(test_solve_epd PRIVATE xq_search xq_eval xq_board xq_testlib)
add_test(NAME solve_epd COMMAND test_solve_epd)

if(CHARIOT_POSIX_TEST_DRIVERS)
  add_executable(test_solve_cli ${CMAKE_CURRENT_SOURCE_DIR}/test_solve_cli.c)
  target_link_libraries(test_solve_cli PRIVATE xq_testlib)
  add_dependencies(test_solve_cli chariot)
  add_test(NAME solve_cli COMMAND test_solve_cli $<TARGET_FILE:chariot> ${CMAKE_CURRENT_BINARY_DIR})
  set_tests_properties(solve_cli PROPERTIES LABELS solve TIMEOUT 300)
endif()

# Fixed depth and one thread, so the run is deterministic (no clock involved).
# Every puzzle must be solved: exit code 0.
set(CHARIOT_SOLVE_SHORT_DEPTH 8)
add_test(NAME solve_mate_short
         COMMAND chariot solve ${CHARIOT_DATA_DIR}/mate_short.epd --depth ${CHARIOT_SOLVE_SHORT_DEPTH}
                 --threads 1 --hash 16 --quiet)

set_tests_properties(solve_epd solve_mate_short PROPERTIES LABELS solve TIMEOUT 300)

# The mate-bench tests check the output with run_expect, which is not built
# for Windows (see tests/CMakeLists.txt).
if(CHARIOT_POSIX_TEST_DRIVERS)
  # `chariot mate-bench` drives the engine through its pipes like an analysing
  # GUI (go infinite, then stop once a mate is claimed) and replays every
  # claimed mate. The limit is generous and only bounds a hang: mates in one
  # are claimed at once, so the result does not depend on the machine's speed.
  add_test(NAME mate_bench_short
           COMMAND ${RUN_EXPECT} 0 --stdout "Solved 6/6" --timeout 280 --
                   $<TARGET_FILE:chariot> mate-bench ${CHARIOT_DATA_DIR}/mate_short.epd --first 6 --movetime 60000)
  add_test(NAME mate_bench_bad_input
           COMMAND ${RUN_EXPECT} 2 --stderr "bad argument" -- $<TARGET_FILE:chariot> mate-bench
                   ${CHARIOT_DATA_DIR}/mate_short.epd --movetime 0)
  set_tests_properties(mate_bench_short mate_bench_bad_input PROPERTIES LABELS solve TIMEOUT 300)

  # Analysis proves mates: go infinite on a mate in 20 that the prover finds,
  # with one thread (the prover takes turns with the search) and with two (a
  # helper thread proves). The limits only bound a hang.
  add_test(NAME mate_bench_prover_1thread
           COMMAND ${RUN_EXPECT} 0 --stdout "Solved 1/1" --stdout "0 with an illegal move, 0 with no mate" --timeout 280 --
                   $<TARGET_FILE:chariot> mate-bench ${CHARIOT_DATA_DIR}/mate_prover.epd --movetime 240000)
  add_test(NAME mate_bench_prover_2threads
           COMMAND ${RUN_EXPECT} 0 --stdout "Solved 1/1" --stdout "0 with an illegal move, 0 with no mate" --timeout 280 --
                   $<TARGET_FILE:chariot> mate-bench ${CHARIOT_DATA_DIR}/mate_prover.epd --movetime 240000
                   --option threads=2)
  set_tests_properties(mate_bench_prover_1thread mate_bench_prover_2threads PROPERTIES LABELS solve TIMEOUT 300)
endif()
