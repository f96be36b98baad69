#include "search_model.h"

#include "text.h"
#include "core/util/saturating.h"

#include <compilescope/trace_constants.h>

#include <algorithm>
#include <map>
#include <cstdint>

namespace cs::gui {

SearchModel* makeSearchModel(QObject* parent) {
    const auto right = Qt::AlignRight | Qt::AlignVCenter;
    return new SearchModel(
        {{QStringLiteral("Name"), [](const SearchRow& r) { return QVariant(r.name); }},
         {QStringLiteral("Category"), [](const SearchRow& r) { return QVariant(categoryName(r.item.category)); }},
         {QStringLiteral("Start (s)"),
          [](const SearchRow& r) { return QVariant(QString::number(static_cast<double>(r.item.startNs - r.originNs) / 1e9, 'f', 6)); },
          [](const SearchRow& r) { return QVariant(qlonglong(cs::util::satSub(r.item.startNs, r.originNs))); }, right},
         // "time not recorded" only where the tool printed no time; a printed 0.0 ms is 0 ns (issue 35).
         {QStringLiteral("Duration"),
          [](const SearchRow& r) {
              return r.untimed ? QVariant(QStringLiteral("time not recorded")) : QVariant(durationText(cs::util::satSub(r.item.endNs, r.item.startNs)));
          },
          [](const SearchRow& r) { return QVariant(qlonglong(r.untimed ? -1 : cs::util::satSub(r.item.endNs, r.item.startNs))); }, right},
         {QStringLiteral("Lane"), [](const SearchRow& r) { return QVariant(r.lane); }},
         {QStringLiteral("Trace"), [](const SearchRow& r) { return QVariant(r.trace); }}},
        parent);
}

namespace {
// The categories whose name (as the GUI writes it) contains the needle.
std::vector<bool> matchingCategories(const QString& needle) {
    std::vector<bool> out(CS_CAT_COUNT, false);
    for (int c = 0; c < CS_CAT_COUNT; ++c) out[static_cast<std::size_t>(c)] = categoryName(c).contains(needle, Qt::CaseInsensitive);
    return out;
}

// The argument that found span `rowId`, if one did.
const engine::ArgMatch* argOf(const std::vector<engine::ArgMatch>& args, std::int64_t rowId) {
    auto it = std::lower_bound(args.begin(), args.end(), rowId, [](const engine::ArgMatch& m, std::int64_t id) { return m.spanId < id; });
    return it != args.end() && it->spanId == rowId ? &*it : nullptr;
}
}  // namespace

std::shared_ptr<const std::vector<SearchRow>> searchNames(const std::vector<SearchInput>& traces, const QString& needle,
                                                          std::size_t limit) {
    auto rows = std::make_shared<std::vector<SearchRow>>();
    const QString trimmed = needle.trimmed();
    const std::string n = trimmed.toStdString();
    const std::vector<bool> categories = matchingCategories(trimmed);
    for (std::size_t s = 0; s < traces.size() && rows->size() < limit; ++s) {
        const engine::TimelineData& d = *traces[s].timeline;
        const std::vector<engine::ArgMatch>& args = traces[s].args;
        for (const engine::SearchHit& h : engine::searchTimeline(d, n, limit - rows->size(), categories, engine::spanIds(args))) {
            const engine::TimelineLane& lane = d.lanes[static_cast<std::size_t>(h.lane)];
            QString name = qs(d.str(h.item.name));
            if (lane.source == engine::LaneSource::Spans) {
                // The header or template a time-trace span worked on; the argument that found it.
                if (const std::uint32_t detail = d.detailOf(h.item.rowId)) name += QStringLiteral(": ") + qs(d.str(detail));
                if (const engine::ArgMatch* arg = argOf(args, h.item.rowId)) name += QStringLiteral(" [%1]").arg(qs(arg->text));
            }
            rows->push_back({static_cast<int>(s), traces[s].label, qs(lane.process) + QStringLiteral(" · ") + qs(lane.name),
                             name, h.lane, h.item, d.minNs, lane.source == engine::LaneSource::Spans && d.untimed(h.item.rowId)});
        }
    }
    return rows;
}

SearchTotalsModel* makeSearchTotalsModel(QObject* parent) {
    using R = SearchTotalRow;
    const auto right = Qt::AlignRight | Qt::AlignVCenter;
    return new SearchTotalsModel(
        {{QStringLiteral("Name"), [](const R& r) { return QVariant(r.name); }},
         {QStringLiteral("Count"), [](const R& r) { return QVariant(r.count); }, {}, right},
         // Items without a time are counted, never summed as 0 ns: all of them untimed reads "time not
         // recorded"; some, the timed total and how many are not in it (issue 35).
         {QStringLiteral("Total"),
          [](const R& r) {
              if (r.untimed >= r.count) return QVariant(QStringLiteral("time not recorded"));
              return QVariant(r.untimed ? QStringLiteral("%1 (+%2 with time not recorded)").arg(durationText(r.totalNs)).arg(r.untimed)
                                        : durationText(r.totalNs));
          },
          [](const R& r) { return QVariant(r.untimed >= r.count ? qlonglong(-1) : r.totalNs); }, right},
         {QStringLiteral("Longest"),
          [](const R& r) { return r.untimed >= r.count ? QVariant(QStringLiteral("time not recorded")) : QVariant(durationText(r.maxNs)); },
          [](const R& r) { return QVariant(r.untimed >= r.count ? qlonglong(-1) : r.maxNs); }, right},
         {QStringLiteral("Category"), [](const R& r) { return QVariant(r.category); }},
         {QStringLiteral("Trace"), [](const R& r) { return QVariant(r.trace); }}},
        parent);
}

std::shared_ptr<const std::vector<SearchTotalRow>> searchTotals(const std::vector<SearchInput>& traces, const std::vector<SearchRow>& rows) {
    auto out = std::make_shared<std::vector<SearchTotalRow>>();
    std::vector<std::vector<engine::SearchHit>> hits(traces.size());
    std::vector<std::map<std::uint32_t, qlonglong>> untimed(traces.size());  // per trace: name -> items without a time
    for (const SearchRow& r : rows) {
        if (r.source < 0 || static_cast<std::size_t>(r.source) >= traces.size()) continue;
        if (r.untimed) ++untimed[static_cast<std::size_t>(r.source)][r.item.name];
        else hits[static_cast<std::size_t>(r.source)].push_back({r.lane_index, r.item});
    }
    for (std::size_t s = 0; s < traces.size(); ++s) {
        const engine::TimelineData& d = *traces[s].timeline;
        for (const engine::NameTotals& n : engine::totalsByName(hits[s])) {
            auto u = untimed[s].find(n.name);
            const qlonglong notTimed = u == untimed[s].end() ? 0 : u->second;
            if (u != untimed[s].end()) untimed[s].erase(u);
            out->push_back({traces[s].label, qs(d.str(n.name)), categoryName(n.category), n.count + notTimed, n.totalNs, n.maxNs, notTimed});
        }
        // Names whose every item is untimed: counted, with no time.
        for (const auto& [name, count] : untimed[s]) {
            const auto r = std::find_if(rows.begin(), rows.end(), [source = static_cast<int>(s), id = name](const SearchRow& x) {
                return x.untimed && x.source == source && x.item.name == id;
            });
            out->push_back({traces[s].label, qs(d.str(name)), r == rows.end() ? QString() : categoryName(r->item.category), count, 0, 0, count});
        }
    }
    return out;
}

}  // namespace cs::gui
