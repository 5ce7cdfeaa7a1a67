// The output formats of a scan (scan_output.h renders them).
#pragma once

namespace testmap::python {

enum class ScanFormat { kTable, kJsonl, kJson, kNodeids };

}  // namespace testmap::python
