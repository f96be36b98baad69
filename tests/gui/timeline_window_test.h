// A main window opened offscreen on one trace, with its Timeline tab current: the fixture of the
// timeline's tests.
#pragma once

#include "gui_test_util.h"

#include "app/gui/main_window.h"
#include "app/plots/timeline_plot.h"
#include "app/widgets/timeline_view.h"
#include "demo_trace_builder.h"
#include "test_util.h"

#include <QApplication>
#include <QTabWidget>

#include <gtest/gtest.h>

#include <memory>
#include <string>

namespace cs::test {

class TimelineWindowTest : public ::testing::Test {
protected:
    void open(const std::string& file) {
        window = std::make_unique<cs::gui::MainWindow>();
        window->resize(1200, 800);
        window->show();
        window->openTraces({QString::fromStdString(file)});
        ASSERT_TRUE(waitFor([&] { return !window->isLoading(); })) << "loading did not finish";
        window->tabs()->setCurrentWidget(window->timeline());
        QApplication::processEvents();
    }
    void openDemo() {
        demo::writeDemoTrace(dir.file("demo.cstrace"));
        open(dir.file("demo.cstrace"));
    }
    cs::gui::TimelinePlot* plot() const { return window->timeline()->plot(); }
    TempDir dir;
    std::unique_ptr<cs::gui::MainWindow> window;
};

}  // namespace cs::test
