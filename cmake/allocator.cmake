# The executables that replay (hetsched and the benchmarks) link jemalloc when it is there:
# a window-scheduler replay makes millions of short-lived allocations (bids, windows,
# incumbents) and jemalloc serves them about 15 % faster than glibc's malloc at a few MiB
# more memory (docs/window-schedulers.md, "Session 18"). The schedules do not depend on it.
# Not under the sanitizers, which bring their own malloc; the tests and the Python module
# keep the system allocator.
option(HETSCHED_JEMALLOC "Link hetsched and the benchmarks with jemalloc (libjemalloc-dev)" ON)
set(HETSCHED_ALLOCATOR_LIBRARY "")
if(HETSCHED_JEMALLOC AND NOT CMAKE_CXX_FLAGS MATCHES "-fsanitize")
  find_library(HETSCHED_JEMALLOC_LIBRARY NAMES jemalloc)
  if(HETSCHED_JEMALLOC_LIBRARY)
    set(HETSCHED_ALLOCATOR_LIBRARY ${HETSCHED_JEMALLOC_LIBRARY})
    message(STATUS "allocator: jemalloc (${HETSCHED_JEMALLOC_LIBRARY})")
  else()
    message(STATUS "allocator: the system's (no jemalloc; scripts/install-deps.sh installs libjemalloc-dev)")
  endif()
endif()

function(hetsched_link_allocator target)
  if(HETSCHED_ALLOCATOR_LIBRARY)
    target_link_libraries(${target} PRIVATE ${HETSCHED_ALLOCATOR_LIBRARY})
  endif()
endfunction()
