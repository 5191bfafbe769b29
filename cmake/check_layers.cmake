# check_layers.cmake -- the build check that layers point one way.
#
#   cmake -DROOT=<tree with src/ and include/> -P check_layers.cmake
#
# Every `#include "..."` in src/<layer>/ is resolved (relative to the file,
# then to src/, then to include/) and must name a file of a layer this one
# may use (docs/ARCHITECTURE.md, "Folders"); a header named *_int.h or
# *_internal.h is private to its own layer (e.g. core/core_int.h: the SM's
# structs, which gpu/ may not see).  A violation is printed as
# file:line with both layers and fails the check; the build runs it on every
# change (target layer_check, part of ALL) and a test feeds it a tree with a
# violation to show that it fails.
cmake_minimum_required(VERSION 3.25)
if(NOT ROOT)
  message(FATAL_ERROR "check_layers: set -DROOT=<source tree>")
endif()

# layer -> the layers it may include (itself always); "abi" is
# include/warpsim_policy.h, "api" include/warpsim.h
set(allow_ptx    "")
set(allow_emu    "ptx")
set(allow_common "")
set(allow_policy "abi")
set(allow_mem    "common;abi")
set(allow_core   "emu;ptx;mem;common;policy;abi")
set(allow_gpu    "core;mem;emu;ptx;common;policy;abi")
set(allow_api    "gpu;core;mem;emu;ptx;common;policy;abi;api")
set(allow_cuda   "api")
set(allow_cli    "api;abi;ptx;gpu;common;policy")
set(layers ptx emu common policy mem core gpu api cuda cli)

function(layer_of path out)
  file(RELATIVE_PATH rel "${ROOT}" "${path}")
  if(rel STREQUAL "include/warpsim_policy.h")
    set(${out} abi PARENT_SCOPE)
  elseif(rel MATCHES "^include/")
    set(${out} api PARENT_SCOPE)
  elseif(rel MATCHES "^src/([a-z]+)/")
    set(${out} "${CMAKE_MATCH_1}" PARENT_SCOPE)
  else()
    set(${out} "" PARENT_SCOPE)
  endif()
endfunction()

set(bad 0)
foreach(layer IN LISTS layers)
  file(GLOB files "${ROOT}/src/${layer}/*.c" "${ROOT}/src/${layer}/*.h")
  foreach(f IN LISTS files)
    file(STRINGS "${f}" lines REGEX "^[ \t]*#[ \t]*include[ \t]*\"")
    file(STRINGS "${f}" all)
    get_filename_component(dir "${f}" DIRECTORY)
    foreach(line IN LISTS lines)
      string(REGEX REPLACE "^[ \t]*#[ \t]*include[ \t]*\"([^\"]+)\".*" "\\1" inc "${line}")
      set(target "")
      foreach(base "${dir}" "${ROOT}/src" "${ROOT}/include")
        get_filename_component(cand "${inc}" ABSOLUTE BASE_DIR "${base}")
        if(EXISTS "${cand}" AND target STREQUAL "")
          set(target "${cand}")
        endif()
      endforeach()
      if(target STREQUAL "")
        continue()   # generated or system-provided: not a layer
      endif()
      layer_of("${target}" to)
      get_filename_component(base "${target}" NAME)
      set(private FALSE)
      if(base MATCHES "_int(ernal)?\\.h$" AND NOT to STREQUAL layer)
        set(private TRUE)
      endif()
      if(NOT private AND (to STREQUAL "" OR to STREQUAL layer OR to IN_LIST allow_${layer}))
        continue()
      endif()
      list(FIND all "${line}" idx)
      math(EXPR lineno "${idx} + 1")
      file(RELATIVE_PATH rel "${ROOT}" "${f}")
      if(private)
        message("${rel}:${lineno}: layer ${layer}/ includes ${inc}, a header private to ${to}/")
      else()
        message("${rel}:${lineno}: layer ${layer}/ includes ${inc} of layer ${to}/, "
                "which it may not use (allowed: ${allow_${layer}})")
      endif()
      math(EXPR bad "${bad} + 1")
    endforeach()
  endforeach()
endforeach()
if(bad GREATER 0)
  message(FATAL_ERROR "check_layers: ${bad} include(s) against the layering")
endif()
