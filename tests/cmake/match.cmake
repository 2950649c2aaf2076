# match.cmake — tests of `chariot match` and the protocol client (label: match).
# The runner's parts are compiled once more into a library so the tests can
# call them; toy_engine is the fake engine the games are played with.
set(XQ_MATCH_SRC
  ${CMAKE_SOURCE_DIR}/engine/match_game.c
  ${CMAKE_SOURCE_DIR}/engine/match_book.c
  ${CMAKE_SOURCE_DIR}/engine/match_book_data.c
  ${CMAKE_SOURCE_DIR}/engine/match_stats.c
  ${CMAKE_SOURCE_DIR}/engine/match_pgn.c
  ${CMAKE_SOURCE_DIR}/engine/match_json.c
  ${CMAKE_SOURCE_DIR}/engine/match_summary.c
  ${CMAKE_SOURCE_DIR}/engine/match_journal.c
  ${CHARIOT_OS_SRC})
add_library(xq_match_test STATIC ${XQ_MATCH_SRC})
target_include_directories(xq_match_test PUBLIC ${CMAKE_SOURCE_DIR}/engine)
target_link_libraries(xq_match_test PUBLIC xq_protocol xq_board Threads::Threads m)

foreach(t match_stats match_pgn)
  add_executable(test_${t} ${CMAKE_CURRENT_SOURCE_DIR}/test_${t}.c)
  target_link_libraries(test_${t} PRIVATE xq_match_test xq_testlib)
endforeach()
add_test(NAME match_stats COMMAND test_match_stats)
add_test(NAME match_pgn COMMAND test_match_pgn)
set_tests_properties(match_stats match_pgn PROPERTIES LABELS match TIMEOUT 120)

if(NOT CHARIOT_POSIX_TEST_DRIVERS)
  return()
endif()
add_executable(toy_engine ${CMAKE_CURRENT_SOURCE_DIR}/toy_engine.c)
target_link_libraries(toy_engine PRIVATE xq_board)

foreach(t match_client match_games)
  add_executable(test_${t} ${CMAKE_CURRENT_SOURCE_DIR}/test_${t}.c)
  target_link_libraries(test_${t} PRIVATE xq_match_test xq_testlib)
endforeach()

add_test(NAME match_client COMMAND test_match_client $<TARGET_FILE:toy_engine>)
add_test(NAME match_games COMMAND test_match_games $<TARGET_FILE:toy_engine>)
add_test(NAME match_cli COMMAND test_match_cli $<TARGET_FILE:chariot> $<TARGET_FILE:toy_engine>)
add_executable(test_match_cli ${CMAKE_CURRENT_SOURCE_DIR}/test_match_cli.c)
target_link_libraries(test_match_cli PRIVATE xq_match_test xq_testlib)
set_tests_properties(match_client match_games match_cli PROPERTIES LABELS match TIMEOUT 120)

# Shards, match-merge and resuming: Chariot plays itself at fixed nodes.
add_executable(test_match_shard ${CMAKE_CURRENT_SOURCE_DIR}/test_match_shard.c)
target_link_libraries(test_match_shard PRIVATE xq_match_test xq_testlib)
add_test(NAME match_shard COMMAND test_match_shard $<TARGET_FILE:chariot>)
set_tests_properties(match_shard PROPERTIES LABELS match TIMEOUT 600)
