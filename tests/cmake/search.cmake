# search.cmake — tests of the search (search/, engine/bench.c, engine/cmd_search.c).
add_executable(test_search ${CMAKE_CURRENT_SOURCE_DIR}/test_search.c)
target_link_libraries(test_search PRIVATE xq_search xq_eval xq_board xq_testlib)
add_test(NAME search_unit COMMAND test_search)
set_tests_properties(search_unit PROPERTIES LABELS "unit" TIMEOUT 300)

# Bench determinism: the chariot binary's bench, run twice at a small depth,
# must print the same node counts (never compared with a fixed number).
add_test(NAME search_bench_repro
         COMMAND ${CMAKE_COMMAND} -DCHARIOT=$<TARGET_FILE:chariot> -DDEPTH=5
                 "-DEMULATOR=${CMAKE_CROSSCOMPILING_EMULATOR}"
                 -P ${CMAKE_CURRENT_SOURCE_DIR}/search_bench_repro.cmake)
set_tests_properties(search_bench_repro PROPERTIES LABELS "repro" TIMEOUT 300)

# The opening-book reader (BOOK.DAT test vectors, mirror lookup, corrupt files).
add_executable(test_book ${CMAKE_CURRENT_SOURCE_DIR}/test_book.c)
target_link_libraries(test_book PRIVATE xq_search xq_eval xq_board xq_testlib)
add_test(NAME book_unit COMMAND test_book)
set_tests_properties(book_unit PROPERTIES LABELS unit)

# chariot datagen: reproducible by seed whatever the worker count, the line
# format, appending after a torn line, bad arguments.
add_test(NAME datagen_repro
         COMMAND ${CMAKE_COMMAND} -DCHARIOT=$<TARGET_FILE:chariot> -DWORK=${CMAKE_CURRENT_BINARY_DIR}/datagen
                 "-DEMULATOR=${CMAKE_CROSSCOMPILING_EMULATOR}"
                 -P ${CMAKE_CURRENT_SOURCE_DIR}/datagen_repro.cmake)
set_tests_properties(datagen_repro PROPERTIES LABELS "repro" TIMEOUT 300)
