// Reads one translation unit with Clang: parses it with the unit's own
// compile flags (function bodies outside the backend's registration code
// skipped), runs the matchers over the backend's own declarations only, and
// returns the registrations, the errors met and the headers it used.
#pragma once

#include "analyzers/backend/clang_protocol.h"

namespace testmap::backend::clang_reader {

UnitResult ReadUnit(const CompileUnit& unit, const ClangRequest& request);

}  // namespace testmap::backend::clang_reader
