// Session labels: the name every view gives a session ("import:tef: src/a/main.cpp.json").
//
// Why the shortest distinguishing path: a build imports one time trace per source file, and base
// names repeat (the issue counted 15 of 186 labels that collided, `main.cpp.json` twice). A label
// must name one session, yet a full path is mostly a shared prefix nobody reads. So each imported
// file is named by the fewest trailing path components that no other session's source ends with.
#pragma once

#include <cstdint>
#include <string>
#include <unordered_map>
#include <vector>

namespace cs::trace {
class TraceReader;
}

namespace cs::engine {

// For each path, its shortest suffix of whole components ("b/main.cpp.json") that is not also a
// suffix of any other path in the list. Equal paths keep the whole path (nothing tells them apart).
std::vector<std::string> distinguishingSuffixes(const std::vector<std::string>& paths);

// Every session's label, by session id: runtime, then " pid N" for a recorded process or ": <the
// distinguishing part of the imported file's path>".
std::unordered_map<std::int64_t, std::string> sessionLabels(const trace::TraceReader& reader);

}  // namespace cs::engine
