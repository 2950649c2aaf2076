# notation.cmake — tests of board/notation.c (ICCS, WXF, Chinese move text).
add_executable(test_notation ${CMAKE_CURRENT_SOURCE_DIR}/test_notation.c)
target_link_libraries(test_notation PRIVATE xq_board xq_testlib)
add_test(NAME notation COMMAND test_notation)
set_tests_properties(notation PROPERTIES LABELS unit)
