#include "core/measure/ledger.h"

#include "core/util/json_reader.h"

#include <fstream>
#include <sstream>
#include <stdexcept>

namespace cs::measure {

namespace {
std::string trim(const std::string& s) {
    size_t b = s.find_first_not_of(" \t\r"), e = s.find_last_not_of(" \t\r");
    return b == std::string::npos ? std::string() : s.substr(b, e - b + 1);
}

std::vector<std::string> cells(const std::string& line) {
    std::vector<std::string> out;
    std::string t = trim(line);
    if (!t.empty() && t.front() == '|') t.erase(0, 1);
    if (!t.empty() && t.back() == '|') t.pop_back();
    std::string cur;
    for (size_t i = 0; i < t.size(); ++i) {
        if (t[i] == '\\' && i + 1 < t.size() && t[i + 1] == '|') {
            cur += '|';
            ++i;
        } else if (t[i] == '|') {
            out.push_back(trim(cur));
            cur.clear();
        } else {
            cur += t[i];
        }
    }
    out.push_back(trim(cur));
    return out;
}

Ledger parseJsonLedger(const std::string& text, const std::string& name) {
    util::JsonValue doc;
    try {
        doc = util::parseJson(text);
    } catch (const std::exception& e) {
        throw std::runtime_error("ledger " + name + ": " + e.what());
    }
    if (!doc.isArray()) throw std::runtime_error("ledger " + name + ": expected a JSON array of rows");
    Ledger l;
    for (size_t i = 0; i < doc.items.size(); ++i) {
        const auto& row = doc.items[i];
        if (!row.isObject()) throw std::runtime_error("ledger " + name + ": row " + std::to_string(i) + " is not an object");
        auto field = [&](const char* key) {
            const auto* v = row.get(key);
            return v && v->isString() ? v->str : v && v->isNumber() ? v->str : std::string();
        };
        l.rows.push_back({field("option"), field("measured"), field("why_not_taken"), field("to_take_it")});
        if (l.rows.back().option.empty())
            throw std::runtime_error("ledger " + name + ": row " + std::to_string(i) + " has no \"option\"");
    }
    return l;
}
}  // namespace

Ledger parseLedger(const std::string& text, const std::string& name) {
    size_t first = text.find_first_not_of(" \t\r\n");
    if (first != std::string::npos && (text[first] == '[' || text[first] == '{')) return parseJsonLedger(text, name);
    Ledger l;
    std::istringstream in(text);
    std::string line;
    int lineNo = 0;
    bool header = false;
    while (std::getline(in, line)) {
        ++lineNo;
        std::string t = trim(line);
        if (t.empty()) continue;
        if (t.front() != '|') throw std::runtime_error("ledger " + name + ":" + std::to_string(lineNo) + ": not a table row");
        auto c = cells(t);
        if (c.size() != 4)
            throw std::runtime_error("ledger " + name + ":" + std::to_string(lineNo) + ": expected 4 columns, found " +
                                     std::to_string(c.size()));
        if (!header) {
            header = true;  // | Option | Measured | Why not taken | To take it |
            continue;
        }
        if (c[0].find_first_not_of("-: ") == std::string::npos) continue;  // separator row
        l.rows.push_back({c[0], c[1], c[2], c[3]});
    }
    if (!header) throw std::runtime_error("ledger " + name + ": empty");
    return l;
}

Ledger readLedger(const std::string& path) {
    std::ifstream in(path, std::ios::binary);
    if (!in) throw std::runtime_error("ledger " + path + ": cannot open");
    std::ostringstream ss;
    ss << in.rdbuf();
    std::string text = ss.str();
    if (text.size() > (8u << 20)) throw std::runtime_error("ledger " + path + ": larger than 8 MiB");
    return parseLedger(text, path);
}

}  // namespace cs::measure
