// How to record each runtime, in one line: for the empty states of the views and the start screen.
//
// Why one place: a view with nothing to show (no compile time, no lookups, no modules) should say what
// the trace lacks and the command that records it for the runtime the user runs (issue 39), and the
// start screen lists the same lines; the commands are the README's tour, "compilescope record".
#pragma once

#include <QString>
#include <QStringList>

#include <string>
#include <vector>

namespace cs::engine {
struct CompileSummary;
}

namespace cs::gui {

// "compilescope record --warp -o t.cstrace -- python APP.py" for a runtime's display name ("Warp",
// "PyTorch", ...); the plain collector command for one this does not know.
QString recordCommand(const QString& runtime);
// "Warp: compilescope record --warp ...", one per runtime the collectors record.
QStringList recordLines();
// A sentence for a trace without compile time: what its sessions are and the command that records
// their compiles. "" when the summary holds compile or cache-load time, or compiles without a duration.
QString noCompileSentence(const engine::CompileSummary& s);
// An empty table's or chart's sentence: "This trace records no Warp module load. To record them, run:
// compilescope record --warp ...". `runtime` names the runtime that records `what`; empty: the
// runtime of the trace's first session (`s` may be null: the plain collector command).
QString lacksSentence(const engine::CompileSummary* s, const QString& what, const QString& runtime = {});

}  // namespace cs::gui
