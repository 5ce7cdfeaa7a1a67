// Files are read only under --allow, also through `..` and symlinks.
#include "mcp/path_policy.h"

#include <gtest/gtest.h>

#include <filesystem>

#include "core/errors.h"
#include "tests/support/temp_dir.h"

namespace testmap::mcp {
namespace {

namespace fs = std::filesystem;

TEST(PathPolicy, OnlyUnderTheRoots) {
  testing::TempDir dir;
  fs::path allowed = fs::path(dir.path()) / "allowed";
  fs::path secret = fs::path(dir.path()) / "secret";
  fs::create_directories(allowed / "sub");
  fs::create_directories(secret);
  testing::WriteFile((allowed / "sub" / "t.xml").string(), "<testsuite/>");
  testing::WriteFile((secret / "s.xml").string(), "<testsuite/>");
  testing::WriteFile((fs::path(dir.path()) / "allowed-not.xml").string(), "x");
  fs::create_symlink(secret / "s.xml", allowed / "link.xml");
  fs::create_symlink(secret, allowed / "dirlink");

  PathPolicy policy({allowed.string()});
  EXPECT_EQ(policy.Resolve((allowed / "sub" / "t.xml").string()),
            fs::canonical(allowed / "sub" / "t.xml").string());
  auto refused = [&](const fs::path& p) {
    try {
      policy.Resolve(p.string());
    } catch (const core::InputError& e) {
      return std::string(e.what());
    }
    return std::string();
  };
  EXPECT_NE(refused(secret / "s.xml").find("outside the allowed paths"), std::string::npos);
  EXPECT_NE(refused(allowed / ".." / "secret" / "s.xml").find("outside"), std::string::npos);
  // A sibling whose name starts like the root is not under it.
  EXPECT_NE(refused(fs::path(dir.path()) / "allowed-not.xml").find("outside"), std::string::npos);
  EXPECT_NE(refused(allowed / "link.xml").find("leads outside"), std::string::npos);
  EXPECT_NE(refused(allowed / "dirlink" / "s.xml").find("leads outside"), std::string::npos);
  EXPECT_NE(refused(allowed / "missing.xml"), "");
  EXPECT_NE(refused(allowed / "sub"), "");  // a directory is no timing file

  PathPolicy none({});
  try {
    none.Resolve((allowed / "sub" / "t.xml").string());
    FAIL() << "a server without --allow reads no file";
  } catch (const core::InputError& e) {
    EXPECT_NE(std::string(e.what()).find("--allow"), std::string::npos);
  }
}

// diff's sides may be directories (an index, a test tree); a tree's Python
// is run as the link it is (a virtualenv's), but only from under a root.
TEST(PathPolicy, DirectoriesAndPrograms) {
  testing::TempDir dir;
  fs::path allowed = fs::path(dir.path()) / "allowed";
  fs::path secret = fs::path(dir.path()) / "secret";
  fs::create_directories(allowed / "tree");
  fs::create_directories(allowed / "bin");
  fs::create_directories(secret);
  testing::WriteFile((secret / "python").string(), "#!/bin/sh\n");
  fs::permissions(secret / "python", fs::perms::owner_all);
  testing::WriteFile((allowed / "data.txt").string(), "x");
  fs::create_symlink(secret / "python", allowed / "bin" / "python");
  fs::create_symlink(secret, allowed / "dirlink");

  PathPolicy policy({allowed.string()});
  using Kind = PathPolicy::Kind;
  EXPECT_EQ(policy.Resolve((allowed / "tree").string(), Kind::kFileOrDirectory),
            fs::canonical(allowed / "tree").string());
  EXPECT_THROW(policy.Resolve((allowed / "tree").string()), core::InputError);
  EXPECT_THROW(policy.Resolve((allowed / "dirlink").string(), Kind::kFileOrDirectory),
               core::InputError);
  EXPECT_THROW(policy.Resolve(secret.string(), Kind::kFileOrDirectory), core::InputError);
  // The link under the root is returned as written, not its target.
  EXPECT_EQ(policy.ResolveProgram((allowed / "bin" / "python").string()),
            (allowed / "bin" / "python").string());
  EXPECT_THROW(policy.ResolveProgram((secret / "python").string()), core::InputError);
  EXPECT_THROW(policy.ResolveProgram((allowed / "data.txt").string()), core::InputError);
  EXPECT_THROW(
      policy.ResolveProgram((allowed / "bin" / ".." / ".." / "secret" / "python").string()),
      core::InputError);
  // A root given through a link (a linked .venv): paths as written under it.
  fs::create_symlink(allowed, fs::path(dir.path()) / "linked-root");
  PathPolicy linked({(fs::path(dir.path()) / "linked-root" / "bin").string()});
  fs::path written = fs::path(dir.path()) / "linked-root" / "bin" / "python";
  EXPECT_EQ(linked.ResolveProgram(written.string()), written.string());
  EXPECT_THROW(linked.ResolveProgram((allowed / "data.txt").string()), core::InputError);
}

}  // namespace
}  // namespace testmap::mcp
