// JointLab engine — a small fork-join pool for the solver's parallel parts (docs/performance.md
// "Threads"). Internal to the engine.
//
// The step forks a few times per sweep, thousands of times a second, so a fork must cost
// microseconds, not a thread start: the workers are made once and wait for work on an atomic
// generation counter, spinning briefly (the next fork of a running step follows within
// microseconds) and then sleeping on a condition variable so an idle World costs no CPU.
//
// Results never depend on the pool: task t always does the same work whichever thread runs it,
// and the tasks of one run write disjoint data. How many threads run them (fewer cores, no
// workers at all, or the caller alone because another thread is using the pool) changes only the
// speed.
//
// The Worlds of a process share one pool per worker count (WorkerPool::shared): a test or a tool
// that keeps several Worlds with threads > 1 would otherwise keep a spinning worker for each and
// ask more of the cores than there are.
#pragma once

#include <atomic>
#include <condition_variable>
#include <cstdint>
#include <mutex>
#include <thread>
#include <vector>

namespace jl::solver {

class WorkerPool {
public:
    /// `workers` threads besides the caller's (0: run() does every task itself).
    explicit WorkerPool(int workers);
    ~WorkerPool();
    WorkerPool(const WorkerPool&) = delete;
    WorkerPool& operator=(const WorkerPool&) = delete;

    int workers() const { return static_cast<int>(threads_.size()); }

    /// The process's pool of `workers` workers (1..kMaxSharedWorkers; made on first use and
    /// kept until exit).
    static WorkerPool& shared(int workers);

    /// CPUs this process may run on (its affinity mask on Linux; at least 1), asked once.
    /// std::thread::hardware_concurrency() counts every online CPU: under `taskset -c 0` or in a
    /// one-CPU container it says 2 here, and a worker then spins against the caller on one core.
    static int usableCores();
    /// Tests: makes usableCores() return n (0: the real count again), so that a test on a 2-core
    /// machine can give three parts a thread each. Worlds read it when they step.
    static void overrideUsableCores(int n);
    static constexpr int kMaxSharedWorkers = 15;

    /// Runs fn(ctx, t) for t in [0, tasks) and returns when all have finished. Thread k of the
    /// workers + 1 (the caller is 0) runs tasks k, k + workers + 1, ... While another thread is
    /// in run(), the caller runs every task itself.
    using TaskFn = void (*)(void* ctx, int task);
    void run(int tasks, TaskFn fn, void* ctx);

    /// The same, but only if every task can have a thread of its own at once (tasks ≤ workers + 1
    /// and no other thread in run()); returns false, having run nothing, if not. For tasks that
    /// wait on each other in both directions (solver::sweepPartsTogether).
    bool runTogether(int tasks, TaskFn fn, void* ctx);
    template <class F>
    bool runTogether(int tasks, F& f) {
        return runTogether(
            tasks, [](void* c, int t) { (*static_cast<F*>(c))(t); }, &f);
    }

    /// Spins (yielding now and then) until `flag` has reached `value` (counting modulo 2^32: a
    /// value up to 2^31 − 1 past it counts as reached), then returns with an acquire: what the
    /// thread that stored it (with a release) wrote before is visible. For a task waiting on
    /// another task of the same run: run() runs task 0 on the calling thread before anything
    /// else there, so waiting on task 0 never deadlocks; waits in both directions need
    /// runTogether().
    static void waitFor(const std::atomic<uint32_t>& flag, uint32_t value);

    /// run() with a callable taking the task index.
    template <class F>
    void run(int tasks, F& f) {
        run(
            tasks, [](void* c, int t) { (*static_cast<F*>(c))(t); }, &f);
    }

private:
    void workerLoop(int k);
    void publish();  // starts the next run (or the stop)
    void runShare(int k);
    void execute(int tasks, TaskFn fn, void* ctx);  // run()'s work, busy_ held

    std::vector<std::thread> threads_;
    std::atomic<uint32_t> generation_{0};  // bumped once per run (and to stop)
    std::atomic<int> pending_{0};          // workers still busy with the current run
    std::atomic<bool> stop_{false};
    // Sleeping workers: one counts itself in sleepers_ (holding mutex_) before its last look at
    // generation_; run() bumps generation_ before it looks at sleepers_. Both sequentially
    // consistent, so either the worker sees the new run or run() sees the sleeper and notifies
    // under the mutex, which the sleeper holds until it waits.
    std::atomic<int> sleepers_{0};
    std::mutex mutex_;
    std::condition_variable wake_;
    std::mutex busy_;  // held by the thread in run()
    // The current run; written before generation_ is bumped, read after it is seen.
    TaskFn fn_ = nullptr;
    void* ctx_ = nullptr;
    int tasks_ = 0;
};

}  // namespace jl::solver
