#include "indexer/index_op_keys.h"

#include "core/errors.h"
#include "indexer/index_layout.h"

namespace testmap::indexer {

bool OpKey::is_static() const { return overload == kStaticOverload; }

std::string OpKey::Canonical() const {
  if (overload.empty() || is_static()) return packet;
  return packet + "." + overload;
}

std::vector<OpKey> ListOpKeys(const IndexStore& store) {
  std::vector<OpKey> out;
  auto cursor = store.NewCursor(Cf::kOpTests);
  cursor->Seek("");
  while (cursor->Valid()) {
    auto f = SplitKey(cursor->key());
    if (f.size() < 2) throw core::InputError(store.dir() + ": malformed op_tests key");
    out.push_back({std::string(f[0]), std::string(f[1])});
    // Past every key of this operator: they all start "PACKET\0OVERLOAD\0".
    std::string next = KeyPrefix({f[0], f[1]});
    next.back() = '\1';
    cursor->Seek(next);
  }
  return out;
}

void ForEachEncodedEdgeOfOp(
    const IndexStore& store, const OpKey& op,
    const std::function<void(std::string_view, std::string_view, std::string_view)>& fn) {
  std::string prefix = KeyPrefix({op.packet, op.overload});
  store.Scan(Cf::kOpTests, prefix, [&](std::string_view key, std::string_view value) {
    std::string_view rest = key.substr(prefix.size());  // NODEID \0 RUN
    size_t nul = rest.rfind('\0');
    if (nul == std::string_view::npos)
      throw core::InputError(store.dir() + ": malformed op_tests key");
    fn(rest.substr(0, nul), rest.substr(nul + 1), value);
    return true;
  });
}

}  // namespace testmap::indexer
