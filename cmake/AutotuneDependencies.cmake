# Everything the engine needs, each found once, each failure one line naming what is
# missing and where it was looked for.

# The CUDA toolkit: NVRTC compiles, ptxas (inside NVRTC, and standalone for the oracle
# tests) assembles. The driver is never linked: the measure stage dlopens it.
find_package(CUDAToolkit QUIET)
if(NOT CUDAToolkit_FOUND OR NOT TARGET CUDA::nvrtc)
  set(_where "${CUDAToolkit_ROOT}")
  if(NOT _where)
    set(_where "$ENV{CUDAToolkit_ROOT}")
  endif()
  if(NOT _where)
    set(_where "PATH (nvcc), /usr/local/cuda")
  endif()
  # NOTICE prints the line as it is; FATAL_ERROR would re-wrap it over several.
  message(NOTICE "autotune: CUDA Toolkit with NVRTC not found (looked in CUDAToolkit_ROOT=${_where}); install it or pass -DCUDAToolkit_ROOT=/path/to/cuda")
  message(FATAL_ERROR "CUDA Toolkit not found")
endif()

macro(autotune_require package)
  find_package(${package} ${ARGN} QUIET)
  if(NOT ${package}_FOUND)
    message(FATAL_ERROR "autotune: ${package} not found (scripts/setup installs it from Debian's packages)")
  endif()
endmacro()

autotune_require(Boost COMPONENTS program_options)
autotune_require(tomlplusplus)
autotune_require(nlohmann_json)
autotune_require(fmt)
autotune_require(muparser)
autotune_require(OpenSSL)
autotune_require(Threads)
find_package(PkgConfig QUIET)
if(PkgConfig_FOUND)
  pkg_check_modules(LIBELF QUIET IMPORTED_TARGET libelf)
endif()
if(NOT LIBELF_FOUND)
  message(FATAL_ERROR "autotune: libelf not found (pkg-config libelf; Debian: libelf-dev)")
endif()
