// Atomic, no-clobber file writing: see atomic_file.hpp.
#include "roofline/common/atomic_file.hpp"

#include <fcntl.h>
#include <sys/stat.h>
#include <unistd.h>

#include <cerrno>
#include <cstring>
#include <string>
#include <system_error>

#include <fmt/format.h>

#include "roofline/common/errors.hpp"

namespace roofline {
namespace fs = std::filesystem;

namespace {
fs::path folder_of(const fs::path& path) {
  const fs::path parent = path.parent_path();
  return parent.empty() ? fs::path(".") : parent;
}

[[noreturn]] void fail(const fs::path& path, std::string_view what, int err) {
  throw InputError(fmt::format("cannot write '{}': {} ({})", path.string(), what, std::strerror(err)));
}
}  // namespace

void check_destination(const fs::path& path, Overwrite overwrite, std::string_view flag) {
  const fs::path folder = folder_of(path);
  std::error_code ec;
  if (!fs::is_directory(folder, ec)) {
    throw InputError(fmt::format("{} '{}': folder '{}' does not exist", flag, path.string(), folder.string()));
  }
  if (::access(folder.c_str(), W_OK | X_OK) != 0) {
    throw InputError(fmt::format("{} '{}': folder '{}' is not writable", flag, path.string(), folder.string()));
  }
  if (fs::is_directory(path, ec)) {
    throw InputError(fmt::format("{} '{}': is a folder, not a file", flag, path.string()));
  }
  if (overwrite == Overwrite::no && fs::exists(fs::symlink_status(path, ec))) {
    throw InputError(fmt::format("{} '{}': file exists (use --force to overwrite it)", flag, path.string()));
  }
}

void write_file_atomically(const fs::path& path, std::string_view content, Overwrite overwrite) {
  const fs::path folder = folder_of(path);
  std::string tmp = (folder / fmt::format(".{}.XXXXXX", path.filename().string())).string();
  const int fd = ::mkstemp(tmp.data());
  if (fd < 0) fail(path, "cannot create a temporary file beside it", errno);

  auto discard = [&](std::string_view what, int err) {
    ::close(fd);
    ::unlink(tmp.c_str());
    fail(path, what, err);
  };
  std::size_t written = 0;
  while (written < content.size()) {
    const ssize_t n = ::write(fd, content.data() + written, content.size() - written);
    if (n < 0) {
      if (errno == EINTR) continue;
      discard("write failed", errno);
    }
    written += static_cast<std::size_t>(n);
  }
  if (::fchmod(fd, 0644) != 0) discard("chmod failed", errno);
  if (::fsync(fd) != 0) discard("fsync failed", errno);
  if (::close(fd) != 0) {
    ::unlink(tmp.c_str());
    fail(path, "close failed", errno);
  }

  if (overwrite == Overwrite::yes) {
    if (::rename(tmp.c_str(), path.c_str()) != 0) {
      const int err = errno;
      ::unlink(tmp.c_str());
      fail(path, "rename failed", err);
    }
    return;
  }
  // link() fails with EEXIST instead of replacing: no window in which another writer's file is clobbered.
  if (::link(tmp.c_str(), path.c_str()) != 0) {
    const int err = errno;
    ::unlink(tmp.c_str());
    if (err == EEXIST) {
      throw InputError(fmt::format("'{}' exists (use --force to overwrite it)", path.string()));
    }
    fail(path, "link failed", err);
  }
  ::unlink(tmp.c_str());
}

}  // namespace roofline
