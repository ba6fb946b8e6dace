// The solver's fork-join pool (support/worker_pool.h).
#include "support/worker_pool.h"

#include <algorithm>
#include <memory>

#if defined(__linux__)
#include <sched.h>
#endif

#if defined(__x86_64__) || defined(__i386__)
#include <immintrin.h>
#endif

namespace jl::solver {

namespace {

inline void cpuRelax() {
#if defined(__x86_64__) || defined(__i386__)
    _mm_pause();
#else
    std::this_thread::yield();
#endif
}

// How long a worker spins for the next run before it sleeps. A running step forks every few
// microseconds to a few hundred; about 2^16 pauses (tens of microseconds to a millisecond,
// depending on the CPU's pause) cover that and no more.
constexpr int kWorkerSpins = 1 << 16;
// The caller waits for the workers' share of a run, which is as long as its own: it spins, and
// yields now and then in case a worker is waiting for this core (more threads than cores).
constexpr int kCallerSpinsBeforeYield = 1 << 12;
// A waiting worker yields as often, so that on a machine with more runnable threads than cores
// (two test processes, each with a worker) it gives the core to one that has work.
constexpr int kWorkerSpinsBeforeYield = 1 << 12;

}  // namespace

WorkerPool::WorkerPool(int workers) {
    threads_.reserve(static_cast<size_t>(workers > 0 ? workers : 0));
    for (int k = 1; k <= workers; ++k) threads_.emplace_back([this, k] { workerLoop(k); });
}

WorkerPool::~WorkerPool() {
    stop_.store(true, std::memory_order_relaxed);
    publish();
    for (std::thread& t : threads_) t.join();
}

void WorkerPool::publish() {
    generation_.fetch_add(1, std::memory_order_seq_cst);
    if (sleepers_.load(std::memory_order_seq_cst) > 0) {
        std::lock_guard<std::mutex> lock(mutex_);
        wake_.notify_all();
    }
}

void WorkerPool::runShare(int k) {
    const int stride = workers() + 1;
    for (int t = k; t < tasks_; t += stride) fn_(ctx_, t);
}

void WorkerPool::waitFor(const std::atomic<uint32_t>& flag, uint32_t value) {
    for (uint32_t spins = 1; static_cast<int32_t>(flag.load(std::memory_order_acquire) - value) < 0;
         ++spins) {
        cpuRelax();
        if (spins % kWorkerSpinsBeforeYield == 0) std::this_thread::yield();
    }
}

namespace {
std::atomic<int> gCoresOverride{0};
}  // namespace

void WorkerPool::overrideUsableCores(int n) {
    gCoresOverride.store(n, std::memory_order_relaxed);
}

int WorkerPool::usableCores() {
    if (const int n = gCoresOverride.load(std::memory_order_relaxed); n > 0) return n;
    static const int cores = [] {
#if defined(__linux__)
        cpu_set_t set;
        CPU_ZERO(&set);
        if (sched_getaffinity(0, sizeof set, &set) == 0) return std::max(1, CPU_COUNT(&set));
#endif
        return static_cast<int>(std::max(1u, std::thread::hardware_concurrency()));
    }();
    return cores;
}

WorkerPool& WorkerPool::shared(int workers) {
    static std::mutex made;
    static std::unique_ptr<WorkerPool> pools[kMaxSharedWorkers + 1];
    const int k = std::clamp(workers, 0, kMaxSharedWorkers);
    std::lock_guard<std::mutex> lock(made);
    if (!pools[k]) pools[k] = std::make_unique<WorkerPool>(k);
    return *pools[k];
}

void WorkerPool::run(int tasks, TaskFn fn, void* ctx) {
    std::unique_lock<std::mutex> mine(busy_, std::try_to_lock);
    if (!mine.owns_lock()) {  // another thread's run: do it all here (the same work per task)
        for (int t = 0; t < tasks; ++t) fn(ctx, t);
        return;
    }
    execute(tasks, fn, ctx);
}

bool WorkerPool::runTogether(int tasks, TaskFn fn, void* ctx) {
    if (tasks - 1 > workers()) return false;
    std::unique_lock<std::mutex> mine(busy_, std::try_to_lock);
    if (!mine.owns_lock()) return false;
    execute(tasks, fn, ctx);  // thread k runs task k: all at once
    return true;
}

void WorkerPool::execute(int tasks, TaskFn fn, void* ctx) {
    fn_ = fn;
    ctx_ = ctx;
    tasks_ = tasks;
    const int busy = std::min(workers(), tasks - 1);  // workers with at least one task
    if (busy > 0) {
        pending_.store(workers(), std::memory_order_relaxed);
        publish();  // (its increment publishes fn_, ctx_ and tasks_)
    }
    runShare(0);
    if (busy <= 0) return;
    for (uint32_t spins = 1; pending_.load(std::memory_order_acquire) != 0; ++spins) {
        cpuRelax();
        if (spins % kCallerSpinsBeforeYield == 0) std::this_thread::yield();
    }
}

void WorkerPool::workerLoop(int k) {
    // Generation 0 is the one before the first run, whenever this thread gets going: reading
    // generation_ here instead would miss a run() that came first (a World steps right after
    // it makes its pool).
    uint32_t seen = 0;
    for (;;) {
        uint32_t now = generation_.load(std::memory_order_acquire);
        for (int spins = 1; now == seen && spins < kWorkerSpins; ++spins) {
            cpuRelax();
            if (spins % kWorkerSpinsBeforeYield == 0) std::this_thread::yield();  // (more threads than cores)
            now = generation_.load(std::memory_order_acquire);
        }
        if (now == seen) {
            std::unique_lock<std::mutex> lock(mutex_);
            sleepers_.fetch_add(1, std::memory_order_seq_cst);
            while ((now = generation_.load(std::memory_order_seq_cst)) == seen) wake_.wait(lock);
            sleepers_.fetch_sub(1, std::memory_order_relaxed);
        }
        seen = now;
        if (stop_.load(std::memory_order_relaxed)) return;
        runShare(k);
        pending_.fetch_sub(1, std::memory_order_release);
    }
}

}  // namespace jl::solver
