// Shared by the GUI tests: model checking and waiting for the background loader.
#pragma once

#include "app/models/table_model.h"

#include <QAbstractItemModelTester>
#include <QCoreApplication>
#include <QElapsedTimer>
#include <QSortFilterProxyModel>
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

// Checks `model` and the sort/filter proxy the views put over it while `fill` resets it: filled,
// sorted by column 1, filtered and unfiltered, filled again over the sorted proxy.
inline void checkThroughProxy(QAbstractItemModel* model, const std::function<void()>& fill) {
    auto tester = testModel(model);
    QSortFilterProxyModel proxy;
    proxy.setSourceModel(model);
    proxy.setRecursiveFilteringEnabled(true);
    proxy.setSortRole(cs::gui::SortRole);
    proxy.setFilterRole(cs::gui::FilterRole);
    auto proxyTester = testModel(&proxy);
    fill();
    proxy.sort(1, Qt::DescendingOrder);
    proxy.setFilterFixedString(QStringLiteral("e"));
    proxy.setFilterFixedString(QString());
    fill();  // a second reset over a sorted proxy
    expectModelOk();
}

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
