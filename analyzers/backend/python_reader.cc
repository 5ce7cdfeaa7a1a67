#include "analyzers/backend/python_reader.h"

#include <algorithm>
#include <filesystem>
#include <fstream>
#include <map>
#include <sstream>

#include "analyzers/backend/py_interpreter.h"

namespace testmap::backend {
namespace {

namespace fs = std::filesystem;

// The dotted module name of a file: its path from the first folder above
// it that is not a package.
std::string ModuleName(const fs::path& file, bool* is_package) {
  *is_package = file.filename() == "__init__.py";
  std::vector<std::string> parts;
  if (!*is_package) parts.push_back(file.stem().string());
  for (fs::path dir = file.parent_path(); fs::exists(dir / "__init__.py"); dir = dir.parent_path())
    parts.push_back(dir.filename().string());
  std::string name;
  for (auto it = parts.rbegin(); it != parts.rend(); ++it) name += (name.empty() ? "" : ".") + *it;
  return name;
}

// rename_privateuse1_backend("name") anywhere: device strings mean
// PrivateUse1 from the start, whichever module renames.
void FindRenames(const std::string& text, std::set<std::string>* names) {
  static const std::string kCall = "rename_privateuse1_backend(";
  for (size_t at = text.find(kCall); at != std::string::npos; at = text.find(kCall, at + 1)) {
    size_t q = text.find_first_not_of(" \t\n", at + kCall.size());
    if (q == std::string::npos || (text[q] != '"' && text[q] != '\'')) continue;
    size_t end = text.find(text[q], q + 1);
    if (end != std::string::npos) names->insert(text.substr(q + 1, end - q - 1));
  }
}

}  // namespace

PythonScanResult ScanPython(const SourceTree& tree, const TorchFacts& torch,
                            const std::set<std::string>& privateuse1_names) {
  PythonScanResult result;
  result.privateuse1_names = privateuse1_names;
  auto parser = python::NewPythonParser();
  std::vector<std::unique_ptr<PyModule>> modules;
  for (const auto& path : tree.python_files) {
    ++result.modules;
    Diagnostic error;
    std::optional<std::string> source = ReadSourceFile(path, &error);
    if (!source) {
      result.diagnostics.push_back(std::move(error));
      ++result.unreadable;
      continue;
    }
    std::string text = std::move(*source);
    if (auto bad = python::FirstInvalidUtf8(text)) {
      int line = 1 + static_cast<int>(std::count(text.begin(), text.begin() + *bad, '\n'));
      result.diagnostics.push_back(
          {Diagnostic::Severity::kError, path, line, "not UTF-8: the file is not read"});
      ++result.unreadable;
      continue;
    }
    FindRenames(text, &result.privateuse1_names);
    auto m = std::make_unique<PyModule>();
    m->path = path;
    m->name = ModuleName(path, &m->is_package);
    try {
      m->parsed = std::make_unique<python::ParsedModule>(parser.get(), std::move(text));
    } catch (const python::ParseTimeout& e) {
      result.diagnostics.push_back({Diagnostic::Severity::kError, path, 0, e.what()});
      ++result.unreadable;
      continue;
    }
    if (auto line = m->parsed->FirstSyntaxErrorLine()) {
      result.diagnostics.push_back(
          {Diagnostic::Severity::kError, path, *line, "syntax error: the file is not read"});
      ++result.unreadable;
      continue;
    }
    m->model = std::make_unique<python::ModuleModel>(python::BuildModuleModel(*m->parsed));
    m->strings = std::make_unique<python::Evaluator>(*m->parsed, *m->model, [] { return nullptr; });
    modules.push_back(std::move(m));
  }

  std::map<std::string, PyModule*> by_name;
  for (const auto& m : modules) by_name.emplace(m->name, m.get());
  TorchLibraryModel model(torch, &result.records, &result.diagnostics);
  for (const auto& n : result.privateuse1_names) model.AddPrivateUse1Name(n);
  PyInterpreter interpreter(model, by_name, &result.diagnostics);
  // Packages first, from their __init__ (as `import pkg` would); then
  // modules outside any package; then modules nothing imported, whose
  // registrations are uncertain.
  for (const auto& [name, m] : by_name)
    if (name.find('.') == std::string::npos) interpreter.Run(m);
  for (const auto& [name, m] : by_name)
    if (m->state == PyModule::State::kNotRun) {
      result.diagnostics.push_back({Diagnostic::Severity::kWarning, m->path, 0,
                                    "no package imports this module; what it registers is read "
                                    "as an upper bound"});
      interpreter.Run(m, /*maybe_not_imported=*/true);
    }
  for (const auto& n : model.privateuse1_names()) result.privateuse1_names.insert(n);
  return result;
}

}  // namespace testmap::backend
