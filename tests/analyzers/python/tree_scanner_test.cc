#include "analyzers/python/tree_scanner.h"

#include <gtest/gtest.h>

#include <filesystem>

#include "tests/support/temp_dir.h"

namespace testmap::python {
namespace {

TEST(DiscoverTestFiles, FollowsPytestNamingAndSkipsItsNorecursedirs) {
  testing::TempDir d;
  d.Write("test_a.py", "");
  d.Write("b_test.py", "");
  d.Write("helper.py", "");
  d.Write("sub/test_c.py", "");
  d.Write(".hidden/test_d.py", "");
  d.Write("build/test_e.py", "");
  d.Write("node_modules/test_f.py", "");
  d.Write("env/pyvenv.cfg", "");
  d.Write("env/test_g.py", "");
  std::vector<std::string> warnings, errors;
  auto files = DiscoverTestFiles({d.path().string()}, &warnings, &errors);
  std::vector<std::string> rel;
  for (const auto& f : files)
    rel.push_back(std::filesystem::path(f).lexically_relative(d.path()).string());
  EXPECT_EQ(rel, (std::vector<std::string>{"b_test.py", "sub/test_c.py", "test_a.py"}));
  EXPECT_TRUE(warnings.empty());
  EXPECT_TRUE(errors.empty());
}

TEST(DiscoverTestFiles, ReportsSymlinkLoopsAndMissingPaths) {
  testing::TempDir d;
  d.Write("pkg/test_a.py", "");
  std::filesystem::create_directory_symlink(d.path() / "pkg", d.path() / "pkg" / "again");
  std::vector<std::string> warnings, errors;
  auto files =
      DiscoverTestFiles({d.path().string(), (d.path() / "nope").string()}, &warnings, &errors);
  EXPECT_EQ(files.size(), 1u);
  ASSERT_EQ(warnings.size(), 1u);
  EXPECT_NE(warnings[0].find("symlink loop"), std::string::npos) << warnings[0];
  ASSERT_EQ(errors.size(), 1u);
  EXPECT_NE(errors[0].find("no such file"), std::string::npos) << errors[0];
}

}  // namespace
}  // namespace testmap::python
