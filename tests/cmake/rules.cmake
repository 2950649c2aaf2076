# rules.cmake — tests of board/rules.c (repetition verdicts, natural limit, material, game results).
add_executable(test_rules ${CMAKE_CURRENT_SOURCE_DIR}/test_rules.c)
target_link_libraries(test_rules PRIVATE xq_board xq_testlib)
add_test(NAME rules COMMAND test_rules)
set_tests_properties(rules PROPERTIES LABELS unit)
