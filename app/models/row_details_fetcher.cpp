#include "row_details_fetcher.h"

#include "core/trace/reader.h"

namespace cs::gui {

RowDetailsFetcher::RowDetailsFetcher(QObject* parent) : QObject(parent) {
    qRegisterMetaType<std::shared_ptr<const cs::engine::RowDetails>>();
}

int RowDetailsFetcher::request(const QString& path, const QString& table, std::int64_t rowId) {
    return m_thread.post([this, file = path.toStdString(), name = table.toStdString(), rowId](int id) {
        try {
            auto reader = trace::TraceReader::open(file);
            auto details = std::make_shared<const engine::RowDetails>(engine::rowDetails(*reader, name, rowId));
            emit ready(id, details);
        } catch (const std::exception& e) {
            emit failed(id, QString::fromUtf8(e.what()));
        }
    });
}

}  // namespace cs::gui
