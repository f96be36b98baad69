// compilescope-gui [--baseline TRACE] [--trust-unsealed] [TRACE...]: the desktop viewer.
#include "main_window.h"

#include "core/trace/unsealed_policy.h"

#include <QApplication>
#include <QCommandLineParser>

#include <cstdio>

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
    QCommandLineOption size(QStringLiteral("window-size"),
                            QStringLiteral("Initial window size, e.g. 1000x700 (screenshots at a given width)."), QStringLiteral("WxH"));
    parser.addOption(size);
    QCommandLineOption baseline(QStringLiteral("baseline"),
                                QStringLiteral("Compare the traces with this baseline run (as File > Compare with baseline…)."),
                                QStringLiteral("TRACE"));
    parser.addOption(baseline);
    QCommandLineOption ranks(QStringLiteral("ranks"),
                             QStringLiteral("The traces are the ranks of one job: compare them (Ranks view) even when "
                                            "their command lines differ."));
    parser.addOption(ranks);
    QCommandLineOption trustUnsealed(QStringLiteral("trust-unsealed"),
                                     QStringLiteral("Open traces without valid page checksums (edited, or from a recording that "
                                                    "never finished) instead of refusing them; see compilescope seal."));
    parser.addOption(trustUnsealed);
    parser.process(app);
    cs::trace::setTrustUnsealed(parser.isSet(trustUnsealed));

    cs::gui::MainWindow window;
    if (parser.isSet(size)) {
        const QStringList wh = parser.value(size).split(QLatin1Char('x'));
        bool okW = false, okH = false;
        const int w = wh.value(0).toInt(&okW), h = wh.value(1).toInt(&okH);
        if (wh.size() != 2 || !okW || !okH || w < 200 || h < 200 || w > 10000 || h > 10000) {
            std::fprintf(stderr, "compilescope-gui: --window-size wants WxH between 200x200 and 10000x10000, got '%s'\n",
                         qPrintable(parser.value(size)));
            return 2;
        }
        window.resize(w, h);
    }
    window.show();
    window.setCompareAsRanks(parser.isSet(ranks));
    window.openTraces(parser.positionalArguments());
    if (parser.isSet(baseline)) window.compareWithBaseline(parser.value(baseline));
    if (parser.isSet(shots)) window.takeScreenshots(parser.value(shots), [] { QApplication::quit(); });
    return QApplication::exec();
}
