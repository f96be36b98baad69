#include "module_models.h"

#include "text.h"

#include <QStringList>

namespace cs::gui {

std::shared_ptr<const ModuleTree> buildModuleTree(std::shared_ptr<const engine::warp::ModuleReport> report) {
    auto tree = std::make_shared<ModuleTreeSnapshot>();
    tree->report = report;
    if (!report) return tree;
    for (const engine::warp::ModuleSummary& m : report->modules) {
        int row = tree->add({&m, -1, nullptr});
        for (std::size_t i = 0; i < m.identities.size(); ++i) {
            int id = tree->add({&m, static_cast<int>(i), nullptr}, row);
            for (const engine::warp::IdentityDiff& d : m.diffs)
                if (d.to == i)
                    for (const engine::warp::IdentityChange& c : d.changes) tree->add({&m, static_cast<int>(i), &c}, id);
        }
    }
    return tree;
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
}  // namespace

ModulesModel* makeModulesModel(QObject* parent) {
    using I = ModuleItem;
    const auto right = Qt::AlignRight | Qt::AlignVCenter;
    auto counts = [](const I& it, int engine::warp::Identity::*field, int engine::warp::ModuleSummary::*total) {
        if (it.change) return QVariant();
        return QVariant(it.identity < 0 ? it.module->*total : ident(it).*field);
    };
    return new ModulesModel(
        {{QStringLiteral("Module / identity / difference"),
          [](const I& it) {
              if (it.change)
                  return QVariant(QStringLiteral("%1 %2: %3 → %4")
                                      .arg(QString::fromLatin1(engine::warp::changeKindName(it.change->kind)), qs(it.change->subject),
                                           qs(it.change->before), qs(it.change->after)));
              if (it.identity < 0) return QVariant(qs(it.module->name));
              const engine::warp::Identity& i = ident(it);
              return QVariant(QStringLiteral("hash %1 on %2").arg(qs(engine::warp::shortHash(i.hash)), qs(i.device)));
          }},
         {QStringLiteral("Identities"),
          [](const I& it) { return it.identity < 0 ? QVariant(qlonglong(it.module->identities.size())) : QVariant(); }, {}, right},
         {QStringLiteral("Hashes"),
          [](const I& it) {
              if (it.change) return QVariant();
              return QVariant(it.identity < 0 ? join(it.module->hashes) : qs(engine::warp::shortHash(ident(it).hash)));
          }},
         {QStringLiteral("block_dim"),
          [](const I& it) {
              if (it.change) return QVariant();
              if (it.identity < 0) return QVariant(joinDims(it.module->blockDims));
              return ident(it).blockDim ? QVariant(qlonglong(*ident(it).blockDim)) : QVariant();
          }},
         {QStringLiteral("Compiled"), [counts](const I& it) { return counts(it, &engine::warp::Identity::compiled, &engine::warp::ModuleSummary::compiled); },
          {}, right},
         {QStringLiteral("Cached"), [counts](const I& it) { return counts(it, &engine::warp::Identity::cached, &engine::warp::ModuleSummary::cached); },
          {}, right},
         {QStringLiteral("Time"),
          [](const I& it) {
              if (it.change) return QVariant();
              return QVariant(durationText(it.identity < 0 ? it.module->totalNs : ident(it).totalNs));
          },
          [](const I& it) { return QVariant(qlonglong(it.change ? 0 : it.identity < 0 ? it.module->totalNs : ident(it).totalNs)); }, right}},
        parent);
}

}  // namespace cs::gui
