#include "acceptance_verdict.h"

#include "app/models/text.h"

namespace cs::gui {

QString acceptanceVerdictHtml(const TraceDocument& doc) {
    if (!doc.summary) return {};
    bool hasLookups = false;
    for (const auto& [table, n] : doc.summary->rowCounts) hasLookups |= table == "cache_lookups" && n > 0;
    if (!hasLookups) return QStringLiteral("<b>Acceptance:</b> no cache lookups recorded, nothing to judge.");
    if (!doc.analyses || !doc.analyses->cache) return QStringLiteral("<b>Acceptance:</b> <i>replaying the cache…</i>");
    const engine::AcceptanceResult& a = doc.analyses->cache->acceptance;
    QString counts = QStringLiteral("%1 lookups, %2 misses, %3 entries")
                         .arg(doc.analyses->cache->facts.lookups.size())
                         .arg(a.counts.misses)
                         .arg(a.counts.entries);
    QString expected = a.expected ? QStringLiteral("; expected programs %1 (%2)").arg(*a.expected).arg(qs(a.derived.basis).toHtmlEscaped())
                                  : QStringLiteral("; program count not judged (%1)").arg(qs(a.derived.basis).toHtmlEscaped());
    if (a.passed())
        return QStringLiteral("<b>Acceptance: <span style='color:#2e7d32'>PASS</span></b> — %1%2.").arg(counts, expected);
    QString html = QStringLiteral("<b>Acceptance: <span style='color:#c62828'>FAIL</span></b> — %1%2.").arg(counts, expected);
    for (const engine::AcceptanceFailure& f : a.failures)
        html += QStringLiteral("<br>&nbsp;&nbsp;✗ <b>%1</b>: %2").arg(qs(f.rule).toHtmlEscaped(), qs(f.reason).toHtmlEscaped());
    return html;
}

}  // namespace cs::gui
