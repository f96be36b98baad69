// The Diff view's table over `compilescope diff` of a baseline and the trace shown
// (core/measure/trace_diff.h): one row per change, in the CLI's order, and the job that computes it.
//
// Why the measure layer's diff and not a GUI comparison: `diff`, `report --baseline` and the GUI
// must name the same changes with the same numbers, so the window runs the same two calls
// (analyseSides, diffRuns) on a worker thread and only maps the result to text.
#pragma once

#include "table_model.h"

#include "core/measure/trace_diff.h"

#include <QObject>
#include <QString>

#include <memory>

class QThread;

namespace cs::gui {

using TraceDiffPtr = std::shared_ptr<const measure::TraceDiff>;

using DiffModel = TableModel<measure::DiffChange>;
DiffModel* makeDiffModel(QObject* parent);
std::shared_ptr<const std::vector<measure::DiffChange>> diffRows(const TraceDiffPtr& diff);

// "12 -> 14 compiles, 1.20 s -> 1.31 s compiling; check pass -> fail" (as the CLI's first line).
QString diffHeadline(const measure::TraceDiff& diff);

// Runs one diff at a time off the GUI thread; a newer request supersedes the result of an older one.
class DiffRunner : public QObject {
    Q_OBJECT
public:
    explicit DiffRunner(QObject* parent = nullptr);
    ~DiffRunner() override;
    void run(const QString& basePath, const QString& headPath);
    bool running() const { return m_thread != nullptr; }

signals:
    void ready(const cs::gui::TraceDiffPtr& diff);
    void failed(const QString& message);

private:
    QThread* m_thread = nullptr;
    int m_request = 0;
};

}  // namespace cs::gui

Q_DECLARE_METATYPE(cs::gui::TraceDiffPtr)
