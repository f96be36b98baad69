// The report ledger of a Warp compile-time study: options considered, what each measured, why it was not taken, and what
// taking it would need. Read from the file given to `report --ledger`.
//
// Accepted forms: a JSON array of objects with keys option, measured, why_not_taken, to_take_it; or
// the Markdown table the guide prints (`| Option | Measured | Why not taken | To take it |`), header
// and separator rows skipped. The file is untrusted: malformed input is an error naming the line.
#pragma once

#include <string>
#include <vector>

namespace cs::measure {

struct LedgerRow {
    std::string option, measured, whyNotTaken, toTakeIt;
};

struct Ledger {
    std::vector<LedgerRow> rows;
};

// Throws std::runtime_error("ledger PATH: ...") when the file cannot be read or parsed.
Ledger readLedger(const std::string& path);
Ledger parseLedger(const std::string& text, const std::string& name);

}  // namespace cs::measure
