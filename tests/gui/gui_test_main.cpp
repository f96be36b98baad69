// GoogleTest main for the GUI tests: a QApplication on the offscreen platform (no display needed),
// and a message handler that turns QAbstractItemModelTester complaints into test failures.
#include "gui_test_util.h"

#include <QApplication>

#include <gtest/gtest.h>

namespace cs::test {
QStringList& qtFailures() {
    static QStringList failures;
    return failures;
}
}  // namespace cs::test

namespace {
void handler(QtMsgType type, const QMessageLogContext&, const QString& msg) {
    if (type != QtDebugMsg && type != QtInfoMsg && msg.contains(QStringLiteral("FAIL!"))) cs::test::qtFailures() << msg;
}
}  // namespace

int main(int argc, char** argv) {
    qputenv("QT_QPA_PLATFORM", "offscreen");
    ::testing::InitGoogleTest(&argc, argv);
    QApplication app(argc, argv);
    QApplication::setOrganizationName(QStringLiteral("CompileScopeTests"));
    QApplication::setApplicationName(QStringLiteral("compilescope-gui-tests"));
    qInstallMessageHandler(handler);
    return RUN_ALL_TESTS();
}
