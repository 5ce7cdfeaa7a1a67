// How torch's test machinery multiplies one generic test into many:
// @parametrize, @ops, @modules and the @dtypes family, reproduced from
// common_utils.py / common_device_type.py / common_modules.py without
// running them. Each parametrizer yields Instances (a name suffix and the
// parameters); stacked decorators compose as compose_parametrize_fns does.
#pragma once

#include <string>
#include <utility>
#include <vector>

#include "analyzers/python/expression_evaluator.h"
#include "analyzers/python/module_model.h"

namespace testmap::python {

struct Instance {
  std::string suffix;  // `x_1`, `nn_Linear_train_mode`, `` for dtypes
  std::vector<std::pair<std::string, Value>> kwargs;  // dtype(s), op, module_info, training, args
  std::vector<std::string> decorators;                // from subtest(decorators=...)
};

struct Expansion {
  std::vector<Instance> instances;
  // Why the expansion is incomplete or the file would fail to import; empty
  // when every instance is known exactly.
  std::vector<std::pair<int, std::string>> problems;  // (line, message)
};

// Where a test is being instantiated.
struct DeviceContext {
  std::string device_type;  // `cpu`, `cuda`, `privateuse1`; empty: instantiate_parametrized_tests
  std::string dtype_key;    // key of @dtypesIf* tables (`cpu`, or the privateuse1 backend name)
};

// Expands one generic test function's parametrization decorators (not the
// device or dtype suffix placement, which the caller does). Its decorators
// may read the attributes of `cls`, the class that defines `fn`, or, for a
// function made at import time (setattr_tests.h), the names it closes over.
Expansion ExpandTest(Evaluator& ev, const FunctionDef& fn, const DeviceContext& ctx,
                     const ClassDef* cls = nullptr, const Evaluator::Locals* closure = nullptr);

// The dtypes suffix of an instance: `_float32` or `_float32_int64`, or ``.
std::string DtypeSuffix(const Instance& inst);

// How a parameter value is spelled in torch test names (_formatted_str_repr).
std::string TorchParamRepr(const std::string& arg, const Value& v, size_t idx);

}  // namespace testmap::python
