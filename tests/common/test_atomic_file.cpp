// Atomic, no-clobber writing of output files.
#include <gtest/gtest.h>

#include <sys/stat.h>

#include <filesystem>

#include "roofline/common/atomic_file.hpp"
#include "roofline/common/errors.hpp"
#include "support/temp_files.hpp"

namespace roofline {
namespace fs = std::filesystem;

class AtomicFile : public ::testing::Test {
 protected:
  std::size_t entries() const { return static_cast<std::size_t>(std::distance(fs::directory_iterator(dir_), fs::directory_iterator())); }
  testing::TempDir tmp_;
  const fs::path dir_ = tmp_.path();
};

TEST_F(AtomicFile, WritesContent) {
  write_file_atomically(dir_ / "a.json", "{\"x\": 1}\n", Overwrite::no);
  EXPECT_EQ(testing::read_file(dir_ / "a.json"), "{\"x\": 1}\n");
  EXPECT_EQ(entries(), 1u);  // no temporary left behind
}

TEST_F(AtomicFile, NeverOverwritesSilently) {
  write_file_atomically(dir_ / "a.json", "first", Overwrite::no);
  EXPECT_THROW(write_file_atomically(dir_ / "a.json", "second", Overwrite::no), InputError);
  EXPECT_EQ(testing::read_file(dir_ / "a.json"), "first");
  EXPECT_EQ(entries(), 1u);
  write_file_atomically(dir_ / "a.json", "third", Overwrite::yes);
  EXPECT_EQ(testing::read_file(dir_ / "a.json"), "third");
  EXPECT_EQ(entries(), 1u);
}

TEST_F(AtomicFile, CheckDestination) {
  EXPECT_NO_THROW(check_destination(dir_ / "new.json", Overwrite::no, "--out"));
  EXPECT_THROW(check_destination(dir_ / "missing" / "x.json", Overwrite::no, "--out"), InputError);
  EXPECT_THROW(check_destination(dir_, Overwrite::yes, "--out"), InputError);
  write_file_atomically(dir_ / "a.json", "x", Overwrite::no);
  EXPECT_THROW(check_destination(dir_ / "a.json", Overwrite::no, "--out"), InputError);
  EXPECT_NO_THROW(check_destination(dir_ / "a.json", Overwrite::yes, "--out"));
}

TEST_F(AtomicFile, UnwritableFolderIsAnInputError) {
  if (::geteuid() == 0) GTEST_SKIP() << "root can write anywhere";
  fs::create_directory(dir_ / "ro");
  ::chmod((dir_ / "ro").c_str(), 0555);
  EXPECT_THROW(check_destination(dir_ / "ro" / "x", Overwrite::no, "--out"), InputError);
  EXPECT_THROW(write_file_atomically(dir_ / "ro" / "x", "x", Overwrite::no), InputError);
}

TEST_F(AtomicFile, MissingFolderIsAnInputError) {
  EXPECT_THROW(write_file_atomically(dir_ / "nope" / "x", "x", Overwrite::no), InputError);
}

}  // namespace roofline
