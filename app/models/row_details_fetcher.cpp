#include "row_details_fetcher.h"

#include "core/trace/reader.h"

#include <QThread>

namespace cs::gui {

RowDetailsFetcher::RowDetailsFetcher(QObject* parent) : QObject(parent), m_thread(new QThread), m_worker(new QObject) {
    qRegisterMetaType<std::shared_ptr<const cs::engine::RowDetails>>();
    m_worker->moveToThread(m_thread);
    connect(m_thread, &QThread::finished, m_worker, &QObject::deleteLater);
    m_thread->start(QThread::LowPriority);
}

RowDetailsFetcher::~RowDetailsFetcher() {
    m_thread->quit();
    m_thread->wait();
    delete m_thread;
}

int RowDetailsFetcher::request(const QString& path, const QString& table, std::int64_t rowId) {
    const int id = ++m_latest;
    *m_newest = id;
    QMetaObject::invokeMethod(m_worker, [this, newest = m_newest, id, file = path.toStdString(), name = table.toStdString(), rowId] {
        if (newest->load() != id) return;  // a newer request is queued: skip this one
        try {
            auto reader = trace::TraceReader::open(file);
            auto details = std::make_shared<const engine::RowDetails>(engine::rowDetails(*reader, name, rowId));
            emit ready(id, details);
        } catch (const std::exception& e) {
            emit failed(id, QString::fromUtf8(e.what()));
        }
    });
    return id;
}

}  // namespace cs::gui
