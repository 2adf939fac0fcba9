# hip_build_facts.cmake — what the ROCm backend's build is made for: the AMD GPU targets hipcc
# compiles for (dlarray_hip_architectures) and the major version of the HIP runtime the module
# links (dlarray_hip_runtime_major). Included by CMakeLists.txt when hipcc is found.

# The targets of a default build: CDNA2 (gfx90a: MI200), CDNA3 (gfx942: MI300X/MI300A/MI325X),
# CDNA4 (gfx950: MI350/MI355X), RDNA2 (gfx1030) and RDNA3 (gfx1100: Radeon RX 7900 / PRO W7900).
# (gfx940 and gfx941 were pre-production MI300 parts; ROCm 6.2 on targets gfx942 alone.)
set(DLARRAY_HIP_DEFAULT_ARCHITECTURES gfx90a gfx942 gfx950 gfx1030 gfx1100)

# Whether `hipcc` compiles a kernel for `arch`: the result in ${out}, the compiler's complaint
# in ${why}. Cached per compiler (its path and modification time) and target, so a reconfigure
# does not compile again.
function(dlarray_hipcc_accepts hipcc arch out why)
  file(REAL_PATH "${hipcc}" hipcc_file)
  file(TIMESTAMP "${hipcc_file}" hipcc_time "%Y%m%d%H%M%S")
  string(MAKE_C_IDENTIFIER "${hipcc_file}_${hipcc_time}_${arch}" key)
  if(DEFINED DLARRAY_HIPCC_ACCEPTS_${key})
    set(${out} ${DLARRAY_HIPCC_ACCEPTS_${key}} PARENT_SCOPE)
    set(${why} "${DLARRAY_HIPCC_REJECTS_WHY_${key}}" PARENT_SCOPE)
    return()
  endif()
  set(dir ${CMAKE_BINARY_DIR}/hip_target_checks)
  file(WRITE ${dir}/kernel.hip "#include <hip/hip_runtime.h>\n__global__ void twice(float* x) { x[threadIdx.x] *= 2.0f; }\n")
  execute_process(
    COMMAND ${CMAKE_COMMAND} -E env HIP_PLATFORM=amd ${hipcc} -x hip -std=c++17 --offload-arch=${arch}
            -c ${dir}/kernel.hip -o ${dir}/kernel_${arch}.o
    RESULT_VARIABLE rc OUTPUT_VARIABLE log ERROR_VARIABLE log)
  set(accepted OFF)
  set(reason "")
  if(rc EQUAL 0)
    set(accepted ON)
  else()
    # The compiler's first error line says why (an unknown target, no device library for it).
    string(REGEX MATCH "error:[^\n]*" reason "${log}")
    if(NOT reason)
      string(REGEX MATCH "[^\n]+" reason "${log}")
    endif()
  endif()
  set(DLARRAY_HIPCC_ACCEPTS_${key} ${accepted} CACHE INTERNAL "hipcc compiles for ${arch}")
  set(DLARRAY_HIPCC_REJECTS_WHY_${key} "${reason}" CACHE INTERNAL "why hipcc does not compile for ${arch}")
  set(${out} ${accepted} PARENT_SCOPE)
  set(${why} "${reason}" PARENT_SCOPE)
endfunction()

# The targets to build for, in ${out}. `requested` empty: the default targets this hipcc accepts,
# the others dropped with a message (an older ROCm's compiler does not know the newest GPUs).
# Otherwise the user's list as given, and a configure error if hipcc rejects one of them.
function(dlarray_hip_architectures hipcc requested out)
  if(requested)
    foreach(arch IN LISTS requested)
      dlarray_hipcc_accepts(${hipcc} ${arch} ok why)
      if(NOT ok)
        message(FATAL_ERROR "DLARRAY_HIP_ARCHITECTURES names ${arch}, which ${hipcc} cannot compile for (${why}). "
                            "Use a ROCm whose compiler knows it, or leave it out.")
      endif()
    endforeach()
    set(${out} ${requested} PARENT_SCOPE)
    return()
  endif()
  set(kept)
  foreach(arch IN LISTS DLARRAY_HIP_DEFAULT_ARCHITECTURES)
    dlarray_hipcc_accepts(${hipcc} ${arch} ok why)
    if(ok)
      list(APPEND kept ${arch})
    else()
      message(STATUS "dlarray: ROCm target ${arch} left out: ${hipcc} cannot compile for it (${why})")
    endif()
  endforeach()
  if(NOT kept)
    message(FATAL_ERROR "${hipcc} compiles for none of dlarray's default ROCm targets "
                        "(${DLARRAY_HIP_DEFAULT_ARCHITECTURES}); name yours with -DDLARRAY_HIP_ARCHITECTURES=...")
  endif()
  set(${out} ${kept} PARENT_SCOPE)
endfunction()

# The major version of the HIP runtime `library` (libamdhip64) in ${out}: the module depends on
# libamdhip64.so.<major>, which only a ROCm of that major version ships. Read from the name the
# library resolves to (its SONAME's version), else from hip_version.h beside hipcc's headers;
# "unknown" when neither says.
function(dlarray_hip_runtime_major library out)
  file(REAL_PATH "${library}" resolved)
  get_filename_component(name "${resolved}" NAME)
  if(name MATCHES "^libamdhip64\\.so\\.([0-9]+)")
    set(${out} ${CMAKE_MATCH_1} PARENT_SCOPE)
    return()
  endif()
  find_file(DLARRAY_HIP_VERSION_H hip/hip_version.h HINTS /opt/rocm/include)
  if(DLARRAY_HIP_VERSION_H)
    file(STRINGS "${DLARRAY_HIP_VERSION_H}" line REGEX "#define[ \t]+HIP_VERSION_MAJOR[ \t]+[0-9]+")
    if(line MATCHES "([0-9]+)[ \t]*$")
      set(${out} ${CMAKE_MATCH_1} PARENT_SCOPE)
      return()
    endif()
  endif()
  set(${out} unknown PARENT_SCOPE)
endfunction()
