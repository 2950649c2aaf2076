# protocol.cmake — the engine side of UCCI/UCI (label: protocol): the real
# chariot binary driven through pipes, one ctest entry per group so they run
# in parallel, plus deterministic fuzzing of the line parser, the FEN reader
# and the binary. libFuzzer harnesses come with -DCHARIOT_FUZZ=ON (clang).
# The pipe driver (test_protocol_driver.h) runs on protocol/proc.h, so these
# run on Windows too.
add_executable(test_protocol ${CMAKE_CURRENT_SOURCE_DIR}/test_protocol.c)
target_link_libraries(test_protocol PRIVATE xq_protocol xq_board xq_testlib)
add_dependencies(test_protocol chariot)
foreach(group handshake commands badinput eof stop batch uci determinism book skill)
  add_test(NAME protocol_${group} COMMAND test_protocol $<TARGET_FILE:chariot> ${group})
  set_tests_properties(protocol_${group} PROPERTIES LABELS protocol TIMEOUT 120)
endforeach()

add_executable(test_protocol_fuzz ${CMAKE_CURRENT_SOURCE_DIR}/test_protocol_fuzz.c)
target_link_libraries(test_protocol_fuzz PRIVATE xq_protocol xq_board xq_testlib)
target_include_directories(test_protocol_fuzz PRIVATE ${CMAKE_SOURCE_DIR}/protocol)
add_dependencies(test_protocol_fuzz chariot)
add_test(NAME protocol_fuzz_parser COMMAND test_protocol_fuzz parser 100000)
add_test(NAME protocol_fuzz_fen COMMAND test_protocol_fuzz fen 20000)
add_test(NAME protocol_fuzz_binary COMMAND test_protocol_fuzz binary $<TARGET_FILE:chariot> 4000)
set_tests_properties(protocol_fuzz_parser protocol_fuzz_fen protocol_fuzz_binary
  PROPERTIES LABELS protocol TIMEOUT 120)

if(CHARIOT_FUZZ)
  if(NOT CMAKE_C_COMPILER_ID MATCHES "Clang")
    message(WARNING "CHARIOT_FUZZ needs clang (libFuzzer); the fuzz harnesses are not built")
  else()
    # The code under test is compiled into each harness so that libFuzzer's
    # coverage instrumentation reaches it.
    set(CHARIOT_FUZZ_FLAGS -fsanitize=fuzzer,address,undefined -fno-omit-frame-pointer -g)
    add_executable(fuzz_ucci_parse ${CMAKE_CURRENT_SOURCE_DIR}/fuzz/fuzz_ucci_parse.c
      ${CMAKE_SOURCE_DIR}/protocol/ucci_parse.c)
    add_executable(fuzz_fen ${CMAKE_CURRENT_SOURCE_DIR}/fuzz/fuzz_fen.c ${XQ_BOARD_SRC})
    foreach(t fuzz_ucci_parse fuzz_fen)
      target_include_directories(${t} PRIVATE ${CMAKE_SOURCE_DIR}/board ${CMAKE_SOURCE_DIR}/protocol)
      target_compile_options(${t} PRIVATE ${CHARIOT_FUZZ_FLAGS})
      target_link_options(${t} PRIVATE ${CHARIOT_FUZZ_FLAGS})
      target_link_libraries(${t} PRIVATE Threads::Threads)
    endforeach()
  endif()
endif()
