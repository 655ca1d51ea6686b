# The functions a consumer build calls (docs/tuned-header.md has a whole example, built by a test).

# autotune_generate_header(OUTPUT <header> RESULTS <results.json>... [NO_CHECK])
#   Generates the tuned header at build time from results files (one per kernel and
#   architecture), rebuilding each winner with nvcc first unless NO_CHECK. Add OUTPUT
#   to a target's sources (or depend on it) so it is generated before it is included.
#   Relative paths resolve as CMake's own commands resolve them: RESULTS against
#   CMAKE_CURRENT_SOURCE_DIR, OUTPUT against CMAKE_CURRENT_BINARY_DIR. The command runs in
#   CMAKE_CURRENT_SOURCE_DIR, so the header names relative results files as they were
#   given, the same bytes in every checkout.
function(autotune_generate_header)
  cmake_parse_arguments(ARG "NO_CHECK" "OUTPUT" "RESULTS" ${ARGN})
  if(NOT ARG_OUTPUT OR NOT ARG_RESULTS)
    message(FATAL_ERROR "autotune_generate_header needs OUTPUT and RESULTS")
  endif()
  cmake_path(ABSOLUTE_PATH ARG_OUTPUT BASE_DIRECTORY ${CMAKE_CURRENT_BINARY_DIR} NORMALIZE)
  set(depends)
  foreach(file IN LISTS ARG_RESULTS)
    cmake_path(ABSOLUTE_PATH file BASE_DIRECTORY ${CMAKE_CURRENT_SOURCE_DIR} NORMALIZE)
    list(APPEND depends ${file})
  endforeach()
  set(check)
  if(ARG_NO_CHECK)
    set(check --no-check)
  endif()
  add_custom_command(OUTPUT ${ARG_OUTPUT}
    COMMAND autotune::autotune header ${ARG_RESULTS} -o ${ARG_OUTPUT} ${check}
    WORKING_DIRECTORY ${CMAKE_CURRENT_SOURCE_DIR}
    DEPENDS ${depends}
    COMMENT "autotune: generating ${ARG_OUTPUT}"
    VERBATIM)
endfunction()

# autotune_tuned_sources(<target> SOURCES <file.cu>... [MAXRREGCOUNT <n>])
#   Compiles the sources that launch tuned kernels the way they were tuned: nvcc with
#   64-bit shared-memory pointers (-Xcicc=--sharedmem32=0), which gives the machine code
#   NVRTC gave while tuning (docs/fidelity.md), and the file-level register cap when the
#   tuned configuration has one (its Config::maxrregcount). Links autotune::templates.
function(autotune_tuned_sources target)
  cmake_parse_arguments(ARG "" "MAXRREGCOUNT" "SOURCES" ${ARGN})
  set(options -Xcicc=--sharedmem32=0)
  if(ARG_MAXRREGCOUNT)
    list(APPEND options -maxrregcount=${ARG_MAXRREGCOUNT})
  endif()
  set_property(SOURCE ${ARG_SOURCES} TARGET_DIRECTORY ${target} APPEND PROPERTY COMPILE_OPTIONS
    "$<$<COMPILE_LANGUAGE:CUDA>:${options}>")
  target_link_libraries(${target} PRIVATE autotune::templates)
endfunction()
