#include "acceptance_verdict.h"

namespace cs::gui {

QString acceptanceVerdictHtml(const TraceDocument& doc) {
    if (!doc.summary) return {};
    bool hasLookups = false;
    for (const auto& [table, n] : doc.summary->rowCounts) hasLookups |= table == "cache_lookups" && n > 0;
    if (!hasLookups) return QStringLiteral("<b>Acceptance:</b> no cache lookups recorded, nothing to judge.");
    // Until the cache replay engine (issue 4) is merged, the verdict cannot be computed honestly.
    return QStringLiteral("<b>Acceptance:</b> <i>not evaluated: this build has no cache replay engine yet.</i>");
}

}  // namespace cs::gui
