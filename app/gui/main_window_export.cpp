// MainWindow's exports: the current view's plot as PNG or SVG, the HTML report of the open traces and
// the current trace as Trace Event Format JSON, the last two written on a thread of their own; and a
// picture of every view (takeScreenshots).
#include "main_window.h"

#include "app/plots/bar_chart.h"
#include "app/widgets/diff_view.h"
#include "app/widgets/overview_view.h"
#include "app/widgets/search_view.h"
#include "app/widgets/timeline_view.h"
#include "core/engine/export/tef_export.h"
#include "core/report/report.h"
#include "core/trace/reader.h"

#include <QApplication>
#include <QDir>
#include <QElapsedTimer>
#include <QFile>
#include <QFileDialog>
#include <QLineEdit>
#include <QLabel>
#include <QMessageBox>
#include <QTabWidget>
#include <QThread>
#include <QTimer>

#include <fstream>

namespace cs::gui {

void MainWindow::exportPlot(bool svg) {
    ExportablePlot* plot = nullptr;
    QWidget* w = m_tabs->currentWidget();
    if (w == m_timeline) plot = m_timeline->plot();
    else if (w == m_overview) plot = m_overview->chart();
    else if (auto* p = w->findChild<BarChart*>()) plot = p;
    if (!plot) {
        QMessageBox::information(this, QStringLiteral("Export plot"), QStringLiteral("This view has no plot to export."));
        return;
    }
    QString path = QFileDialog::getSaveFileName(this, QStringLiteral("Export plot"), QString(),
                                                svg ? QStringLiteral("SVG (*.svg)") : QStringLiteral("PNG (*.png)"));
    if (path.isEmpty()) return;
    bool ok = false;
    if (svg) {
        QFile f(path);
        ok = f.open(QIODevice::WriteOnly) && f.write(plot->toSvg().toUtf8()) > 0;
    } else {
        ok = plot->savePng(path);
    }
    setStatus(ok ? QStringLiteral("Wrote %1").arg(path) : QStringLiteral("Could not write %1").arg(path), ok ? Status::Passing : Status::Stays);
}

void MainWindow::exportReportTo(const QString& path) {
    std::vector<std::string> traces;
    for (const TraceDocument& d : m_docs) traces.push_back(d.path.toStdString());
    writeInBackground(path, [traces](std::ostream& file) {
        report::ReportOptions options;
        options.generator = "compilescope-gui";
        report::writeReport(traces, options, file);
    });
}

void MainWindow::exportTefTo(const QString& path) {
    const TraceDocument* current = m_docs.currentDocument();
    if (!current) return;
    const std::string source = current->path.toStdString();
    // The same exporter as `compilescope export --format tef`; it reads SQLite, so not on this thread.
    writeInBackground(path, [source](std::ostream& file) { engine::exportTef(*trace::TraceReader::open(source), file); });
}

void MainWindow::writeInBackground(const QString& path, std::function<void(std::ostream&)> write) {
    if (m_reportThread) return;  // one export at a time
    std::string out = path.toStdString();
    setStatus(QStringLiteral("Writing %1…").arg(path));
    m_reportThread = QThread::create([this, write = std::move(write), out, path] {
        QString error;
        try {
            std::ofstream file(out, std::ios::binary);
            if (!file) throw std::runtime_error("cannot write " + out);
            write(file);
            if (!file.flush()) throw std::runtime_error("cannot write " + out);
        } catch (const std::exception& e) {
            error = QString::fromUtf8(e.what());
        }
        emit reportWritten(path, error);  // queued to the GUI thread
    });
    connect(m_reportThread, &QThread::finished, this, [this] {
        m_reportThread->deleteLater();
        m_reportThread = nullptr;
    });
    m_reportThread->start();
}

void MainWindow::takeScreenshots(const QString& dir, std::function<void()> done) {
    auto shoot = [this, dir, done] {
        QDir().mkpath(dir);
        if (m_docs.empty()) {  // no trace: the start screen is what the user sees
            grab().save(QStringLiteral("%1/00-start.png").arg(dir));
            return done();
        }
        for (int i = 0; i < m_tabs->count(); ++i) {
            if (!m_tabs->isTabVisible(i)) continue;  // a view for facts the traces do not hold
            m_tabs->setCurrentIndex(i);
            if (m_tabs->widget(i) == m_search && m_searchBox->text().isEmpty()) {
                m_searchBox->setText(QStringLiteral("compile"));
                runSearch(false);
                // The hits by span argument come from a worker thread: the picture shows them too.
                QElapsedTimer waited;
                waited.start();
                while (m_search->argumentsPending() && waited.elapsed() < 5000) QApplication::processEvents(QEventLoop::AllEvents, 50);
            }
            // The diff against a baseline comes from a worker thread too.
            if (m_tabs->widget(i) == m_diffView) {
                QElapsedTimer waited;
                waited.start();
                while (m_diffView->pending() && waited.elapsed() < 60000) QApplication::processEvents(QEventLoop::AllEvents, 50);
            }
            QApplication::processEvents();
            if (m_tabs->widget(i) == m_timeline) m_timeline->plot()->replot();
            QString name = m_tabs->tabText(i).toLower().remove(QLatin1Char('&'));
            grab().save(QStringLiteral("%1/%2-%3.png").arg(dir).arg(i + 1, 2, 10, QLatin1Char('0')).arg(name));
        }
        done();
    };
    if (isLoading()) m_afterLoad = shoot;
    else QTimer::singleShot(0, this, shoot);
}

}  // namespace cs::gui
