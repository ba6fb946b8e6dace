// The benchmarks' clock for work on one thread (harness.cpp, telemetry_bench.cpp, history_bench.cpp).
#pragma once

#include <ctime>

namespace bench {

/// CPU time of the calling thread [ms]: unlike wall time it leaves out the time other processes
/// of a busy machine hold the core (their cache pollution stays in).
inline double threadCpuMs() {
    timespec t{};
    clock_gettime(CLOCK_THREAD_CPUTIME_ID, &t);
    return static_cast<double>(t.tv_sec) * 1e3 + static_cast<double>(t.tv_nsec) * 1e-6;
}

}  // namespace bench
