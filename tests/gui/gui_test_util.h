// Shared by the GUI tests: model checking and waiting for the background loader.
#pragma once

#include <QAbstractItemModelTester>
#include <QCoreApplication>
#include <QElapsedTimer>
#include <QStringList>
#include <QThread>

#include <gtest/gtest.h>

#include <functional>
#include <memory>

namespace cs::test {

QStringList& qtFailures();

// Attaches QAbstractItemModelTester (reporting as warnings, caught by the test main); call
// expectModelOk() after the model changed to assert it found nothing.
inline std::unique_ptr<QAbstractItemModelTester> testModel(QAbstractItemModel* model) {
    qtFailures().clear();
    return std::make_unique<QAbstractItemModelTester>(model, QAbstractItemModelTester::FailureReportingMode::Warning);
}
inline void expectModelOk() { EXPECT_TRUE(qtFailures().isEmpty()) << qtFailures().join(QLatin1Char('\n')).toStdString(); }

// Processes events until `done` or the timeout; returns done().
inline bool waitFor(const std::function<bool()>& done, int timeoutMs = 20000) {
    QElapsedTimer t;
    t.start();
    while (!done() && t.elapsed() < timeoutMs) {
        QCoreApplication::processEvents(QEventLoop::AllEvents, 20);
        QThread::msleep(2);
    }
    return done();
}

}  // namespace cs::test
