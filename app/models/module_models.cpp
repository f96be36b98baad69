#include "module_models.h"

#include "text.h"

#include <compilescope/trace_constants.h>

#include <QStringList>

#include <algorithm>

namespace cs::gui {

std::shared_ptr<const ModuleTree> buildModuleTree(std::shared_ptr<const engine::warp::ModuleReport> report) {
    auto tree = std::make_shared<ModuleTreeSnapshot>();
    tree->report = report;
    if (!report) return tree;
    // Repeats first, the most identities first; the rest in load order.
    std::vector<const engine::warp::ModuleSummary*> order;
    for (const engine::warp::ModuleSummary& m : report->modules) order.push_back(&m);
    std::stable_sort(order.begin(), order.end(), [](const auto* a, const auto* b) {
        const std::size_t x = a->identities.size() > 1 ? a->identities.size() : 0;
        const std::size_t y = b->identities.size() > 1 ? b->identities.size() : 0;
        return x > y;
    });
    for (const engine::warp::ModuleSummary* mp : order) {
        const engine::warp::ModuleSummary& m = *mp;
        int row = tree->add({&m, -1, nullptr});
        for (std::size_t i = 0; i < m.identities.size(); ++i) {
            int id = tree->add({&m, static_cast<int>(i), nullptr}, row);
            for (const engine::warp::IdentityDiff& d : m.diffs)
                if (d.to == i) {
                    for (const engine::warp::IdentityChange& c : d.changes) tree->add({&m, static_cast<int>(i), &c}, id);
                    if (d.changes.empty()) tree->add({&m, static_cast<int>(i), nullptr, true}, id);
                }
        }
    }
    return tree;
}

QString notInLog() { return QStringLiteral("not in log"); }

bool hasHashCycle(const engine::warp::ModuleSummary& m) {
    std::vector<std::string> seen;
    for (const engine::warp::ModuleLoad& l : m.loads) {
        if (!seen.empty() && seen.back() == l.hash) continue;
        if (std::find(seen.begin(), seen.end(), l.hash) != seen.end()) return true;
        seen.push_back(l.hash);
    }
    return false;
}

QString loadSequenceText(const engine::warp::ModuleSummary& m, int limit) {
    QStringList steps;
    std::vector<std::string> seen;
    int runs = 0;
    for (std::size_t i = 0; i < m.loads.size();) {
        const std::string& h = m.loads[i].hash;
        std::size_t j = i;
        while (j < m.loads.size() && m.loads[j].hash == h) ++j;
        ++runs;
        if (static_cast<int>(steps.size()) < limit) {
            QString step = h.empty() ? QStringLiteral("(no hash)") : qs(engine::warp::shortHash(h));
            if (j - i > 1) step += QStringLiteral(" ×%1").arg(j - i);
            if (std::find(seen.begin(), seen.end(), h) != seen.end()) step += QStringLiteral(" ↺");
            steps << step;
        }
        seen.push_back(h);
        i = j;
    }
    QString text = steps.join(QStringLiteral(" → "));
    if (runs > limit) text += QStringLiteral(" → … +%1").arg(runs - limit);
    return text;
}

namespace {
QString join(const std::vector<std::string>& v) {
    QStringList l;
    for (const std::string& s : v) l << qs(engine::warp::shortHash(s));
    return l.join(QStringLiteral(", "));
}
QString joinDims(const std::vector<std::int64_t>& v) {
    QStringList l;
    for (std::int64_t d : v) l << QString::number(d);
    return l.join(QStringLiteral(", "));
}
const engine::warp::Identity& ident(const ModuleItem& it) { return it.module->identities[static_cast<std::size_t>(it.identity)]; }

// The first column: a module's name, an identity's hash and device, or what differs between two.
QVariant moduleLabel(const ModuleItem& it) {
    if (it.change)
        return QVariant(QStringLiteral("%1 %2: %3 → %4")
                            .arg(QString::fromLatin1(engine::warp::changeKindName(it.change->kind)), qs(it.change->subject),
                                 qs(it.change->before), qs(it.change->after)));
    if (it.diffUnknown) {
        const engine::warp::Identity& i = ident(it);
        return QVariant(i.kernels.empty() && i.options.empty()
                            ? QStringLiteral("what differs: not in log (a verbose log names only the hash; record "
                                             "with the Warp collector for kernel digests and options)")
                            : QStringLiteral("what differs: no recorded kernel or option changed (the hash also "
                                             "covers source and generic arguments the trace does not hold)"));
    }
    if (it.identity < 0) return QVariant(qs(it.module->name));
    const engine::warp::Identity& i = ident(it);
    return QVariant(QStringLiteral("hash %1 on %2")
                        .arg(qs(engine::warp::shortHash(i.hash)), i.device.empty() ? QStringLiteral("device not in log") : qs(i.device)));
}

QVariant moduleDevices(const ModuleItem& it) {
    if (it.change || it.diffUnknown) return QVariant();
    if (it.identity < 0) {
        QStringList l;
        for (const std::string& d : it.module->devices) l << qs(d);
        return QVariant(l.isEmpty() ? notInLog() : l.join(QStringLiteral(", ")));
    }
    return QVariant(ident(it).device.empty() ? notInLog() : qs(ident(it).device));
}

// The whole sequence with each load's outcome.
QVariant loadSequenceTooltip(const ModuleItem& it) {
    if (it.identity >= 0 || it.change) return QVariant();
    QStringList l;
    for (const engine::warp::ModuleLoad& load : it.module->loads)
        l << QStringLiteral("%1 %2").arg(qs(engine::warp::shortHash(load.hash)),
                                         load.result == CS_MODULE_COMPILED ? QStringLiteral("(compiled)")
                                         : load.result == CS_MODULE_CACHED ? QStringLiteral("(cached)")
                                         : load.result == CS_MODULE_ERROR  ? QStringLiteral("(error)")
                                                                           : QString());
    return QVariant((hasHashCycle(*it.module) ? QStringLiteral("Returns to an earlier hash (a cycle):\n")
                                              : QString()) + l.join(QStringLiteral(" → ")));
}
}  // namespace

ModulesModel* makeModulesModel(QObject* parent) {
    using I = ModuleItem;
    const auto right = Qt::AlignRight | Qt::AlignVCenter;
    auto counts = [](const I& it, int engine::warp::Identity::*field, int engine::warp::ModuleSummary::*total) {
        if (it.change || it.diffUnknown) return QVariant();
        return QVariant(it.identity < 0 ? it.module->*total : ident(it).*field);
    };
    return new ModulesModel(
        {{QStringLiteral("Module / identity / difference"), moduleLabel},
         {QStringLiteral("Identities"),
          [](const I& it) { return it.identity < 0 ? QVariant(qlonglong(it.module->identities.size())) : QVariant(); }, {}, right},
         {QStringLiteral("Hashes"),
          [](const I& it) {
              if (it.change || it.diffUnknown) return QVariant();
              return QVariant(it.identity < 0 ? join(it.module->hashes) : qs(engine::warp::shortHash(ident(it).hash)));
          }},
         {QStringLiteral("block_dim"),
          [](const I& it) {
              if (it.change || it.diffUnknown) return QVariant();
              if (it.identity < 0) return QVariant(it.module->blockDims.empty() ? notInLog() : joinDims(it.module->blockDims));
              return ident(it).blockDim ? QVariant(qlonglong(*ident(it).blockDim)) : QVariant(notInLog());
          }},
         {QStringLiteral("Compiled"), [counts](const I& it) { return counts(it, &engine::warp::Identity::compiled, &engine::warp::ModuleSummary::compiled); },
          {}, right},
         {QStringLiteral("Cached"), [counts](const I& it) { return counts(it, &engine::warp::Identity::cached, &engine::warp::ModuleSummary::cached); },
          {}, right},
         {QStringLiteral("Time"),
          [](const I& it) {
              if (it.change || it.diffUnknown) return QVariant();
              return QVariant(durationText(it.identity < 0 ? it.module->totalNs : ident(it).totalNs));
          },
          [](const I& it) {
              return QVariant(qlonglong(it.change || it.diffUnknown ? 0 : it.identity < 0 ? it.module->totalNs : ident(it).totalNs));
          },
          right},
         {QStringLiteral("Device"), moduleDevices},
         {QStringLiteral("Load sequence"),
          [](const I& it) { return it.identity < 0 && !it.change ? QVariant(loadSequenceText(*it.module)) : QVariant(); },
          {},
          Qt::AlignLeft | Qt::AlignVCenter,
          loadSequenceTooltip,
          [](const I& it) { return it.identity < 0 && !it.change && hasHashCycle(*it.module) ? Tone::Bad : Tone::Neutral; }}},
        parent);
}

}  // namespace cs::gui
