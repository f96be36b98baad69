#include "acceptance_verdict.h"

#include "app/models/text.h"
#include "core/engine/analysis/error_verdict.h"
#include "core/engine/warp/warp_verdict.h"

#include <QLabel>
#include <QScrollArea>

namespace cs::gui {

QWidget* boundedVerdictBox(QLabel* verdict, QWidget* parent) {
    auto* box = new QScrollArea(parent);
    box->setWidget(verdict);
    box->setWidgetResizable(true);
    box->setFrameShape(QFrame::NoFrame);
    box->setMaximumHeight(140);
    box->setSizeAdjustPolicy(QAbstractScrollArea::AdjustToContents);
    return box;
}

namespace {
QString judgedVerdictHtml(const TraceDocument& doc) {
    if (!doc.summary) return {};
    if (!doc.analyses || !doc.analyses->trace) return QStringLiteral("<b>Acceptance:</b> <i>replaying the cache…</i>");
    // The engine's verdict (core/engine/cache/verdict.h), the one `check` and the report give.
    const engine::AcceptanceVerdict& v = doc.analyses->trace->verdict;
    if (v.state == engine::VerdictState::NotApplicable)
        return QStringLiteral("<b>Acceptance: not applicable</b> — %1.").arg(qs(v.source).toHtmlEscaped());
    if (!doc.analyses->cache || doc.analyses->cache->facts.empty()) {
        const bool pass = v.state == engine::VerdictState::Pass;
        QString html = pass ? QStringLiteral("<b>Acceptance: <span style='color:#2e7d32'>PASS</span></b> — %1.")
                            : QStringLiteral("<b>Acceptance: <span style='color:#c62828'>FAIL</span></b> — %1.");
        html = html.arg(qs(v.source).toHtmlEscaped());
        for (const engine::AcceptanceRule& r : v.rules)
            html += QStringLiteral("<br>&nbsp;&nbsp;%1 <b>%2</b> (%3): %4")
                        .arg(r.pass ? QStringLiteral("✓") : QStringLiteral("✗"), qs(r.rule).toHtmlEscaped(),
                             qs(r.scope).toHtmlEscaped(), qs(r.detail).toHtmlEscaped());
        return html;
    }
    const engine::AcceptanceResult& a = doc.analyses->cache->acceptance;
    // The counts as keyed figures (engine/analysis/trace_figures.h), the texts check and the report give.
    auto figure = [&doc](const char* key) {
        return doc.analyses->figures ? qs(engine::figureText(*doc.analyses->figures, key)) : QStringLiteral("unknown");
    };
    QString counts = QStringLiteral("%1 lookups, %2 misses (replayed), %3 entries")
                         .arg(figure("cache.lookups"), figure("cache.misses.replayed"), figure("cache.entries"));
    // A training run's program count says nothing about a Numba, JAX or PyTorch trace: left out there.
    QString expected = a.expected ? QStringLiteral("; expected programs %1 (%2)").arg(*a.expected).arg(qs(a.derived.basis).toHtmlEscaped())
                       : a.derived.applies ? QStringLiteral("; program count not judged (%1)").arg(qs(a.derived.basis).toHtmlEscaped())
                                           : QString();
    // The whole verdict's state, as `check` prints it: a trace that also loaded Warp modules is judged
    // by their rule too, whose row follows the replay's failures.
    QString html = v.passes() ? QStringLiteral("<b>Acceptance: <span style='color:#2e7d32'>PASS</span></b> — %1%2.").arg(counts, expected)
                              : QStringLiteral("<b>Acceptance: <span style='color:#c62828'>FAIL</span></b> — %1%2.").arg(counts, expected);
    for (const engine::AcceptanceFailure& f : a.failures)
        html += QStringLiteral("<br>&nbsp;&nbsp;✗ <b>%1</b>: %2").arg(qs(f.rule).toHtmlEscaped(), qs(f.reason).toHtmlEscaped());
    for (const engine::AcceptanceRule& r : v.rules)
        if (r.scope == engine::warp::kModuleRuleScope || r.scope == engine::kErrorFindingScope)
            html += QStringLiteral("<br>&nbsp;&nbsp;%1 <b>%2</b> (%3): %4")
                        .arg(r.pass ? QStringLiteral("✓") : QStringLiteral("✗"), qs(r.rule).toHtmlEscaped(),
                             qs(r.scope).toHtmlEscaped(), qs(r.detail).toHtmlEscaped());
    return html;
}
}  // namespace

QString acceptanceVerdictHtml(const TraceDocument& doc) {
    QString html = judgedVerdictHtml(doc);
    if (!doc.analyses || !doc.analyses->trace || !doc.analyses->trace->verdict.incomplete()) return html;
    // Lookups left out as trace problems (issue 40): what was judged is part of the run, so the
    // verdict is incomplete, as `check` (exit 3) and the report say, whatever the rules say.
    html.replace(QStringLiteral("<b>Acceptance: "), QStringLiteral("<b>The rest of the run: "));
    return QStringLiteral("<b>Acceptance: <span style='color:#b86e00'>INCOMPLETE</span></b> — %1 cache lookup rows "
                          "were left out as trace problems (listed under Trace problems); the verdict below judges "
                          "the rest of the run only and is no pass.<br>")
               .arg(groupedCount(doc.analyses->trace->verdict.lookupsLeftOut)) +
           html;
}

}  // namespace cs::gui
