// compilescope-gui [TRACE...]: the desktop viewer.
#include "main_window.h"

#include <QApplication>
#include <QCommandLineParser>

int main(int argc, char** argv) {
    QApplication app(argc, argv);
    QApplication::setOrganizationName(QStringLiteral("CompileScope"));
    QApplication::setApplicationName(QStringLiteral("compilescope-gui"));
    QApplication::setApplicationVersion(QStringLiteral(COMPILESCOPE_VERSION));
    QCommandLineParser parser;
    parser.setApplicationDescription(QStringLiteral("Shows every compile a JIT stack does, and why it happened."));
    parser.addHelpOption();
    parser.addVersionOption();
    parser.addPositionalArgument(QStringLiteral("traces"), QStringLiteral("Trace files (.cstrace) to open as lanes of one timeline."));
    QCommandLineOption shots(QStringLiteral("screenshot-dir"),
                             QStringLiteral("Load the traces, save one PNG per view into DIR, and quit."), QStringLiteral("DIR"));
    parser.addOption(shots);
    parser.process(app);

    cs::gui::MainWindow window;
    window.show();
    window.openTraces(parser.positionalArguments());
    if (parser.isSet(shots)) window.takeScreenshots(parser.value(shots), [] { QApplication::quit(); });
    return QApplication::exec();
}
