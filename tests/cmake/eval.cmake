# eval.cmake — unit tests of the evaluation (symmetry, incremental psq, sanity).
add_executable(test_eval ${CMAKE_CURRENT_SOURCE_DIR}/test_eval.c)
target_link_libraries(test_eval PRIVATE xq_eval xq_board xq_testlib)
add_test(NAME eval_unit COMMAND test_eval)
set_tests_properties(eval_unit PROPERTIES LABELS unit)

# The tuner's linear model against the real evaluation, the fit on a known
# optimum, and the weights writer against eval/weights.h.
add_executable(test_tune ${CMAKE_CURRENT_SOURCE_DIR}/test_tune.c)
target_link_libraries(test_tune PRIVATE xq_eval xq_board xq_testlib m)
add_test(NAME tune_unit COMMAND test_tune ${CMAKE_SOURCE_DIR}/eval/weights.h)
set_tests_properties(tune_unit PROPERTIES LABELS unit TIMEOUT 120)

# The endgame tables: generator cross-check, successor consistency, known mates.
add_executable(test_egtb ${CMAKE_CURRENT_SOURCE_DIR}/test_egtb.c)
target_link_libraries(test_egtb PRIVATE xq_eval xq_board xq_testlib)
add_test(NAME egtb_unit COMMAND test_egtb)
set_tests_properties(egtb_unit PROPERTIES LABELS unit)
