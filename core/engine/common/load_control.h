// Progress and cancellation of a long load, without any GUI dependency.
//
// Why here: loading a 10M-event trace takes seconds; the GUI runs the loaders of this directory on
// a worker thread and must show progress and stop them on request. The loaders poll `cancelled()`
// between chunks of rows and throw LoadCancelled, so no half-built snapshot ever escapes.
#pragma once

#include <atomic>
#include <functional>
#include <stdexcept>
#include <string_view>

namespace cs::engine {

struct LoadCancelled : std::runtime_error {
    LoadCancelled() : std::runtime_error("loading cancelled") {}
};

struct LoadControl {
    std::function<void(int percent, std::string_view stage)> progress{};  // may be empty
    const std::atomic<bool>* cancel = nullptr;                           // may be null

    void report(int percent, std::string_view stage) const {
        if (progress) progress(percent, stage);
    }
    void check() const {
        if (cancel && cancel->load(std::memory_order_relaxed)) throw LoadCancelled();
    }
};

}  // namespace cs::engine
