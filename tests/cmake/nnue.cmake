# nnue.cmake — the evaluation network's data and trainer (engine/dgformat.c,
# engine/datagen.c's binary output, engine/datagen_convert.c, eval/nnue.c,
# eval/nnue_train.c, engine/train.c).
add_executable(test_nnue ${CMAKE_CURRENT_SOURCE_DIR}/test_nnue.c)
target_link_libraries(test_nnue PRIVATE xq_eval xq_board xq_testlib m)
add_test(NAME nnue_unit COMMAND test_nnue)
set_tests_properties(nnue_unit PROPERTIES LABELS unit)

add_executable(test_dgformat ${CMAKE_CURRENT_SOURCE_DIR}/test_dgformat.c ${CMAKE_SOURCE_DIR}/engine/dgformat.c
               ${CHARIOT_OS_SRC})
target_include_directories(test_dgformat PRIVATE ${CMAKE_SOURCE_DIR}/engine)
target_link_libraries(test_dgformat PRIVATE xq_board xq_testlib)
add_test(NAME dgformat_unit COMMAND test_dgformat ${CMAKE_CURRENT_BINARY_DIR})
set_tests_properties(dgformat_unit PROPERTIES LABELS unit)

# datagen --format bin and datagen-convert through the chariot binary.
add_test(NAME datagen_bin
         COMMAND ${CMAKE_COMMAND} -DCHARIOT=$<TARGET_FILE:chariot> -DWORK=${CMAKE_CURRENT_BINARY_DIR}/datagen_bin
                 "-DEMULATOR=${CMAKE_CROSSCOMPILING_EMULATOR}"
                 -P ${CMAKE_CURRENT_SOURCE_DIR}/datagen_bin.cmake)
set_tests_properties(datagen_bin PROPERTIES LABELS "repro" TIMEOUT 300)

# chariot train: the loss falls on a small generated set, resume is exact.
add_test(NAME train_loss
         COMMAND ${CMAKE_COMMAND} -DCHARIOT=$<TARGET_FILE:chariot> -DWORK=${CMAKE_CURRENT_BINARY_DIR}/train_loss
                 "-DEMULATOR=${CMAKE_CROSSCOMPILING_EMULATOR}"
                 -P ${CMAKE_CURRENT_SOURCE_DIR}/train_loss.cmake)
set_tests_properties(train_loss PROPERTIES LABELS "repro" TIMEOUT 300)
