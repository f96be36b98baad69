// ArgSearchFetcher: finds, on a thread of its own, the spans of each open trace whose arguments hold
// a search text (engine::spansWithMatchingArgs). The name search answers at once from memory; this
// one reads span_args from the files, so its hits join the results when they arrive. Only the newest
// request's answer is published (LatestRequestThread).
#pragma once

#include "latest_request_thread.h"

#include "core/engine/timeline/arg_search.h"

#include <QObject>
#include <QString>
#include <QStringList>

#include <memory>
#include <vector>

namespace cs::gui {

// Per trace of the request, in its order: the spans whose arguments matched.
using ArgMatchesPtr = std::shared_ptr<const std::vector<std::vector<engine::ArgMatch>>>;

class ArgSearchFetcher : public QObject {
    Q_OBJECT
public:
    explicit ArgSearchFetcher(QObject* parent = nullptr);

    // Searches the arguments of the traces at `paths` for `needle`; returns the request id that
    // ready() or failed() carries. A trace that cannot be read gives failed() (the others still count).
    int request(const QStringList& paths, const QString& needle);
    int latest() const { return m_thread.latest(); }

signals:
    void ready(int request, const QString& needle, cs::gui::ArgMatchesPtr matches);
    void failed(int request, const QString& message);

private:
    LatestRequestThread m_thread;  // last member: destroyed (joined) first, while the signals still exist
};

}  // namespace cs::gui

Q_DECLARE_METATYPE(cs::gui::ArgMatchesPtr)
