# The consumer project of tests/header/consumer_build_test.cpp is docs/tuned-header.md's
# CMakeLists.txt and app.cu, written out verbatim from the page (so the documentation and
# what is tested cannot drift), with results/ next to them and this file included at the
# end: the test's own targets.

# The package's header for the built-in kernels, by the name it is installed under.
add_library(builtin_header OBJECT builtin_header.cpp)
target_link_libraries(builtin_header PRIVATE autotune::templates)

# A consumer that lists its generated header but forgets its include directory: it must
# fail to compile (the test builds it and expects "autotune_tuned.hpp: No such file"), not
# find the built-in kernels' header on the templates' include path instead.
add_executable(forgot_include_dir EXCLUDE_FROM_ALL forgot_include_dir.cu)
add_dependencies(forgot_include_dir app) # the header is generated; only its directory is missing
autotune_tuned_sources(forgot_include_dir SOURCES forgot_include_dir.cu)

# A relative OUTPUT lands in this directory's build directory, as add_custom_command's does.
autotune_generate_header(OUTPUT relative/autotune_tuned.hpp RESULTS results/sm_80/copy.json NO_CHECK)
add_custom_target(relative_output ALL DEPENDS ${CMAKE_CURRENT_BINARY_DIR}/relative/autotune_tuned.hpp)
