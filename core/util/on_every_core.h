// Runs work(0) .. work(n - 1) on every core, each index once, and rethrows the first failure in index
// order once all have stopped.
//
// Why: several traces are analysed at once (`report` with many traces, both sides of `diff`), each
// on its own SQLite connection; the engine keeps no shared state, so one thread per core is all the
// coordination they need. The caller gets its failures in argument order, as if run one by one.
#pragma once

#include <algorithm>
#include <atomic>
#include <cstddef>
#include <exception>
#include <thread>
#include <vector>

namespace cs::util {

template <typename Work>
void onEveryCore(size_t n, Work&& work) {
    std::vector<std::exception_ptr> errors(n);
    std::atomic<size_t> next{0};
    auto loop = [&] {
        for (size_t i = next++; i < n; i = next++) {
            try {
                work(i);
            } catch (...) {
                errors[i] = std::current_exception();
            }
        }
    };
    const size_t threads = std::min<size_t>(n, std::max(1u, std::thread::hardware_concurrency()));
    std::vector<std::thread> pool;
    for (size_t t = 1; t < threads; ++t) pool.emplace_back(loop);
    loop();
    for (auto& t : pool) t.join();
    for (const auto& e : errors)
        if (e) std::rethrow_exception(e);
}

}  // namespace cs::util
