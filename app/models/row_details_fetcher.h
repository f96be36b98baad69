// RowDetailsFetcher: reads engine::rowDetails() of a selected row on a thread of its own.
//
// Why a thread: the GUI thread never touches SQLite (docs/architecture.md, Rules), and a details pane that waits for
// a click's query would stutter on a big trace (opening one checks its pages: about 0.7 s at 10M
// events). Requests run on a LatestRequestThread; only the newest request's answer is published (a
// user clicking through spans sees the last one). The trace is opened per
// request and closed after it: an open connection to a recording in progress would stop the
// recorder from finalizing it.
#pragma once

#include "latest_request_thread.h"

#include "core/engine/analysis/row_details.h"

#include <QObject>
#include <QString>

#include <memory>

namespace cs::gui {

class RowDetailsFetcher : public QObject {
    Q_OBJECT
public:
    explicit RowDetailsFetcher(QObject* parent = nullptr);

    // Asks for the details of `table` row `rowId` of the trace at `path`; returns the request id that
    // ready() or failed() will carry.
    int request(const QString& path, const QString& table, std::int64_t rowId);
    int latest() const { return m_thread.latest(); }

signals:
    void ready(int request, std::shared_ptr<const cs::engine::RowDetails> details);
    void failed(int request, const QString& message);

private:
    LatestRequestThread m_thread;  // last member: destroyed (joined) first, while the signals still exist
};

}  // namespace cs::gui

Q_DECLARE_METATYPE(std::shared_ptr<const cs::engine::RowDetails>)
