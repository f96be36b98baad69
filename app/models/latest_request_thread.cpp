#include "latest_request_thread.h"

#include <QObject>
#include <QThread>

namespace cs::gui {

LatestRequestThread::LatestRequestThread() : m_thread(new QThread), m_worker(new QObject) {
    m_worker->moveToThread(m_thread);
    QObject::connect(m_thread, &QThread::finished, m_worker, &QObject::deleteLater);
    m_thread->start(QThread::LowPriority);
}

LatestRequestThread::~LatestRequestThread() {
    m_thread->quit();
    m_thread->wait();
    delete m_thread;
}

int LatestRequestThread::post(std::function<void(int)> job) {
    const int id = ++m_latest;
    *m_newest = id;
    QMetaObject::invokeMethod(m_worker, [newest = m_newest, id, job = std::move(job)] {
        if (newest->load() != id) return;  // a newer request is queued: skip this one
        job(id);
    });
    return id;
}

}  // namespace cs::gui
