// Exit statuses of compilescope-recorder that its launcher (`compilescope record`) acts on.
#pragma once

namespace cs::recorder {

// The trace could not be written (disk full, I/O error) and the recorder has already printed the
// one warning saying why; the launcher adds nothing.
constexpr int kExitWriteFailed = 3;

}  // namespace cs::recorder
