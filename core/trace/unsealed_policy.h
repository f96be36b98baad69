// What the reader does with a trace whose page checksums it cannot check (issue 40).
//
// Why: a sealed trace used to be "unsealed" by changing one header byte (byte 20, the reserved space,
// or the change counter); a content byte changed with it was then read as data, with only a "not
// checked" line in `info`. So a trace that claims CompileScope's application_id but carries no valid
// seal is refused, naming the file, unless the user says they trust it (`--trust-unsealed`, or
// `compilescope seal` to re-seal it). Two exceptions are read: a trace being recorded (its writer
// holds the recording lock, core/trace/output_lock.h) and a trace from before page checksums existed
// (no reserved space and no seal mark; read with a warning every time). See docs/trace-format.md.
#pragma once

#include "core/trace/page_seal.h"

#include <functional>
#include <string>

namespace cs::trace {

// Process-wide: read unsealed and modified traces (the CLI's and the GUI's --trust-unsealed).
void setTrustUnsealed(bool trust);
bool trustUnsealed();

// Trusts unsealed traces for its lifetime (tests, tools); restores the setting it found.
class TrustUnsealedScope {
public:
    TrustUnsealedScope() : m_was(trustUnsealed()) { setTrustUnsealed(true); }
    ~TrustUnsealedScope() { setTrustUnsealed(m_was); }
    TrustUnsealedScope(const TrustUnsealedScope&) = delete;
    TrustUnsealedScope& operator=(const TrustUnsealedScope&) = delete;

private:
    bool m_was;
};

// Where warnings about traces read without a check go (once per file until reset); none: dropped.
void setUncheckedWarningSink(std::function<void(const std::string&)> sink);

// For a check that is not Ok or Damaged: the reader's page-check note, or throws TraceError naming
// the file with the reason and the way out.
std::string admitUnchecked(const std::string& path, const PageCheck& check);

// True when a writer holds the recording lock on `path` (a recording or import in progress).
bool recordingInProgress(const std::string& path);

}  // namespace cs::trace
