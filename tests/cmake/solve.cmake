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
