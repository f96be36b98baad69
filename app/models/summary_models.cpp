#include "summary_models.h"

#include "text.h"
#include "core/util/saturating.h"

#include <compilescope/trace_constants.h>

namespace cs::gui {

QString durationText(std::int64_t ns) {
    QString text = qs(util::formatDuration(ns));
    if (text.endsWith(QStringLiteral(" us"))) text = text.chopped(2) + QChar(0xB5) + QLatin1Char('s');
    return text;
}

QString offsetText(std::int64_t ns) {
    QString text = durationText(ns);
    if (ns >= 0 && !text.isEmpty() && text.front().isDigit()) text.prepend(QLatin1Char('+'));
    return text;
}

QString runtimeDisplayName(std::string_view runtime) {
    std::string_view id = runtime;
    const bool imported = id.rfind("import:", 0) == 0;
    if (imported) id.remove_prefix(7);
    struct Name {
        std::string_view prefix;
        const char* name;
        const char* imported;  // what was imported, when it says more than the runtime
    };
    static const Name names[] = {
        {"warp-log", "Warp", "log"},           {"warp-probe", "Warp", "probe report"},
        {"warp", "Warp", nullptr},             {"julia-timing", "Julia", "timing output"},
        {"julia-invalidations", "Julia", "invalidation list"}, {"julia-trees", "Julia", "printed trees"},
        {"julia-collector", "Julia", "collector file"}, {"julia", "Julia", nullptr},
        {"reactant", "ReactantNitro", nullptr}, {"numba", "Numba", nullptr},
        {"nvcc-time", "nvcc", "--time CSV"},   {"nvcc", "nvcc", nullptr},
        {"nvrtc", "CUDA (NVRTC)", nullptr},    {"nvjitlink", "CUDA (nvJitLink)", nullptr},
        {"cupti", "CUDA (driver JIT)", nullptr}, {"cuda", "CUDA", nullptr},
        {"tef", "Trace Event Format", nullptr}, {"clang", "clang", nullptr},
        {"torch-recompiles", "PyTorch", "TORCH_LOGS recompiles"}, {"torch-trace", "PyTorch", "TORCH_TRACE"},
        {"torch", "PyTorch", nullptr},         {"jax-log", "JAX", "log"},
        {"jax", "JAX", nullptr},               {"ninja-log", "ninja", "log"},
    };
    for (const Name& n : names)
        if (id.rfind(n.prefix, 0) == 0) {
            QString out = QString::fromLatin1(n.name);
            if (imported) out += n.imported ? QStringLiteral(" (imported %1)").arg(QString::fromLatin1(n.imported)) : QStringLiteral(" (imported)");
            return out;
        }
    return runtime.empty() ? QStringLiteral("unknown runtime") : qs(runtime);
}

QString categoryName(int category) {
    static const char* names[] = {"other", "compile", "cache load", "module load", "launch", "import", "init",
                                  "step", "inference", "codegen", "link", "compiler phase", "gc"};
    if (category < 0 || category >= CS_CAT_COUNT) return QStringLiteral("category %1").arg(category);
    return QString::fromLatin1(names[category]);
}

std::shared_ptr<const std::vector<ShareRow>> shareRows(const engine::CompileSummary& s,
                                                       const std::vector<engine::TimeShare>& shares,
                                                       QString (*nameOf)(std::string_view)) {
    auto rows = std::make_shared<std::vector<ShareRow>>();
    for (const engine::TimeShare& t : shares) {
        ShareRow r{nameOf ? nameOf(t.name) : qs(t.name), t.ns, s.compileNs > 0 ? static_cast<double>(t.ns) / static_cast<double>(s.compileNs) : 0.0,
                   std::nullopt, t.items};
        // A share of wall time only where every figure is on a wall clock (docs/accounting.md).
        if (s.compileShare() && s.sessionsOf(engine::TimeBase::Sequence) == 0 && s.sessionsOf(engine::TimeBase::Untimed) == 0)
            r.ofWall = static_cast<double>(t.ns) / static_cast<double>(s.wallNs);
        rows->push_back(r);
    }
    return rows;
}

ShareModel* makeShareModel(const QString& firstHeader, QObject* parent) {
    const auto right = Qt::AlignRight | Qt::AlignVCenter;
    return new ShareModel(
        {{firstHeader, [](const ShareRow& r) { return QVariant(r.name); }},
         {QStringLiteral("Compile time"), [](const ShareRow& r) { return QVariant(durationText(r.ns)); },
          [](const ShareRow& r) { return QVariant(qlonglong(r.ns)); }, right},
         {QStringLiteral("Share of compile"), [](const ShareRow& r) { return QVariant(percentText(r.ofCompile)); },
          [](const ShareRow& r) { return QVariant(r.ofCompile); }, right},
         {QStringLiteral("Share of wall"),
          [](const ShareRow& r) { return QVariant(r.ofWall ? percentText(*r.ofWall) : QStringLiteral("n/a")); },
          [](const ShareRow& r) { return QVariant(r.ofWall.value_or(-1.0)); }, right},
         {QStringLiteral("Items"), [](const ShareRow& r) { return QVariant(qlonglong(r.items)); }, {}, right}},
        parent);
}

SessionModel* makeSessionModel(QObject* parent) {
    using S = engine::SessionSummary;
    return new SessionModel(
        {{QStringLiteral("Session"), [](const S& s) { return QVariant(qs(s.label)); }},
         {QStringLiteral("Runtime"), [](const S& s) { return QVariant(runtimeDisplayName(s.runtime)); }},
         {QStringLiteral("Time base"), [](const S& s) { return QVariant(QString::fromUtf8(engine::timeBaseName(s.base))); }},
         {QStringLiteral("Lifetime"),
          [](const S& s) {
              if (!s.firstNs || !s.lastNs) return QVariant(QStringLiteral("untimed"));
              QString d = durationText(cs::util::satSub(*s.lastNs, *s.firstNs));
              return QVariant(s.endNs ? d : d + QStringLiteral(" (unfinished)"));
          },
          [](const S& s) { return QVariant(qlonglong(s.firstNs && s.lastNs ? cs::util::satSub(*s.lastNs, *s.firstNs) : -1)); },
          Qt::AlignRight | Qt::AlignVCenter}},
        parent);
}

ProblemModel* makeProblemModel(QObject* parent) {
    return new ProblemModel({{QStringLiteral("Dropped or malformed input"), [](const std::string& s) { return QVariant(qs(s)); }}},
                            parent);
}

FiguresModel* makeFiguresModel(QObject* parent) {
    using F = engine::Figure;
    return new FiguresModel(
        {{QStringLiteral("Figure"), [](const F& f) { return QVariant(qs(f.label)); }},
         {QStringLiteral("Value"), [](const F& f) { return QVariant(qs(engine::figureText(f))); },
          [](const F& f) { return QVariant(qlonglong(f.value.value_or(-1))); }, Qt::AlignRight | Qt::AlignVCenter},
         {QStringLiteral("Key"), [](const F& f) { return QVariant(qs(f.key)); }}},
        parent);
}

std::shared_ptr<const std::vector<engine::Figure>> figureRows(const TraceDocument& doc) {
    if (!doc.analyses || !doc.analyses->figures) return std::make_shared<const std::vector<engine::Figure>>();
    return {doc.analyses->figures, &doc.analyses->figures->figures};  // shares the document's figures
}

}  // namespace cs::gui
