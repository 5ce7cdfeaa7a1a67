#include "indexer/index_dump.h"

#include "indexer/index_layout.h"

namespace testmap::indexer {

void DumpIndex(const IndexStore& store, std::ostream& out) {
  for (int c = 0; c < kCfCount; ++c) {
    store.Scan(static_cast<Cf>(c), "", [&](std::string_view k, std::string_view v) {
      out << CfName(static_cast<Cf>(c)) << '\t';
      for (char ch : k) out << (ch == '\0' ? '|' : ch);
      out << '\t';
      for (char ch : v) {
        if (ch == '\n') {
          out << "\\n";
        } else {
          out << ch;
        }
      }
      out << '\n';
      return true;
    });
  }
}

}  // namespace testmap::indexer
