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

# The accuracy sweep (--quick: 1, 4 and 10 iterations over 1 s) writes its CSV and its chart: a line
# with finite points for every engine, and for JointLab's two solvers at α = 0.2 as well.
if(SWEEP_DIR)
  file(MAKE_DIRECTORY "${SWEEP_DIR}")
  file(REMOVE "${SWEEP_DIR}/sweep.csv" "${SWEEP_DIR}/sweep.svg")
  execute_process(COMMAND ${BENCH} --quick --sweep-only --sweep "${SWEEP_DIR}/sweep.csv"
                  RESULT_VARIABLE rc OUTPUT_VARIABLE sweep_out ERROR_VARIABLE err)
  if(NOT rc EQUAL 0)
    message(FATAL_ERROR "jointlab_bench --quick --sweep-only exited with ${rc}:\n${err}")
  endif()
  foreach(f sweep.csv sweep.svg)
    if(NOT EXISTS "${SWEEP_DIR}/${f}")
      message(FATAL_ERROR "the sweep did not write ${f}")
    endif()
  endforeach()
  file(READ "${SWEEP_DIR}/sweep.svg" svg)
  string(REGEX MATCHALL "<polyline [^>]*points=\"[0-9., ]+\"" lines "${svg}")
  list(LENGTH lines n)
  list(LENGTH labels engines)
  math(EXPR expected "${engines} + 2")
  if(NOT n EQUAL expected)
    message(FATAL_ERROR "the sweep chart has ${n} lines with numeric points, expected ${expected}:\n${svg}")
  endif()
  foreach(label IN LISTS labels)
    string(FIND "${svg}" ">${label}</text>" at)
    if(at EQUAL -1)
      message(FATAL_ERROR "the sweep chart has no legend entry '${label}'")
    endif()
  endforeach()
  message(STATUS "bench_quick: sweep chart with ${n} lines")
endif()
