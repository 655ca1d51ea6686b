# Run at build time by seeds.cmake: nvcc -cubin -Xptxas -v on one kernel, keeping the cubin
# (a cubin_fuzzer seed) and what ptxas printed, after a line naming the entry function (a
# ptxas_log_fuzzer seed); then nvcc -ptx with the same options (a ptx_fuzzer seed).
#   cmake -DNVCC=... -DSOURCE=... -DFUNCTION=... -DOPTIONS="..." -DCUBIN=... -DLOG=... -DPTX=... -P compile_seed.cmake
separate_arguments(options UNIX_COMMAND "${OPTIONS}")
get_filename_component(cubin_dir ${CUBIN} DIRECTORY)
get_filename_component(log_dir ${LOG} DIRECTORY)
get_filename_component(ptx_dir ${PTX} DIRECTORY)
file(MAKE_DIRECTORY ${cubin_dir} ${log_dir} ${ptx_dir})
execute_process(COMMAND ${NVCC} -cubin ${options} -Xptxas -v -o ${CUBIN} ${SOURCE}
                RESULT_VARIABLE failed OUTPUT_VARIABLE out ERROR_VARIABLE err)
if(failed)
  message(FATAL_ERROR "nvcc -cubin ${OPTIONS} ${SOURCE} failed: ${err}")
endif()
file(WRITE ${LOG} "${FUNCTION}\n${out}${err}")
execute_process(COMMAND ${NVCC} -ptx ${options} -o ${PTX} ${SOURCE} RESULT_VARIABLE failed ERROR_VARIABLE err)
if(failed)
  message(FATAL_ERROR "nvcc -ptx ${OPTIONS} ${SOURCE} failed: ${err}")
endif()
