#include "cache_models.h"

#include "text.h"

namespace cs::gui {

std::shared_ptr<const std::vector<CacheLookupRow>> cacheLookupRows(std::shared_ptr<const engine::CacheAnalysis> a) {
    auto rows = std::make_shared<std::vector<CacheLookupRow>>();
    if (!a) return rows;
    std::vector<int> missOf(a->facts.lookups.size(), -1);
    for (std::size_t m = 0; m < a->attribution.misses.size(); ++m)
        if (a->attribution.misses[m].lookup < missOf.size()) missOf[a->attribution.misses[m].lookup] = static_cast<int>(m);
    for (std::size_t i = 0; i < a->facts.lookups.size(); ++i) rows->push_back({i, missOf[i], a});
    return rows;
}

std::shared_ptr<const std::vector<CacheLookupRow>> cacheLookupRows(std::shared_ptr<const engine::CacheAnalysis> recorded,
                                                                   std::shared_ptr<const engine::CacheAnalysis> modules) {
    auto rows = std::make_shared<std::vector<CacheLookupRow>>(*cacheLookupRows(std::move(recorded)));
    const auto more = cacheLookupRows(std::move(modules));  // kept alive while its rows are copied
    rows->insert(rows->end(), more->begin(), more->end());
    return rows;
}

CacheLookupModel* makeCacheLookupModel(QObject* parent) {
    using R = CacheLookupRow;
    const auto right = Qt::AlignRight | Qt::AlignVCenter;
    auto str = [](const R& r, engine::Sid id) { return qs(r.analysis->facts.str(id)); };
    // The answer first: what happened, to which program, why, at what cost; then where and the rest.
    auto outcome = [](const R& r) {
        const engine::LookupOutcome& o = r.o();
        if (o.hit) return o.stale ? QStringLiteral("stale hit") : QStringLiteral("hit");
        if (r.miss < 0) return QStringLiteral("miss");
        return r.analysis->attribution.misses[static_cast<std::size_t>(r.miss)].cause == engine::MissCause::FirstCompile
                   ? QStringLiteral("first compile")
                   : QStringLiteral("recompile");
    };
    return new CacheLookupModel(
        {{QStringLiteral("Outcome"),
          [outcome](const R& r) {
              QString s = outcome(r);
              if (r.o().disagrees) s += QStringLiteral(" ≠ runtime");
              return QVariant(s);
          },
          {}, Qt::AlignLeft | Qt::AlignVCenter, {},
          [outcome](const R& r) {
              const QString s = outcome(r);
              // Recompiles and stale hits are what the user came for; first compiles are expected.
              if (s == QStringLiteral("recompile") || s == QStringLiteral("stale hit")) return Tone::Bad;
              if (s == QStringLiteral("first compile")) return Tone::Notice;
              return Tone::Good;
          }},
         {QStringLiteral("Program"), [str](const R& r) { return QVariant(str(r, r.l().program)); }},
         {QStringLiteral("Why it missed"),
          [](const R& r) {
              return r.miss < 0 ? QVariant() : QVariant(qs(r.analysis->attribution.misses[static_cast<std::size_t>(r.miss)].reason));
          }},
         {QStringLiteral("Compile"), [](const R& r) { return r.l().compileNs ? QVariant(durationText(*r.l().compileNs)) : QVariant(); },
          [](const R& r) { return QVariant(qlonglong(r.l().compileNs.value_or(0))); }, right},
         {QStringLiteral("Step"), [](const R& r) { return r.l().step ? QVariant(qlonglong(*r.l().step)) : QVariant(); }, {}, right},
         {QStringLiteral("Runtime said"),
          [](const R& r) {
              int v = r.l().verdict;
              return QVariant(v == CS_VERDICT_MISS ? QStringLiteral("miss") : v == CS_VERDICT_HIT ? QStringLiteral("hit") : QStringLiteral("not said"));
          }},
         {QStringLiteral("Lookup"), [](const R& r) { return QVariant(qs(engine::lookupName(r.l()))); },
          [](const R& r) { return QVariant(qlonglong(r.l().id)); }, right},
         {QStringLiteral("Handle"), [str](const R& r) { return QVariant(str(r, r.l().handle)); }}},
        parent);
}

QString missDetailsHtml(const CacheLookupRow& row) {
    const engine::Lookup& l = row.l();
    const engine::CacheFacts& f = row.analysis->facts;
    // No "at step ?": a lookup without a step says nothing of steps (issue 39).
    QString html = QStringLiteral("<b>%1</b> of <b>%2</b>%3: runtime %4, replay %5.")
                       .arg(qs(engine::lookupName(l)).toHtmlEscaped())
                       .arg(qs(f.str(l.program)).toHtmlEscaped())
                       .arg(l.step ? QStringLiteral(" at step %1").arg(*l.step) : QString())
                       .arg(l.verdict == CS_VERDICT_MISS ? QStringLiteral("miss") : QStringLiteral("hit"))
                       .arg(row.o().hit ? QStringLiteral("hit") : QStringLiteral("miss"));
    if (row.miss < 0) {
        html += QStringLiteral("<p>Key:</p><ul>");
        for (const engine::KeyComponent& c : l.components)
            html += QStringLiteral("<li>%1 = %2%3</li>")
                        .arg(qs(f.str(c.name)).toHtmlEscaped(), qs(engine::componentValue(f, c)).toHtmlEscaped(),
                             c.inKey() ? QString() : QStringLiteral(" <i>(not in the key)</i>"));
        return html + QStringLiteral("</ul>");
    }
    const engine::MissExplanation& m = row.analysis->attribution.misses[static_cast<std::size_t>(row.miss)];
    html += QStringLiteral("<p><b>Cause:</b> %1 — %2</p>").arg(QString::fromLatin1(engine::missCauseName(m.cause)), qs(m.reason).toHtmlEscaped());
    if (!m.changes.empty()) {
        html += QStringLiteral("<p><b>Moved components (before → after):</b></p><ul>");
        for (const engine::ComponentChange& c : m.changes) html += QStringLiteral("<li>%1</li>").arg(qs(c.text()).toHtmlEscaped());
        html += QStringLiteral("</ul>");
    }
    if (!m.unkeyed.empty()) {
        html += QStringLiteral("<p>Also changed, not in the key (not the cause):</p><ul>");
        for (const engine::ComponentChange& c : m.unkeyed) html += QStringLiteral("<li>%1</li>").arg(qs(c.text()).toHtmlEscaped());
        html += QStringLiteral("</ul>");
    }
    for (const std::string& d : m.drifted) html += QStringLiteral("<p>Redefined method: <b>%1</b></p>").arg(qs(d).toHtmlEscaped());
    auto table = [](const std::vector<engine::ComponentValue>& v) {
        QString t;
        for (const engine::ComponentValue& c : v)
            t += QStringLiteral("%1 = %2%3<br>").arg(qs(c.name).toHtmlEscaped(), qs(c.value).toHtmlEscaped(),
                                                     c.inKey ? QString() : QStringLiteral(" <i>(not in key)</i>"));
        return t;
    };
    if (!m.before.empty() || !m.after.empty())
        html += QStringLiteral("<table cellpadding=4><tr><th align=left>Before</th><th align=left>After</th></tr>"
                               "<tr><td valign=top>%1</td><td valign=top>%2</td></tr></table>")
                    .arg(table(m.before), table(m.after));
    return html;
}

CacheIssueModel* makeCacheIssueModel(QObject* parent) {
    using R = CacheIssueRow;
    return new CacheIssueModel({{QStringLiteral("Problem"), [](const R& r) { return QVariant(r.kind); }},
                                {QStringLiteral("Subject"), [](const R& r) { return QVariant(r.subject); }},
                                {QStringLiteral("Count"), [](const R& r) { return QVariant(r.count); }, {}, Qt::AlignRight | Qt::AlignVCenter},
                                {QStringLiteral("Detail"), [](const R& r) { return QVariant(r.detail); }}},
                               parent);
}

std::shared_ptr<const std::vector<CacheIssueRow>> cacheIssueRows(const engine::CacheAnalysis& a) {
    auto rows = std::make_shared<std::vector<CacheIssueRow>>();
    const engine::CacheFacts& f = a.facts;
    auto idOf = [&f](std::size_t i) { return i < f.lookups.size() ? f.lookups[i].id : 0; };
    auto join = [](const std::vector<std::string>& v) {
        QStringList l;
        for (const std::string& s : v) l << qs(s);
        return l.join(QStringLiteral(", "));
    };
    for (const engine::PoisonEvent& p : a.replay.poisonEvents)
        rows->push_back({QStringLiteral("poisoned entries"), join(p.drifted), qs(p.message), qlonglong(p.entries.size()), idOf(p.atLookup)});
    for (const engine::StaleHandle& h : a.replay.staleHandles)
        rows->push_back({QStringLiteral("stale handle"), qs(f.str(h.handle)),
                         QStringLiteral("served stale programs after redefinition of %1").arg(join(h.methods)),
                         qlonglong(h.staleLookups), idOf(h.firstLookup)});
    for (const engine::StaleProgramHole& h : a.holes.staleProgram)
        rows->push_back({QStringLiteral("stale program (same key, new graph)"), qs(h.program),
                         QStringLiteral("fingerprints: %1").arg(join(h.fingerprints)), qlonglong(h.servedStale.size()),
                         h.lookups.empty() ? 0 : idOf(h.lookups.front())});
    for (const engine::NeedlessRecompileHole& h : a.holes.needlessRecompile) {
        QStringList moved;
        for (const engine::ComponentChange& c : h.changes) moved << qs(c.text());
        rows->push_back({QStringLiteral("needless recompile (new key, same graph)"), qs(h.program),
                         QStringLiteral("%1 wasted; moved: %2").arg(durationText(h.wastedNs), moved.join(QStringLiteral("; "))),
                         qlonglong(h.misses.size()), h.misses.empty() ? 0 : idOf(h.misses.front())});
    }
    for (std::size_t i : a.replay.disagreements)
        rows->push_back({QStringLiteral("replay disagrees with the runtime"), qs(f.str(f.lookups[i].program)),
                         qs(engine::lookupName(f.lookups[i])), 1, idOf(i)});
    return rows;
}

std::shared_ptr<const std::vector<CacheIssueRow>> cacheIssueRows(const engine::CacheAnalysis* recorded,
                                                                 const engine::CacheAnalysis* modules) {
    auto rows = std::make_shared<std::vector<CacheIssueRow>>();
    for (const engine::CacheAnalysis* a : {recorded, modules}) {
        if (!a) continue;
        const auto part = cacheIssueRows(*a);  // kept alive while its rows are copied
        rows->insert(rows->end(), part->begin(), part->end());
    }
    return rows;
}

}  // namespace cs::gui
