// One Trace Event Format event, read from the pull reader into reusable buffers.
//
// Why a separate reader for one event: the keys of a TEF event come in any order (nvcc writes
// `args` before `ph`, clang writes `ph` first), so an event has to be read completely before it can
// be interpreted. Everything lands in one TefEvent whose strings and argument vector are reused from
// event to event, so a gigabyte trace costs no allocation per event once the buffers have grown.
// Wrong types (a string `ts`, an object `ph`) do not stop the reading: the value is skipped, the
// first problem is kept in `problem`, and the importer counts the event as malformed.
#pragma once

#include "core/util/json_reader.h"

#include <cstdint>
#include <string>
#include <string_view>
#include <vector>

namespace cs::ingest {

// A `pid` or `tid`: TEF says integer, some generators write strings ("pid": "browser").
struct TefId {
    bool present = false;
    bool numeric = true;
    std::int64_t num = 0;
    std::string text;  // the string form when !numeric
};

// One flattened argument: nested objects become "outer.inner", array items "list[2]".
struct TefArg {
    enum class Kind { Int, Real, Text } kind = Kind::Int;
    std::string key;
    std::int64_t i = 0;
    double d = 0;
    std::string s;
};

struct TefEvent {
    std::string name, cat, ph, scope, bindPoint, id, bindId;
    bool hasName = false, hasTs = false, hasDur = false, hasId = false, hasBindId = false;
    bool flowIn = false, flowOut = false;
    double ts = 0, dur = 0;  // microseconds, as written
    TefId pid, tid;
    std::vector<TefArg> args;  // only the first argCount entries are valid
    size_t argCount = 0;
    size_t droppedArgs = 0;  // arguments beyond the per-event limit
    std::string problem;     // first type error; empty when the event is well formed
    size_t keys = 0;         // members read; 0 = the `{}` nvcc / NVRTC put first

    void clear();
    TefArg& addArg();
    // Keeps the first type error only.
    void setProblem(std::string_view what) {
        if (problem.empty()) problem = std::string(what);
    }
    // A new argument slot named `key`, or nullptr (counted in droppedArgs) past the per-event limits.
    TefArg* newArg(const std::string& key);
};

// Reads the members of an event object; the BeginObject token has just been returned. Returns false
// only when the JSON itself is broken (the reader then holds the error); type problems are recorded
// in ev.problem and reading continues.
bool readTefEvent(util::JsonPullReader& reader, TefEvent& ev);

}  // namespace cs::ingest
