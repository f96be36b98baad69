// The real main window, shown offscreen with `path` opened and loaded: how the view tests start.
#pragma once

#include "gui_test_util.h"

#include "app/gui/main_window.h"

#include <memory>
#include <string>

namespace cs::test {

inline std::unique_ptr<gui::MainWindow> openWindow(const std::string& path) {
    auto window = std::make_unique<gui::MainWindow>();
    window->resize(1280, 800);
    window->show();
    window->openTraces({QString::fromStdString(path)});
    EXPECT_TRUE(waitFor([&] { return !window->isLoading(); })) << "loading did not finish";
    return window;
}

}  // namespace cs::test
