#include "arg_search_fetcher.h"

#include "core/trace/reader.h"

namespace cs::gui {

ArgSearchFetcher::ArgSearchFetcher(QObject* parent) : QObject(parent) { qRegisterMetaType<cs::gui::ArgMatchesPtr>(); }

int ArgSearchFetcher::request(const QStringList& paths, const QString& needle) {
    std::vector<std::string> files;
    for (const QString& p : paths) files.push_back(p.toStdString());
    return m_thread.post([this, files = std::move(files), needle, text = needle.toStdString()](int id) {
        auto matches = std::make_shared<std::vector<std::vector<engine::ArgMatch>>>(files.size());
        QString errors;
        for (std::size_t i = 0; i < files.size(); ++i) {
            try {
                auto reader = trace::TraceReader::open(files[i]);
                (*matches)[i] = engine::spansWithMatchingArgs(*reader, text);
            } catch (const std::exception& e) {
                errors += (errors.isEmpty() ? QString() : QStringLiteral("; ")) + QString::fromUtf8(e.what());
            }
        }
        if (!errors.isEmpty()) emit failed(id, errors);
        emit ready(id, needle, matches);
    });
}

}  // namespace cs::gui
