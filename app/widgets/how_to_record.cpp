// The record command of each runtime (how_to_record.h says why they live here).
#include "how_to_record.h"

#include "app/models/text.h"
#include "core/engine/accounting/compile_summary.h"

namespace cs::gui {

namespace {
struct Recipe {
    const char* runtime;
    const char* command;
};
// As README.md's tour writes them.
constexpr Recipe kRecipes[] = {
    {"Warp", "compilescope record --warp -o t.cstrace -- python APP.py"},
    {"PyTorch", "compilescope record --torch -o t.cstrace -- python APP.py"},
    {"JAX", "compilescope record --jax -o t.cstrace -- python APP.py"},
    {"Numba", "compilescope record --numba -o t.cstrace -- python APP.py"},
    {"CUDA (NVRTC, nvJitLink, driver JIT)", "compilescope record --cuda -o t.cstrace -- CMD"},
    {"Julia", "compilescope record -o t.cstrace -- julia APP.jl, with collectors/julia/CompileScope.jl loaded"},
};
}  // namespace

QString recordCommand(const QString& runtime) {
    for (const Recipe& r : kRecipes)
        if (QString::fromLatin1(r.runtime).startsWith(runtime, Qt::CaseInsensitive) && !runtime.isEmpty())
            return QString::fromLatin1(r.command);
    return QStringLiteral("compilescope record -o t.cstrace -- CMD");
}

QStringList recordLines() {
    QStringList out;
    for (const Recipe& r : kRecipes) out << QStringLiteral("%1: %2").arg(QString::fromLatin1(r.runtime), QString::fromLatin1(r.command));
    return out;
}

QString noCompileSentence(const engine::CompileSummary& s) {
    if (s.compileNs > 0 || s.untimedCompiles > 0 || s.cacheLoadNs > 0) return {};
    QStringList runtimes;
    for (const engine::SessionSummary& session : s.sessions) {
        const QString name = runtimeDisplayName(session.runtime).section(QLatin1Char(' '), 0, 0);
        if (!runtimes.contains(name)) runtimes << name;
    }
    const QString first = runtimes.isEmpty() ? QString() : runtimes.front();
    return QStringLiteral("This trace records no compile (%1 session%2: %3). To see compiles, record the program with: %4")
        .arg(s.sessions.size())
        .arg(s.sessions.size() == 1 ? QString() : QStringLiteral("s"))
        .arg(runtimes.isEmpty() ? QStringLiteral("none") : runtimes.join(QStringLiteral(", ")), recordCommand(first));
}

QString lacksSentence(const engine::CompileSummary* s, const QString& what, const QString& runtime) {
    QString who = runtime;
    if (who.isEmpty() && s && !s->sessions.empty())
        who = runtimeDisplayName(s->sessions.front().runtime).section(QLatin1Char(' '), 0, 0);
    return QStringLiteral("This trace records no %1. To record them, run: %2").arg(what, recordCommand(who));
}

}  // namespace cs::gui
