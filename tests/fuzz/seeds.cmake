# Each target's seed corpus, assembled at build time in build/fuzz/seeds/<target>/ from the
# repository's real files (specs, results, the small text seeds in tests/fuzz/seeds/), and
# from kernels compiled here with nvcc into cubins and ptxas logs: generated binaries are not
# committed. CTest's runs copy a corpus before fuzzing, so nothing here or in the checkout
# changes.
set(seeds ${CMAKE_CURRENT_BINARY_DIR}/seeds)
file(GLOB_RECURSE seed_inputs CONFIGURE_DEPENDS
  ${AUTOTUNE_SOURCE_DIR}/kernels/*.toml ${AUTOTUNE_SOURCE_DIR}/examples/*.toml ${AUTOTUNE_SOURCE_DIR}/tests/data/*.toml
  ${AUTOTUNE_SOURCE_DIR}/results/*.json ${CMAKE_CURRENT_SOURCE_DIR}/seeds/*)
add_custom_command(OUTPUT ${seeds}/text.stamp
  COMMAND Python3::Interpreter ${CMAKE_CURRENT_SOURCE_DIR}/make_seeds.py ${AUTOTUNE_SOURCE_DIR} ${seeds}
  COMMAND ${CMAKE_COMMAND} -E touch ${seeds}/text.stamp
  DEPENDS ${seed_inputs} ${CMAKE_CURRENT_SOURCE_DIR}/make_seeds.py
  COMMENT "Fuzz seeds from the repository's specs, results and tests/fuzz/seeds")

# Kernels whose ptxas reports cover what the parser and the cubin reader read: launch bounds
# overriding a global cap, a cap raised to the minimum with spills and a stack, __maxnreg__,
# and shared memory with barriers on an sm that reserves shared memory in the cubin.
set(heavy ${AUTOTUNE_SOURCE_DIR}/tests/data/register_policy/heavy.cu)
set(blur ${AUTOTUNE_SOURCE_DIR}/examples/blur.cu)
set(kernels
  "bounds_sm90|heavy|${heavy}|-arch=sm_90 -DWIDTH=32 -DMAXNREG=0 -DMAX_THREADS=256 -DMIN_BLOCKS=2 -maxrregcount=64"
  "spills_sm80|heavy|${heavy}|-arch=sm_80 -DWIDTH=96 -DMAXNREG=0 -DMAX_THREADS=0 -DMIN_BLOCKS=0 -maxrregcount=8"
  "maxnreg_sm75|heavy|${heavy}|-arch=sm_75 -DWIDTH=48 -DMAXNREG=40 -DMAX_THREADS=0 -DMIN_BLOCKS=0"
  "blur_sm120|blur|${blur}|-arch=sm_120")
set(compiled)
foreach(kernel ${kernels})
  string(REPLACE "|" ";" fields "${kernel}")
  list(GET fields 0 name)
  list(GET fields 1 function)
  list(GET fields 2 source)
  list(GET fields 3 options)
  add_custom_command(OUTPUT ${seeds}/cubin/${name}.cubin ${seeds}/ptxas_log/${name}.log ${seeds}/ptx/${name}.ptx
    COMMAND ${CMAKE_COMMAND} -DNVCC=${CUDAToolkit_NVCC_EXECUTABLE} -DSOURCE=${source} -DFUNCTION=${function}
            "-DOPTIONS=${options}" -DCUBIN=${seeds}/cubin/${name}.cubin -DLOG=${seeds}/ptxas_log/${name}.log
            -DPTX=${seeds}/ptx/${name}.ptx -P ${CMAKE_CURRENT_SOURCE_DIR}/compile_seed.cmake
    DEPENDS ${source} ${CMAKE_CURRENT_SOURCE_DIR}/compile_seed.cmake
    COMMENT "Fuzz seed: nvcc -cubin and -ptx ${options} ${function}")
  list(APPEND compiled ${seeds}/cubin/${name}.cubin)
endforeach()
add_custom_target(fuzz_seeds ALL DEPENDS ${seeds}/text.stamp ${compiled})
