// The main() of the GUI benchmarks: Google Benchmark inside a QApplication on the offscreen
// platform (the widgets are real, no display is needed). Include it once, in the benchmark's file.
#pragma once

#include <QApplication>

#include <benchmark/benchmark.h>

int main(int argc, char** argv) {
    qputenv("QT_QPA_PLATFORM", "offscreen");
    QApplication app(argc, argv);
    benchmark::Initialize(&argc, argv);
    benchmark::RunSpecifiedBenchmarks();
    benchmark::Shutdown();
    return 0;
}
