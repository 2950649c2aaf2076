# board.cmake — the rules foundation: unit tests, the brute-force cross-check,
# the perft suite (node-budgeted by default, every depth under perft-full) and
# the perft CLI's bad-input behaviour.
add_executable(test_board ${CMAKE_CURRENT_SOURCE_DIR}/test_board.c)
target_link_libraries(test_board PRIVATE xq_board xq_testlib)
add_test(NAME board_unit COMMAND test_board)
set_tests_properties(board_unit PROPERTIES LABELS unit)

add_executable(test_crosscheck ${CMAKE_CURRENT_SOURCE_DIR}/test_crosscheck.c)
target_link_libraries(test_crosscheck PRIVATE xq_board xq_testlib)
add_test(NAME board_crosscheck COMMAND test_crosscheck 60)
set_tests_properties(board_crosscheck PROPERTIES LABELS unit)

# Every position at every depth whose count is within the budget. (The
# target name, not its file, so a cross build runs it through the emulator.)
add_test(NAME perft_suite COMMAND chariot perft-suite ${CHARIOT_DATA_DIR}/perft.epd --max-nodes 4000000)
set_tests_properties(perft_suite PROPERTIES LABELS perft)
# Every depth of every position (excluded from the default presets' runs).
add_test(NAME perft_full COMMAND chariot perft-suite ${CHARIOT_DATA_DIR}/perft.epd)
set_tests_properties(perft_full PROPERTIES LABELS perft-full TIMEOUT 3600)

if(NOT CHARIOT_POSIX_TEST_DRIVERS)
  return()
endif()
add_executable(run_expect ${CMAKE_CURRENT_SOURCE_DIR}/run_expect.c)

set(CHARIOT_EXE $<TARGET_FILE:chariot>)
set(RUN_EXPECT $<TARGET_FILE:run_expect>)
add_test(NAME perft_cli_divide COMMAND ${RUN_EXPECT} 0 --stdout "h2e2: 1920" --stdout "Nodes: 79666" -- ${CHARIOT_EXE} perft startpos 3 --divide)
add_test(NAME perft_cli_bad_fen COMMAND ${RUN_EXPECT} 2 --stderr "bad FEN" -- ${CHARIOT_EXE} perft "rnbakabnr/9/X w" 3)
add_test(NAME perft_cli_bad_depth COMMAND ${RUN_EXPECT} 2 --stderr "bad depth" -- ${CHARIOT_EXE} perft startpos x7)
add_test(NAME perft_cli_deep_depth COMMAND ${RUN_EXPECT} 2 --stderr "bad depth" -- ${CHARIOT_EXE} perft startpos 99)
add_test(NAME perft_cli_missing_args COMMAND ${RUN_EXPECT} 2 --stderr "usage" -- ${CHARIOT_EXE} perft)
add_test(NAME perft_suite_missing_file COMMAND ${RUN_EXPECT} 2 --stderr "cannot open" -- ${CHARIOT_EXE} perft-suite /nonexistent/perft.epd)
add_test(NAME perft_suite_mismatch COMMAND ${RUN_EXPECT} 1 --stdout "FAIL" -- ${CHARIOT_EXE} perft-suite ${CMAKE_CURRENT_SOURCE_DIR}/data/perft_wrong.epd)
add_test(NAME cli_book_show COMMAND ${RUN_EXPECT} 0 --stdout "h2e2  炮二平五" --stdout "5 records; 3 book moves" -- ${CHARIOT_EXE} book show ${CHARIOT_DATA_DIR}/book_small.dat startpos)
add_test(NAME cli_book_bad_file COMMAND ${RUN_EXPECT} 1 --stderr "not a BOOK.DAT file" -- ${CHARIOT_EXE} book show ${CHARIOT_DATA_DIR}/perft.epd startpos)
add_test(NAME cli_match_book_openings COMMAND ${RUN_EXPECT} 0 --stdout "4 games, 5 openings" --stdout "Finished game 4" -- ${CHARIOT_EXE} match -engine name=a cmd=${CHARIOT_EXE} -engine name=b cmd=${CHARIOT_EXE} -each nodes=500 -games 4 -openings book=${CHARIOT_DATA_DIR}/book_small.dat plies=2)
# A book built from three games (ICCS, WXF with a variation, Chinese from a
# FEN tag), then read back; after h2e2 the Chinese game's b2e2 h9g7 shows
# through the mirror as b9c7.
add_test(NAME cli_book_build COMMAND ${RUN_EXPECT} 0 --stdout "3 games, 10 book moves played, 6 distinct" -- ${CHARIOT_EXE} book build ${CHARIOT_DATA_DIR}/book_games.pgn -o ${CMAKE_CURRENT_BINARY_DIR}/built_book.dat)
add_test(NAME cli_book_built_start COMMAND ${RUN_EXPECT} 0 --stdout "h2e2  炮二平五 weight     8" --stdout "b2e2  炮八平五 weight     1" -- ${CHARIOT_EXE} book show ${CMAKE_CURRENT_BINARY_DIR}/built_book.dat startpos)
add_test(NAME cli_book_built_mirror COMMAND ${RUN_EXPECT} 0 --stdout "b9c7  马２进３ weight     5" --stdout "h9g7  马８进７ weight     4" -- ${CHARIOT_EXE} book show ${CMAKE_CURRENT_BINARY_DIR}/built_book.dat "rnbakabnr/9/1c5c1/p1p1p1p1p/9/9/P1P1P1P1P/1C2C4/9/RNBAKABNR b")
set_tests_properties(cli_book_build PROPERTIES FIXTURES_SETUP built_book)
set_tests_properties(cli_book_built_start cli_book_built_mirror PROPERTIES FIXTURES_REQUIRED built_book)
add_test(NAME cli_version COMMAND ${RUN_EXPECT} 0 --stdout "Chariot ${PROJECT_VERSION}" -- ${CHARIOT_EXE} --version)
add_test(NAME cli_unknown_command COMMAND ${RUN_EXPECT} 2 --stderr "unknown command" -- ${CHARIOT_EXE} frobnicate)
set_tests_properties(perft_cli_divide perft_cli_bad_fen perft_cli_bad_depth perft_cli_deep_depth
  perft_cli_missing_args perft_suite_missing_file perft_suite_mismatch cli_unknown_command cli_version cli_book_show cli_book_bad_file cli_match_book_openings cli_book_build cli_book_built_start cli_book_built_mirror PROPERTIES LABELS unit)

# A 10 KB garbage FEN on the command line.
string(REPEAT "Zq/9" 2560 CHARIOT_GARBAGE_FEN)
add_test(NAME perft_cli_garbage_fen COMMAND ${RUN_EXPECT} 2 --stderr "bad FEN" -- ${CHARIOT_EXE} perft "${CHARIOT_GARBAGE_FEN}" 2)
set_tests_properties(perft_cli_garbage_fen PROPERTIES LABELS unit)
