# ctest bench_quick: `jointlab_bench --quick` on the two smallest scenes must exit 0 and print
# its three tables with a finite row for every engine that was built. No timing is asserted.
#   cmake -DBENCH=<jointlab_bench> -DHAVE_BULLET=<bool> -DHAVE_ODE=<bool> -P check_quick_run.cmake

execute_process(COMMAND ${BENCH} --quick --scene chain10,chain10_heavy
                RESULT_VARIABLE rc OUTPUT_VARIABLE out ERROR_VARIABLE err)
message("${out}")
if(NOT rc EQUAL 0)
  message(FATAL_ERROR "jointlab_bench --quick exited with ${rc}:\n${err}")
endif()

set(labels "JointLab PGS" "JointLab TGS")
if(HAVE_BULLET)
  list(APPEND labels "Bullet")
endif()
if(HAVE_ODE)
  list(APPEND labels "ODE")
endif()

foreach(title "### Speed" "### Accuracy at 10 iterations" "### JointLab / peer")
  string(FIND "${out}" "${title}" at)
  if(at EQUAL -1)
    message(FATAL_ERROR "the output has no table '${title}'")
  endif()
endforeach()

foreach(scene chain10 chain10_heavy)
  foreach(label IN LISTS labels)
    # A speed row: scene, engine, a row count and a number for every iteration count.
    string(REGEX MATCH "\\| ${scene} \\| ${label} \\| [0-9]+ \\| [0-9.e+-]+ \\| [0-9.e+-]+ \\| [0-9.e+-]+ \\| [0-9.e+-]+ \\|" row "${out}")
    if(row STREQUAL "")
      message(FATAL_ERROR "no speed row with numbers for ${scene} / ${label}")
    endif()
  endforeach()
endforeach()
message(STATUS "bench_quick: tables complete for ${labels}")
