# ponder.cmake — pondering under every command order (label: protocol): the
# real chariot binary gets thousands of random GUI-like sequences per
# protocol (go ponder, then ponderhit, stop, isready, the next position/go,
# quit, at random small delays). It spawns the engine through protocol/proc.h,
# so it runs in the Windows cross build too, under wine. A failure prints its
# seed and the sequence to replay (test_ponder_stress --help).
add_executable(test_ponder_stress ${CMAKE_CURRENT_SOURCE_DIR}/test_ponder_stress.c)
target_link_libraries(test_ponder_stress PRIVATE xq_protocol xq_board xq_testlib)
add_dependencies(test_ponder_stress chariot)
set(CHARIOT_PONDER_STRESS_COUNT 2000 CACHE STRING "ponder stress sequences per protocol")
# The margin only bounds a hang: a depth-limited search may build an endgame
# table first, which takes seconds under a sanitizer or wine.
if(CHARIOT_SANITIZE OR CHARIOT_TSAN OR CMAKE_CROSSCOMPILING)
  set(CHARIOT_PONDER_STRESS_MARGIN_MS 30000)
else()
  set(CHARIOT_PONDER_STRESS_MARGIN_MS 10000)
endif()
foreach(proto ucci uci cecp)
  add_test(NAME ponder_stress_${proto}
           COMMAND test_ponder_stress $<TARGET_FILE:chariot> ${proto} --count ${CHARIOT_PONDER_STRESS_COUNT}
                   --margin ${CHARIOT_PONDER_STRESS_MARGIN_MS})
  set_tests_properties(ponder_stress_${proto} PROPERTIES LABELS protocol TIMEOUT 600)
endforeach()
