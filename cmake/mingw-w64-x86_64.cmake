# Cross-compiling Chariot for 64-bit Windows with Debian's MinGW-w64
# (package gcc-mingw-w64-x86-64-posix: the POSIX-threads flavour, which
# provides pthreads through winpthreads). Used by the `windows` preset.
set(CMAKE_SYSTEM_NAME Windows)
set(CMAKE_SYSTEM_PROCESSOR x86_64)
set(CMAKE_C_COMPILER x86_64-w64-mingw32-gcc-posix)
set(CMAKE_RC_COMPILER x86_64-w64-mingw32-windres)
set(CMAKE_FIND_ROOT_PATH /usr/x86_64-w64-mingw32)
set(CMAKE_FIND_ROOT_PATH_MODE_PROGRAM NEVER)
set(CMAKE_FIND_ROOT_PATH_MODE_LIBRARY ONLY)
set(CMAKE_FIND_ROOT_PATH_MODE_INCLUDE ONLY)
# Static: chariot.exe must run on a bare Windows with no DLL beside it
# (winpthreads and libgcc are linked in; only system DLLs remain).
set(CMAKE_EXE_LINKER_FLAGS_INIT "-static")
