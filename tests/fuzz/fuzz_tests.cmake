# Included by tests/CMakeLists.txt: builds the fuzz targets (tests/fuzz/CMakeLists.txt) with
# clang into build/fuzz as part of this build, and gives CTest one test per target, which runs
# it for AUTOTUNE_FUZZ_SECONDS on a copy of its seeds and fails on any crash, sanitizer report
# or hang. Where clang or its libFuzzer runtime is missing, the tests are there all the same
# and skip, saying why.
option(AUTOTUNE_BUILD_FUZZ "Build the libFuzzer targets with clang (tests/fuzz)" ON)
set(AUTOTUNE_FUZZ_SECONDS 10 CACHE STRING "How long CTest runs each fuzz target, seconds")
set(AUTOTUNE_FUZZ_CXX "" CACHE FILEPATH "clang++ with libFuzzer for the fuzz targets (default: clang++ on PATH)")
set(fuzz_targets toml_spec t1_spec expression ptxas_log cubin results kt_cache ptx)
set(fuzz_runner ${CMAKE_CURRENT_SOURCE_DIR}/fuzz/run_fuzz_target)

set(fuzz_unavailable "")
if(NOT AUTOTUNE_BUILD_FUZZ)
  set(fuzz_unavailable "AUTOTUNE_BUILD_FUZZ is OFF")
else()
  if(NOT AUTOTUNE_FUZZ_CXX)
    find_program(fuzz_clang NAMES clang++)
    if(fuzz_clang)
      set(AUTOTUNE_FUZZ_CXX ${fuzz_clang})
    endif()
  endif()
  if(NOT AUTOTUNE_FUZZ_CXX)
    set(fuzz_unavailable "no clang++ (Debian: clang and libclang-rt-dev; scripts/setup installs them)")
  elseif(NOT AUTOTUNE_FUZZ_CXX STREQUAL AUTOTUNE_FUZZ_PROBED)
    # Linking a fuzzer is what needs the runtime (libclang-rt-<version>-dev on Debian); try it
    # once per compiler.
    set(probe ${CMAKE_CURRENT_BINARY_DIR}/fuzz_probe)
    file(WRITE ${probe}.cpp "#include <cstddef>\n#include <cstdint>\n"
         "extern \"C\" int LLVMFuzzerTestOneInput(const std::uint8_t*, std::size_t) { return 0; }\n")
    execute_process(COMMAND ${AUTOTUNE_FUZZ_CXX} -fsanitize=fuzzer,address,undefined ${probe}.cpp -o ${probe}
                    RESULT_VARIABLE failed OUTPUT_QUIET ERROR_VARIABLE why)
    if(failed)
      string(REGEX REPLACE "\n.*" "" why "${why}")
      set(AUTOTUNE_FUZZ_PROBE_ERROR "${AUTOTUNE_FUZZ_CXX} cannot link a libFuzzer target (${why}); Debian: libclang-rt-dev"
          CACHE INTERNAL "")
    else()
      set(AUTOTUNE_FUZZ_PROBE_ERROR "" CACHE INTERNAL "")
    endif()
    set(AUTOTUNE_FUZZ_PROBED ${AUTOTUNE_FUZZ_CXX} CACHE INTERNAL "")
  endif()
  if(AUTOTUNE_FUZZ_CXX AND AUTOTUNE_FUZZ_PROBE_ERROR)
    set(fuzz_unavailable "${AUTOTUNE_FUZZ_PROBE_ERROR}")
  endif()
endif()

if(fuzz_unavailable)
  message(STATUS "autotune: fuzz targets not built: ${fuzz_unavailable}")
else()
  include(ExternalProject)
  get_filename_component(fuzz_cuda_root ${CUDAToolkit_BIN_DIR} DIRECTORY)
  set(fuzz_launcher)
  if(CMAKE_CXX_COMPILER_LAUNCHER)
    set(fuzz_launcher -DCMAKE_CXX_COMPILER_LAUNCHER=${CMAKE_CXX_COMPILER_LAUNCHER})
  endif()
  ExternalProject_Add(autotune_fuzz
    SOURCE_DIR ${CMAKE_CURRENT_SOURCE_DIR}/fuzz
    BINARY_DIR ${PROJECT_BINARY_DIR}/fuzz
    CMAKE_ARGS -DCMAKE_CXX_COMPILER=${AUTOTUNE_FUZZ_CXX} -DCMAKE_BUILD_TYPE=
               -DAUTOTUNE_SOURCE_DIR=${PROJECT_SOURCE_DIR} -DAUTOTUNE_GENERATED_DIR=${PROJECT_BINARY_DIR}/generated
               -DCUDAToolkit_ROOT=${fuzz_cuda_root} ${fuzz_launcher}
    BUILD_ALWAYS ON
    INSTALL_COMMAND ""
    DEPENDS autotune_git_revision)
endif()

foreach(target ${fuzz_targets})
  if(fuzz_unavailable)
    add_test(NAME fuzz.${target} COMMAND ${fuzz_runner} --unavailable "${fuzz_unavailable}")
  else()
    add_test(NAME fuzz.${target}
             COMMAND ${fuzz_runner} ${PROJECT_BINARY_DIR}/fuzz/${target}_fuzzer ${PROJECT_BINARY_DIR}/fuzz/seeds/${target}
                     ${AUTOTUNE_FUZZ_SECONDS} ${PROJECT_BINARY_DIR}/fuzz/findings/${target})
  endif()
  # 77: the runner's "skipped"; the timeout leaves room for reading the seeds on a busy machine.
  math(EXPR fuzz_timeout "${AUTOTUNE_FUZZ_SECONDS} + 120")
  set_tests_properties(fuzz.${target} PROPERTIES SKIP_RETURN_CODE 77 TIMEOUT ${fuzz_timeout} LABELS fuzz)
endforeach()
