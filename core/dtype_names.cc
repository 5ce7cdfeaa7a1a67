#include "core/dtype_names.h"

#include <array>

namespace testmap::core {
namespace {

// One row per dtype: canonical torch name, c10::ScalarType name, TORCH_LOGS
// abbreviation ("" when torch has none). Order follows c10::ScalarType.
// Taken from torch 2.13 (c10/core/ScalarType.h, torch._C._get_all_dtypes()
// abbreviations); names never change once released, new ones only append.
struct DtypeRow {
  std::string_view canonical;
  std::string_view c10;
  std::string_view abbr;
};

constexpr std::array kDtypes = {
    DtypeRow{"uint8", "Byte", "u8"},
    DtypeRow{"int8", "Char", "i8"},
    DtypeRow{"int16", "Short", "i16"},
    DtypeRow{"int32", "Int", "i32"},
    DtypeRow{"int64", "Long", "i64"},
    DtypeRow{"float16", "Half", "f16"},
    DtypeRow{"float32", "Float", "f32"},
    DtypeRow{"float64", "Double", "f64"},
    DtypeRow{"complex32", "ComplexHalf", "c32"},
    DtypeRow{"complex64", "ComplexFloat", "c64"},
    DtypeRow{"complex128", "ComplexDouble", "c128"},
    DtypeRow{"bool", "Bool", "b8"},
    DtypeRow{"qint8", "QInt8", ""},
    DtypeRow{"quint8", "QUInt8", ""},
    DtypeRow{"qint32", "QInt32", ""},
    DtypeRow{"bfloat16", "BFloat16", "bf16"},
    DtypeRow{"quint4x2", "QUInt4x2", ""},
    DtypeRow{"quint2x4", "QUInt2x4", ""},
    DtypeRow{"bits1x8", "Bits1x8", "b1x8"},
    DtypeRow{"bits2x4", "Bits2x4", "b2x4"},
    DtypeRow{"bits4x2", "Bits4x2", "b4x2"},
    DtypeRow{"bits8", "Bits8", "b8x1"},
    DtypeRow{"bits16", "Bits16", "b16x1"},
    DtypeRow{"float8_e5m2", "Float8_e5m2", "f8e5m2"},
    DtypeRow{"float8_e4m3fn", "Float8_e4m3fn", "f8e4m3fn"},
    DtypeRow{"float8_e5m2fnuz", "Float8_e5m2fnuz", "f8e5m2fnuz"},
    DtypeRow{"float8_e4m3fnuz", "Float8_e4m3fnuz", "f8e4m3fnuz"},
    DtypeRow{"uint16", "UInt16", "u16"},
    DtypeRow{"uint32", "UInt32", "u32"},
    DtypeRow{"uint64", "UInt64", "u64"},
    DtypeRow{"uint1", "UInt1", ""},
    DtypeRow{"uint2", "UInt2", ""},
    DtypeRow{"uint3", "UInt3", ""},
    DtypeRow{"uint4", "UInt4", ""},
    DtypeRow{"uint5", "UInt5", ""},
    DtypeRow{"uint6", "UInt6", ""},
    DtypeRow{"uint7", "UInt7", ""},
    DtypeRow{"int1", "Int1", ""},
    DtypeRow{"int2", "Int2", ""},
    DtypeRow{"int3", "Int3", ""},
    DtypeRow{"int4", "Int4", ""},
    DtypeRow{"int5", "Int5", ""},
    DtypeRow{"int6", "Int6", ""},
    DtypeRow{"int7", "Int7", ""},
    DtypeRow{"float8_e8m0fnu", "Float8_e8m0fnu", "f8e8m0fnu"},
    DtypeRow{"float4_e2m1fn_x2", "Float4_e2m1fn_x2", "f4e2m1fnx2"},
};

// torch's Python aliases (torch.float is torch.float32, ...).
struct Alias {
  std::string_view alias;
  std::string_view canonical;
};
constexpr std::array kAliases = {
    Alias{"float", "float32"},    Alias{"double", "float64"},     Alias{"half", "float16"},
    Alias{"long", "int64"},       Alias{"int", "int32"},          Alias{"short", "int16"},
    Alias{"cfloat", "complex64"}, Alias{"cdouble", "complex128"}, Alias{"chalf", "complex32"},
};

}  // namespace

std::optional<std::string> NormalizeDtype(std::string_view name) {
  // `torch.float32` is how repr() and test sources spell it.
  if (name.starts_with("torch.")) name.remove_prefix(6);
  if (name.empty()) return std::nullopt;
  for (const auto& row : kDtypes) {
    if (name == row.canonical || name == row.c10 || (!row.abbr.empty() && name == row.abbr)) {
      return std::string(row.canonical);
    }
  }
  for (const auto& alias : kAliases) {
    if (name == alias.alias) return std::string(alias.canonical);
  }
  return std::nullopt;
}

std::optional<std::string> DtypeAbbreviation(std::string_view canonical) {
  for (const auto& row : kDtypes) {
    if (canonical == row.canonical) {
      if (row.abbr.empty()) return std::nullopt;
      return std::string(row.abbr);
    }
  }
  return std::nullopt;
}

const std::vector<std::string>& AllDtypes() {
  static const std::vector<std::string> all = [] {
    std::vector<std::string> names;
    for (const auto& row : kDtypes) names.emplace_back(row.canonical);
    return names;
  }();
  return all;
}

}  // namespace testmap::core
