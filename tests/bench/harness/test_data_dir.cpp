// Where the executable finds its data files (bench/harness/data_dir.cpp): $ROOFLINE_DATA_DIR first, the source
// tree for a binary that is not installed, a file named by path or by name, and a missing one refused with
// the flag and the names available.
#include <gtest/gtest.h>

#include <stdlib.h>

#include <filesystem>
#include <string>

#include "roofline/harness/data_dir.hpp"
#include "roofline/common/errors.hpp"
#include "support/temp_files.hpp"

namespace roofline {
namespace {
namespace fs = std::filesystem;

class DataDir : public ::testing::Test {
 protected:
  void SetUp() override {
    fs::create_directories(tmp_.path() / "specs");
    testing::write_file(tmp_.path() / "specs" / "zeta.json", "{}");
    testing::write_file(tmp_.path() / "specs" / "alpha.json", "{}");
    testing::write_file(tmp_.path() / "specs" / "notes.txt", "not a data file");
  }
  void TearDown() override { ::unsetenv("ROOFLINE_DATA_DIR"); }
  void use_tmp() { ::setenv("ROOFLINE_DATA_DIR", tmp_.path().c_str(), 1); }
  testing::TempDir tmp_;
};

TEST_F(DataDir, TheVariableComesFirst) {
  use_tmp();
  EXPECT_EQ(data_folder("specs"), tmp_.path() / "specs");
  EXPECT_EQ(data_folder("models"), tmp_.path() / "models");
  EXPECT_EQ(data_file_names("specs"), (std::vector<std::string>{"alpha", "zeta"}));  // .json stems, sorted
}

TEST_F(DataDir, ANotInstalledBinaryReadsTheSourceTree) {
  // The test binary lies in the build tree: no share/roofline beside it.
  EXPECT_EQ(data_folder("specs"), fs::path(ROOFLINE_SOURCE_DIR) / "analysis/specs");
  EXPECT_EQ(data_folder("models"), fs::path(ROOFLINE_SOURCE_DIR) / "analysis/llm/models");
  EXPECT_FALSE(data_file_names("specs").empty());
}

TEST_F(DataDir, FindsAFileByPathByNameAndByNameWithoutJson) {
  use_tmp();
  const fs::path outside = tmp_.path() / "mine.json";
  testing::write_file(outside, "{}");
  EXPECT_EQ(find_data_file("specs", outside.string(), "--spec"), outside);
  EXPECT_EQ(find_data_file("specs", "alpha", "--spec"), tmp_.path() / "specs" / "alpha.json");
  EXPECT_EQ(find_data_file("specs", "zeta.json", "--spec"), tmp_.path() / "specs" / "zeta.json");
}

TEST_F(DataDir, AMissingFileNamesTheFlagAndWhatIsAvailable) {
  use_tmp();
  try {
    find_data_file("specs", "omega", "--spec");
    FAIL() << "no InputError";
  } catch (const InputError& e) {
    const std::string what = e.what();
    EXPECT_NE(what.find("--spec 'omega'"), std::string::npos) << what;
    EXPECT_NE(what.find("alpha, zeta"), std::string::npos) << what;
  }
  EXPECT_THROW(find_data_file("specs", "sub/alpha", "--spec"), InputError);  // a path is never looked up by name
  EXPECT_THROW(data_folder("nonsense"), InputError);
}

}  // namespace
}  // namespace roofline
