// LoadTorchSnapshot against an independent reader: a snapshot the real
// torch wrote must load as nlohmann::json reads the same file, every field
// of it; number kinds, optional keys and bad input (each a runtime_error
// that starts with the file's path, never a crash) on variants of it.
#include <gtest/gtest.h>

#include <cmath>
#include <cstring>
#include <functional>
#include <nlohmann/json.hpp>
#include <stdexcept>
#include <string>

#include "analyzers/torch_snapshot/torch_snapshot.h"
#include "tests/support/command.h"
#include "tests/support/temp_dir.h"

namespace testmap::torch_snapshot {
namespace {

using nlohmann::json;

constexpr const char* kOpDb = "torch.testing._internal.common_methods_invocations.op_db";
constexpr const char* kSpectralFuncType = "torch.testing._internal.opinfo.core.SpectralFuncType";

// The real torch's snapshot, from the shared cache (taking one anew costs
// seconds), and its text.
const std::string& RealPath() {
  static const std::string path = EnsureTorchSnapshot(TESTMAP_PYTHON, DefaultCacheDir());
  return path;
}
const std::string& RealText() {
  static const std::string text = testing::ReadFile(RealPath());
  return text;
}
const json& RealJson() {
  static const json j = json::parse(RealText());
  return j;
}

// The real snapshot's text with `insert` placed first in module_constants.
std::string WithConstants(const std::string& insert) {
  std::string text = RealText();
  const std::string key = "\"module_constants\":{";
  size_t at = text.find(key);
  EXPECT_NE(at, std::string::npos);
  return at == std::string::npos ? text : text.insert(at + key.size(), insert + ",");
}

std::vector<std::string> Split(const std::string& names) {
  std::vector<std::string> out;
  for (size_t b = 0; b < names.size();) {
    size_t e = std::min(names.find(' ', b), names.size());
    if (e > b) out.push_back(names.substr(b, e - b));
    b = e + 1;
  }
  std::sort(out.begin(), out.end());
  return out;
}

// A module constant as nlohmann reads it.
void ExpectPlain(const PlainValue& v, const json& want, const std::string& name) {
  using K = PlainValue::Kind;
  SCOPED_TRACE(name + " = " + want.dump());
  if (want.is_null()) {
    EXPECT_EQ(v.kind, K::kNone);
  } else if (want.is_boolean()) {
    EXPECT_EQ(v.kind, K::kBool);
    EXPECT_EQ(v.truthy, want.get<bool>());
  } else if (want.is_number_integer()) {
    EXPECT_EQ(v.kind, K::kInt);
    EXPECT_EQ(v.i, want.get<int64_t>());
  } else if (want.is_number_float()) {
    EXPECT_EQ(v.kind, K::kFloat);
    EXPECT_EQ(std::memcmp(&v.f, &want.get_ref<const double&>(), sizeof v.f), 0) << v.f;
  } else if (want.is_string()) {
    EXPECT_EQ(v.kind, K::kStr);
    EXPECT_EQ(v.s, want.get<std::string>());
  } else {
    EXPECT_EQ(v.kind, K::kAbsent);
  }
}

TEST(LoadTorchSnapshot, ARealSnapshotLoadsAsAnotherJsonReaderReadsIt) {
  TorchSnapshot s = LoadTorchSnapshot(RealPath());
  const json& j = RealJson();
  EXPECT_EQ(s.path, RealPath());
  EXPECT_EQ(s.torch_version, j["torch_version"].get<std::string>());
  EXPECT_EQ(s.torch_git_version, j["torch_git_version"].get<std::string>());
  EXPECT_EQ(s.torch_version, SnapshotTorchVersion(RealText()));
  EXPECT_EQ(s.dtype_names, j["dtype_names"].get<std::vector<std::string>>());
  EXPECT_EQ(s.device_types, j["device_types"].get<std::vector<std::string>>());
  EXPECT_EQ(s.op_flags, j["op_flags"].get<std::vector<std::string>>());
  EXPECT_EQ(s.all_dtypes, j["all_dtypes"].get<std::vector<std::string>>());
  EXPECT_EQ(s.any_dtype_order, j["any_dtype_order"].get<std::vector<std::string>>());
  EXPECT_EQ(s.dtype_aliases, (j["dtype_aliases"].get<std::map<std::string, std::string>>()));
  EXPECT_EQ(s.dtype_helpers,
            (j["dtype_helpers"].get<std::map<std::string, std::vector<std::string>>>()));
  EXPECT_EQ(s.op_attr_names, j["op_attr_names"].get<std::vector<std::string>>());
  EXPECT_EQ(s.module_attr_names, j["module_attr_names"].get<std::vector<std::string>>());
  EXPECT_EQ(s.op_classes, j["op_classes"].get<std::vector<std::vector<std::string>>>());
  EXPECT_EQ(s.entry_lines, j["entry_lines"].get<std::vector<std::string>>());
  EXPECT_EQ(s.op_lists, (j["op_lists"].get<std::map<std::string, std::vector<int>>>()));
  EXPECT_EQ(s.module_lists, (j["module_lists"].get<std::map<std::string, std::vector<int>>>()));
  EXPECT_EQ(s.module_alls,
            (j["module_alls"].get<std::map<std::string, std::vector<std::string>>>()));
  EXPECT_EQ(s.operator_kernel_keys, j["operator_kernel_keys"].get<std::vector<std::string>>());
  EXPECT_EQ(s.operator_tags, j["operator_tags"].get<std::vector<std::string>>());
  EXPECT_EQ(s.content_hash.size(), 32u);

  // The real torch's counts, then each entry field by field.
  ASSERT_GT(j["ops"].size(), 500u);
  ASSERT_GT(j["operators"].size(), 2000u);
  ASSERT_GT(s.op_lists.at(kOpDb).size(), 500u);
  // Lists of other modules, by module and name (format 6).
  EXPECT_GT(s.op_lists.at("torch.testing._internal.custom_op_db.custom_op_db").size(), 0u);
  EXPECT_LT(s.op_lists.at("torch.testing._internal.opinfo.definitions.linalg.op_db").size(),
            s.op_lists.at(kOpDb).size());
  // Enum classes and the names modules bind them under.
  ASSERT_EQ(s.enum_classes.size(), j["enum_classes"].size());
  for (const EnumClass& c : s.enum_classes)
    EXPECT_EQ(c.members, (j["enum_classes"][c.qualified].get<std::map<std::string, std::string>>()))
        << c.qualified;
  ASSERT_EQ(s.enum_names.size(), j["enum_names"].size());
  for (const auto& [name, i] : s.enum_names)
    EXPECT_EQ(s.enum_classes.at(i).qualified, j["enum_names"][name].get<std::string>()) << name;
  const int spectral = s.FindEnumClass(kSpectralFuncType);
  ASSERT_GE(spectral, 0);
  EXPECT_EQ(s.enum_names.at("torch.testing._internal.common_methods_invocations.SpectralFuncType"),
            spectral);
  EXPECT_EQ(s.FindEnumClass("torch.testing._internal.opinfo.core.NoSuchEnum"), -1);
  // An OpInfo attribute holding a member (`ndimensional`) decodes to it.
  size_t enum_attrs = 0;
  for (int i : s.op_lists.at("torch.testing._internal.common_methods_invocations.spectral_funcs")) {
    const PlainValue* v = s.OpAttribute(s.ops[i], "ndimensional");
    ASSERT_NE(v, nullptr);
    ASSERT_EQ(v->kind, PlainValue::Kind::kEnum) << s.ops[i].name;
    EXPECT_TRUE(v->truthy);
    EXPECT_TRUE(v->s.rfind(std::string(kSpectralFuncType) + ".", 0) == 0) << v->s;
    ++enum_attrs;
  }
  EXPECT_GT(enum_attrs, 10u);
  ASSERT_EQ(s.ops.size(), j["ops"].size());
  for (size_t i = 0; i < s.ops.size(); ++i) {
    const OpInfoEntry& op = s.ops[i];
    const json& o = j["ops"][i];
    SCOPED_TRACE(o["name"].get<std::string>());
    EXPECT_EQ(op.name, o["name"].get<std::string>());
    EXPECT_EQ(op.variant_test_name, o["variant_test_name"].get<std::string>());
    EXPECT_EQ(op.formatted_name, o["formatted_name"].get<std::string>());
    EXPECT_EQ(op.aten_name, o["aten_name"].is_string() ? o["aten_name"].get<std::string>() : "");
    EXPECT_EQ(op.dtypes, o["dtypes"].get<std::vector<DtypeMask>>());
    EXPECT_EQ(op.backward_dtypes, o["backward_dtypes"].get<std::vector<DtypeMask>>());
    EXPECT_EQ(op.dtypes_default, o["dtypes_default"].get<DtypeMask>());
    EXPECT_EQ(op.dtypes_if_cuda, o["dtypes_if_cuda"].get<DtypeMask>());
    EXPECT_EQ(op.cls, o.value("cls", -1));
    EXPECT_EQ(op.attr_row, o.value("attrs", ""));
    EXPECT_EQ(op.entry, o.value("entry", ""));
    for (size_t f = 0; f < s.op_flags.size(); ++f) {
      bool set = std::count(o["flags"].begin(), o["flags"].end(), s.op_flags[f]) > 0;
      EXPECT_EQ(s.OpFlag(op, s.op_flags[f]), set) << s.op_flags[f];
    }
  }
  // Spot values read by name: `add` on the CPU has float32 and int64.
  auto add = std::find_if(s.ops.begin(), s.ops.end(), [](const OpInfoEntry& op) {
    return op.name == "add" && op.variant_test_name.empty();
  });
  ASSERT_NE(add, s.ops.end());
  std::vector<std::string> cpu = s.OpDtypes(*add, "cpu", false);
  EXPECT_NE(std::find(cpu.begin(), cpu.end(), "float32"), cpu.end());
  EXPECT_NE(std::find(cpu.begin(), cpu.end(), "int64"), cpu.end());
  EXPECT_EQ(add->aten_name, "add");

  ASSERT_EQ(s.modules.size(), j["modules"].size());
  for (size_t i = 0; i < s.modules.size(); ++i) {
    const ModuleInfoEntry& m = s.modules[i];
    const json& o = j["modules"][i];
    SCOPED_TRACE(o["name"].get<std::string>());
    EXPECT_EQ(m.name, o["name"].get<std::string>());
    EXPECT_EQ(m.formatted_name, o["formatted_name"].get<std::string>());
    EXPECT_EQ(m.module_cls, o.value("module_cls", ""));
    EXPECT_EQ(m.train_and_eval_differ, o["train_and_eval_differ"].get<bool>());
    EXPECT_EQ(m.dtypes, o["dtypes"].get<std::vector<DtypeMask>>());
    EXPECT_EQ(m.attr_row, o.value("attrs", ""));
    EXPECT_EQ(m.entry, o.value("entry", ""));
    EXPECT_EQ(m.ctor_params.has_value(), o.contains("ctor_params") && o["ctor_params"].is_array());
    if (m.ctor_params) EXPECT_EQ(*m.ctor_params, o["ctor_params"].get<std::vector<std::string>>());
  }

  ASSERT_EQ(s.operators.size(), j["operators"].size());
  for (size_t i = 0; i < s.operators.size(); ++i) {
    const json& o = j["operators"][i];
    EXPECT_EQ(s.operators[i].name, o[0].get<std::string>());
    EXPECT_EQ(s.operators[i].schema, o[1].get<std::string>());
    EXPECT_EQ(s.operators[i].kernels, o[2].get<uint32_t>());
    EXPECT_EQ(s.operators[i].tags, o[3].get<uint64_t>());
  }

  ASSERT_EQ(s.dtype_helper_calls.size(), j["dtype_helper_calls"].size());
  for (const auto& [name, call] : j["dtype_helper_calls"].items()) {
    const DtypeHelperCall& c = s.dtype_helper_calls.at(name);
    EXPECT_EQ(c.params, call["params"].get<std::vector<std::string>>());
    ASSERT_EQ(c.defaults.size(), call["defaults"].size());
    for (size_t i = 0; i < c.defaults.size(); ++i) {
      const json& d = call["defaults"][i];
      EXPECT_EQ(c.defaults[i], d.is_boolean() ? std::optional<bool>(d.get<bool>()) : std::nullopt);
    }
    EXPECT_EQ(c.results, (call["results"].get<std::map<std::string, std::vector<std::string>>>()));
  }
  // A device parameter has no default (get_all_math_dtypes("cpu")).
  EXPECT_EQ(s.dtype_helper_calls.at("get_all_math_dtypes").defaults,
            std::vector<std::optional<bool>>{std::nullopt});

  size_t constants = 0, floats = 0;
  for (const auto& [module, consts] : j["module_constants"].items()) {
    if (consts.empty()) {
      EXPECT_EQ(s.module_constants.count(module), 0u) << module;
      continue;
    }
    for (const auto& [name, value] : consts.items()) {
      ExpectPlain(s.module_constants.at(module).at(name), value, module + "." + name);
      ++constants;
      floats += value.is_number_float();
    }
  }
  EXPECT_GT(constants, 100u);
  EXPECT_GT(floats, 0u);  // GRADCHECK_NONDET_TOL and the like

  ASSERT_EQ(s.module_names.size(), j["module_names"].size());
  for (const auto& [module, names] : j["module_names"].items())
    EXPECT_EQ(s.module_names.at(module), Split(names.get<std::string>())) << module;
}

TEST(LoadTorchSnapshot, ModuleConstantsKeepTheirNumberKinds) {
  std::string path = testing::WriteTempFile(
      "kinds.json",
      WithConstants(R"("x.kinds":{"int":1,"float":1.0,"neg_zero":-0.0,"int_zero":-0,"tiny":1e-12,)"
                    R"("exp":1E5,"max":9223372036854775807,"min":-9223372036854775808,)"
                    R"("past_int64":9223372036854775808,"none":null,"yes":true,"no":false,)"
                    R"("str":"\u00e9\"\\\u0000","empty":"","list":[1],"dict":{"a":1}},)"
                    R"("x.nothing":{})"));
  TorchSnapshot s = LoadTorchSnapshot(path);
  const auto& k = s.module_constants.at("x.kinds");
  using K = PlainValue::Kind;
  EXPECT_EQ(k.at("int").kind, K::kInt);
  EXPECT_EQ(k.at("int").i, 1);
  EXPECT_EQ(k.at("float").kind, K::kFloat);
  EXPECT_EQ(k.at("float").f, 1.0);
  EXPECT_TRUE(k.at("float").truthy);
  EXPECT_EQ(k.at("neg_zero").kind, K::kFloat);
  EXPECT_TRUE(std::signbit(k.at("neg_zero").f));
  EXPECT_FALSE(k.at("neg_zero").truthy);
  EXPECT_EQ(k.at("int_zero").kind, K::kInt);
  EXPECT_EQ(k.at("tiny").f, 1e-12);
  EXPECT_EQ(k.at("exp").kind, K::kFloat);
  EXPECT_EQ(k.at("exp").f, 1e5);
  EXPECT_EQ(k.at("max").i, std::numeric_limits<int64_t>::max());
  EXPECT_EQ(k.at("min").i, std::numeric_limits<int64_t>::min());
  // Past int64 (snapshot_torch.py writes none past 2**62): an int, its bits kept.
  EXPECT_EQ(k.at("past_int64").kind, K::kInt);
  EXPECT_EQ(static_cast<uint64_t>(k.at("past_int64").i), uint64_t{1} << 63);
  EXPECT_EQ(k.at("none").kind, K::kNone);
  EXPECT_EQ(k.at("yes").kind, K::kBool);
  EXPECT_TRUE(k.at("yes").truthy);
  EXPECT_FALSE(k.at("no").truthy);
  EXPECT_EQ(k.at("str").s, std::string("\xc3\xa9\"\\\0", 5));
  EXPECT_FALSE(k.at("empty").truthy);
  EXPECT_EQ(k.at("list").kind, K::kAbsent);
  EXPECT_EQ(k.at("dict").kind, K::kAbsent);
  EXPECT_EQ(s.module_constants.count("x.nothing"), 0u);
  // And as the independent reader has them, value by value.
  json want = json::parse(testing::ReadFile(path))["module_constants"]["x.kinds"];
  for (const auto& [name, value] : want.items()) ExpectPlain(k.at(name), value, name);
}

// What names of torch and standard modules are, against the live modules:
// a __name__ where they have one, numbers by value, other objects opaque.
TEST(LoadTorchSnapshot, ExternalNamesAreWhatTheLiveModulesHold) {
  const std::vector<std::string> names = {"torch.add",
                                          "torch.channels_last",
                                          "torch.strided",
                                          "torch.Tensor",
                                          "torch.nn.functional.relu",
                                          "torch.nn",
                                          "math.pi",
                                          "math.inf",
                                          "sys.maxsize",
                                          "operator.mul",
                                          "builtins.abs",
                                          "numpy.float32",
                                          "numpy.e"};
  std::string script =
      "import importlib, json, sys\nout = {}\nfor q in sys.argv[1:]:\n"
      "    m, _, n = q.rpartition('.')\n    v = getattr(importlib.import_module(m), n)\n"
      "    name = getattr(v, '__name__', None)\n"
      "    if isinstance(name, str): out[q] = ['named', name]\n"
      "    elif isinstance(v, (int, float)): out[q] = ['number', repr(v)]\n"
      "    else: out[q] = ['object', bool(v)]\nprint(json.dumps(out))\n";
  std::vector<std::string> args = {"-c", script};
  args.insert(args.end(), names.begin(), names.end());
  auto live = testing::Python(args);
  ASSERT_EQ(live.rc, 0) << live.err;
  json truth = json::parse(live.out);
  TorchSnapshot s = LoadTorchSnapshot(RealPath());
  using K = PlainValue::Kind;
  for (const auto& q : names) {
    SCOPED_TRACE(q);
    size_t dot = q.rfind('.');
    const PlainValue* v = s.ExternalName(q.substr(0, dot), q.substr(dot + 1));
    ASSERT_NE(v, nullptr);
    const json& want = truth[q];
    if (want[0] == "named") {
      EXPECT_EQ(v->kind, K::kNamed);
      EXPECT_EQ(v->s, want[1].get<std::string>());
    } else if (want[0] == "number") {
      std::string r = want[1];
      if (r == "inf") {
        EXPECT_EQ(v->kind, K::kNumber);  // no plain spelling: str() names it
      } else if (r.find_first_of(".e") == std::string::npos) {
        EXPECT_EQ(v->kind, K::kInt);
        EXPECT_EQ(std::to_string(v->i), r);
      } else {
        EXPECT_EQ(v->kind, K::kFloat);
        EXPECT_EQ(v->f, std::stod(r));
      }
    } else {
      EXPECT_EQ(v->kind, K::kObject);
      EXPECT_EQ(v->truthy, want[1].get<bool>());
    }
  }
  EXPECT_EQ(s.ExternalName("math", "no_such_name"), nullptr);
  EXPECT_EQ(s.ExternalName("no_such_module", "pi"), nullptr);
}

TEST(LoadTorchSnapshot, KeysAnOlderOrPartialSnapshotLacksTakeTheirDefaults) {
  json j = RealJson();
  j.erase("operator_tags");  // came later within format 4
  for (json& o : j["operators"]) o.erase(3);
  j.erase("torch_git_version");
  for (const char* key : {"cls", "attrs", "entry"}) j["ops"][0].erase(key);
  j["ops"][1]["aten_name"] = nullptr;
  for (const char* key : {"module_cls", "attrs", "entry", "ctor_params"})
    j["modules"][0].erase(key);
  j["modules"][1]["ctor_params"] = nullptr;
  j["ops"][2]["flags"] = {"no_such_flag", "supports_out"};
  j.erase("external_names");  // optional: a snapshot without it knows no such name
  TorchSnapshot s = LoadTorchSnapshot(testing::WriteTempFile("partial.json", j.dump()));
  EXPECT_TRUE(s.operator_tags.empty());
  EXPECT_TRUE(s.external_names.empty());
  EXPECT_EQ(s.ExternalName("math", "pi"), nullptr);
  ASSERT_EQ(s.operators.size(), j["operators"].size());
  for (size_t i = 0; i < s.operators.size(); ++i) {
    EXPECT_EQ(s.operators[i].tags, 0u);
    EXPECT_EQ(s.operators[i].kernels, j["operators"][i][2].get<uint32_t>());
  }
  EXPECT_EQ(s.torch_git_version, "");
  EXPECT_EQ(s.ops[0].cls, -1);
  EXPECT_EQ(s.ops[0].attr_row, "");
  EXPECT_EQ(s.ops[0].entry, "");
  EXPECT_EQ(s.OpAttribute(s.ops[0], "ref"), nullptr);  // no row: attributes unknown
  EXPECT_EQ(s.ops[1].aten_name, "");
  EXPECT_EQ(s.ops[2].flags,
            uint64_t{1} << (std::find(s.op_flags.begin(), s.op_flags.end(), "supports_out") -
                            s.op_flags.begin()));
  EXPECT_EQ(s.modules[0].module_cls, "");
  EXPECT_FALSE(s.modules[0].ctor_params.has_value());
  EXPECT_FALSE(s.modules[1].ctor_params.has_value());
  EXPECT_TRUE(s.modules[2].ctor_params.has_value());
}

// An attribute row's Enum member (`e<length>:<class>.<member>`) is read as
// its class and member; one that runs past its row leaves that object's
// attributes unknown rather than wrong.
TEST(LoadTorchSnapshot, EnumMembersInAttributeRowsDecodeOrLeaveTheRowUnknown) {
  json j = RealJson();
  const std::string member = std::string(kSpectralFuncType) + ".TwoD";
  const std::string code = "e" + std::to_string(member.size()) + ":" + member;
  size_t edited = 0, broken = 0;
  for (size_t i = 0; i < j["ops"].size(); ++i) {
    std::string row = j["ops"][i].value("attrs", "");
    size_t at = row.find("e" + std::to_string(std::strlen(kSpectralFuncType) + 5) + ":" +
                         kSpectralFuncType + ".OneD");
    if (at == std::string::npos) continue;
    std::string one_d = "e" + std::to_string(std::strlen(kSpectralFuncType) + 5) + ":" +
                        kSpectralFuncType + ".OneD";
    if (edited == 0) {
      j["ops"][i]["attrs"] = row.replace(at, one_d.size(), code);
      edited = i;
    } else if (broken == 0) {
      j["ops"][i]["attrs"] = row.substr(0, at) + "e9999:" + kSpectralFuncType;
      broken = i;
    }
  }
  ASSERT_GT(edited, 0u);
  ASSERT_GT(broken, 0u);
  TorchSnapshot s = LoadTorchSnapshot(testing::WriteTempFile("enums.json", j.dump()));
  const PlainValue* v = s.OpAttribute(s.ops[edited], "ndimensional");
  ASSERT_NE(v, nullptr);
  EXPECT_EQ(v->kind, PlainValue::Kind::kEnum);
  EXPECT_EQ(v->s, member);
  EXPECT_EQ(s.OpAttribute(s.ops[broken], "ndimensional"), nullptr);
}

// A snapshot variant and the message it must give after "PATH: ".
struct BadInput {
  const char* name;
  std::function<std::string()> text;
  std::string message;
};

std::string Edited(const std::function<void(json&)>& edit) {
  json j = RealJson();
  edit(j);
  return j.dump();
}

std::string Replaced(const std::string& from, const std::string& to) {
  std::string text = RealText();
  size_t at = text.find(from);
  EXPECT_NE(at, std::string::npos) << from;
  return at == std::string::npos ? text : text.replace(at, from.size(), to);
}

TEST(LoadTorchSnapshot, BadInputIsARuntimeErrorNamingTheFile) {
  const std::string first_op = RealJson()["ops"][0]["name"];
  const size_t ops = RealJson()["ops"].size(), modules = RealJson()["modules"].size();
  const std::string deep = std::string(100000, '[') + std::string(100000, ']');
  const std::vector<BadInput> cases = {
      {"truncated", [] { return RealText().substr(0, RealText().size() / 2); },
       "not a torch snapshot: "},
      {"empty", [] { return std::string(); }, "not a torch snapshot: "},
      {"NUL in a string",
       [] { return Replaced("\"torch_version\":\"", std::string("\"torch_version\":\"\0", 18)); },
       "not a torch snapshot: "},
      {"NUL after the document", [] { return RealText() + std::string(1, '\0'); },
       "not a torch snapshot: "},
      {"a second document", [] { return RealText() + "{}"; }, "not a torch snapshot: "},
      {"bad UTF-8", [] { return Replaced("\"torch_version\":\"", "\"torch_version\":\"\xff"); },
       "not a torch snapshot: "},
      {"another format",
       [] { return Edited([](json& j) { j["format"] = "testmap-torch-snapshot/5"; }); },
       "unknown snapshot format (want testmap-torch-snapshot/6)"},
      {"format not a string", [] { return Edited([](json& j) { j["format"] = 5; }); },
       "unknown snapshot format (want testmap-torch-snapshot/6)"},
      {"not an object", [] { return std::string("[\"testmap-torch-snapshot/6\"]"); },
       "unknown snapshot format (want testmap-torch-snapshot/6)"},
      {"missing key", [] { return Edited([](json& j) { j.erase("operators"); }); },
       "malformed torch snapshot: `operators` is missing"},
      {"missing op key", [] { return Edited([](json& j) { j["ops"][5].erase("name"); }); },
       "malformed torch snapshot: `ops[5].name` is missing"},
      {"list of another type", [] { return Edited([](json& j) { j["dtype_names"] = "float32"; }); },
       "malformed torch snapshot: `dtype_names` is not a list"},
      {"mask of another type",
       [] { return Edited([](json& j) { j["ops"][0]["dtypes"] = {"x"}; }); },
       "malformed torch snapshot: `ops[0].dtypes` is not a number in range"},
      {"negative mask", [] { return Edited([](json& j) { j["ops"][3]["dtypes_default"] = -1; }); },
       "malformed torch snapshot: `ops[3].dtypes_default` is not a number in range"},
      {"bool of another type",
       [] { return Edited([](json& j) { j["modules"][0]["train_and_eval_differ"] = 1; }); },
       "malformed torch snapshot: `modules[0].train_and_eval_differ` is not a bool"},
      {"short operator",
       [] { return Edited([](json& j) {
              j["operators"][7] = {"aten::x", "aten::x() -> ()"};
            }); },
       "malformed torch snapshot: `operators[7]` has fewer than 3 fields"},
      {"kernels past 32 bits",
       [] { return Edited([](json& j) { j["operators"][0][2] = uint64_t{1} << 32; }); },
       "malformed torch snapshot: `operators[0][2]` is not a number in range"},
      {"helper results of another type",
       [] {
         return Edited([](json& j) { j["dtype_helper_calls"]["get_all_dtypes"]["results"] = {1}; });
       },
       "malformed torch snapshot: `dtype_helper_calls.get_all_dtypes.results` is not an object"},
      {"module constants of another type",
       [] { return Edited([](json& j) { j["module_constants"]["x"] = {1}; }); },
       "malformed torch snapshot: `module_constants.x` is not an object"},
      {"op list index past the ops",
       [&] { return Edited([&](json& j) { j["op_lists"][kOpDb].push_back(ops); }); },
       std::string("op list ") + kOpDb + " has a bad index"},
      {"negative op list index",
       [] { return Edited([](json& j) { j["op_lists"][kOpDb].push_back(-1); }); },
       std::string("op list ") + kOpDb + " has a bad index"},
      {"op list index past int",
       [] { return Edited([](json& j) { j["op_lists"][kOpDb].push_back(int64_t{1} << 40); }); },
       std::string("malformed torch snapshot: `op_lists.") + kOpDb + "` is not a number in range"},
      {"module list index past the modules",
       [&] {
         return Edited([&](json& j) {
           j["module_lists"]["torch.testing._internal.common_modules.module_db"].push_back(modules);
         });
       },
       "module list torch.testing._internal.common_modules.module_db has a bad index"},
      {"entry index past the entry lines",
       [] {
         return Edited([](json& j) {
           j["ops"][0]["entry"] = "0 " + std::to_string(j["entry_lines"].size());
         });
       },
       "entry of " + first_op + " has a bad index"},
      {"enum classes missing", [] { return Edited([](json& j) { j.erase("enum_classes"); }); },
       "malformed torch snapshot: `enum_classes` is missing"},
      {"enum members of another type",
       [] { return Edited([](json& j) { j["enum_classes"][kSpectralFuncType] = {"OneD"}; }); },
       std::string("malformed torch snapshot: `enum_classes.") + kSpectralFuncType +
           "` is not an object"},
      {"enum member not a string",
       [] { return Edited([](json& j) { j["enum_classes"][kSpectralFuncType]["OneD"] = 1; }); },
       std::string("malformed torch snapshot: `enum_classes.") + kSpectralFuncType +
           ".OneD` is not a string"},
      {"enum alias of no member",
       [] {
         return Edited([](json& j) { j["enum_classes"][kSpectralFuncType]["Alias"] = "Nowhere"; });
       },
       std::string("enum member ") + kSpectralFuncType + ".Alias stands for no member"},
      {"enum alias of an alias",
       [] {
         return Edited([](json& j) {
           j["enum_classes"][kSpectralFuncType]["A"] = "B";
           j["enum_classes"][kSpectralFuncType]["B"] = "OneD";
         });
       },
       std::string("enum member ") + kSpectralFuncType + ".A stands for no member"},
      {"enum name of no class",
       [] { return Edited([](json& j) { j["enum_names"]["m.E"] = "m.NoSuchEnum"; }); },
       "malformed torch snapshot: `enum_names.m.E` names no class of enum_classes"},
      {"enum names of another type",
       [] { return Edited([](json& j) { j["enum_names"] = {"m.E"}; }); },
       "malformed torch snapshot: `enum_names` is not an object"},
      {"huge integer", [] { return WithConstants("\"x\":{\"h\":1" + std::string(40, '0') + "}"); },
       "not a torch snapshot: "},
      {"huge float", [] { return WithConstants(R"("x":{"h":1e400})"); }, "not a torch snapshot: "},
      {"deep nesting", [&] { return WithConstants("\"x\":{\"d\":" + deep + "}"); },
       "not a torch snapshot: "},
      {"unsorted attribute names",
       [] {
         return Edited([](json& j) {
           auto& names = j["op_attr_names"];
           std::reverse(names.begin(), names.end());
         });
       },
       "attribute names are not sorted"},
      {"external module not [names, row]",
       [] { return Edited([](json& j) { j["external_names"]["math"] = {"pi"}; }); },
       "malformed torch snapshot: `external_names.math` is not [names, row]"},
      {"external names unsorted",
       [] {
         return Edited([](json& j) { j["external_names"]["math"] = {{"pi", "e"}, "f1.0;f2.0;"}; });
       },
       "malformed torch snapshot: `external_names.math[0]` is not sorted"},
      {"external row shorter than its names",
       [] { return Edited([](json& j) {
              j["external_names"]["math"] = {{"e", "pi"}, "f1.0;"};
            }); },
       "malformed torch snapshot: attribute row does not match its columns"},
      {"external name running past its row",
       [] { return Edited([](json& j) {
              j["external_names"]["math"] = {{"e"}, "n99:e"};
            }); },
       "malformed torch snapshot: string runs past its attribute row"},
      {"external row of another type",
       [] { return Edited([](json& j) {
              j["external_names"]["math"] = {{"e"}, 5};
            }); },
       "malformed torch snapshot: `external_names.math[1]` is not a string"},
      {"unsorted operators",
       [] { return Edited([](json& j) { std::swap(j["operators"][0], j["operators"][1]); }); },
       "operator registry is not sorted by name"},
  };
  for (const BadInput& c : cases) {
    SCOPED_TRACE(c.name);
    std::string path = testing::WriteTempFile("bad.json", c.text());
    try {
      LoadTorchSnapshot(path);
      ADD_FAILURE() << "loaded";
    } catch (const std::runtime_error& e) {
      EXPECT_EQ(std::string(e.what()).rfind(path + ": " + c.message, 0), 0u) << e.what();
    }
  }
  try {
    LoadTorchSnapshot(testing::ScratchDir("no-snapshot") + "/missing.json");
    ADD_FAILURE() << "loaded";
  } catch (const std::runtime_error& e) {
    EXPECT_NE(std::string(e.what()).find("missing.json: cannot read"), std::string::npos)
        << e.what();
  }
}

}  // namespace
}  // namespace testmap::torch_snapshot
