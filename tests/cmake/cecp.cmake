# cecp.cmake — the engine side of CECP, XBoard's protocol (label: protocol):
# the real chariot binary driven through pipes after a first line `xboard`,
# one ctest entry per group. The driver runs on protocol/proc.h, so these
# run on Windows (under wine) too.
add_executable(test_cecp ${CMAKE_CURRENT_SOURCE_DIR}/test_cecp.c)
target_link_libraries(test_cecp PRIVATE xq_protocol xq_board xq_testlib)
add_dependencies(test_cecp chariot)
foreach(group handshake game force ping ponder analyze badinput quit)
  add_test(NAME cecp_${group} COMMAND test_cecp $<TARGET_FILE:chariot> ${group})
  set_tests_properties(cecp_${group} PROPERTIES LABELS "protocol;cecp" TIMEOUT 120)
endforeach()
