# eval.cmake — unit tests of the evaluation (symmetry, incremental psq, sanity).
add_executable(test_eval ${CMAKE_CURRENT_SOURCE_DIR}/test_eval.c)
target_link_libraries(test_eval PRIVATE xq_eval xq_board xq_testlib)
add_test(NAME eval_unit COMMAND test_eval)
set_tests_properties(eval_unit PROPERTIES LABELS unit)
