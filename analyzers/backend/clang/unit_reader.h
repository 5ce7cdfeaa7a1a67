// Reads one translation unit with Clang: parses it with the unit's own
// compile flags (function bodies outside the backend's registration code
// skipped), runs the matchers over the backend's own declarations only, and
// returns the registrations, the errors met and the headers it used.
#pragma once

#include "analyzers/backend/clang_protocol.h"

namespace testmap::backend::clang_reader {

// The unit's compile flags without its file and outputs: units with equal
// flags can share a precompiled prelude.
std::vector<std::string> SharedFlags(const CompileUnit& unit);

// `pch`, when not empty, is a prelude precompiled with the unit's flags
// (prelude_pch.h).
UnitResult ReadUnit(const CompileUnit& unit, const ClangRequest& request,
                    const std::string& pch = "");

}  // namespace testmap::backend::clang_reader
