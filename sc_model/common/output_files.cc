#include "gpupm/common/output_files.h"

#include "gpupm/common/json_reader.h"

#include <dirent.h>
#include <fcntl.h>
#include <limits.h>
#include <signal.h>
#include <sys/stat.h>
#include <unistd.h>

#include <cerrno>
#include <cstring>
#include <filesystem>
#include <memory>
#include <mutex>
#include <set>
#include <stdexcept>

namespace gpupm {

namespace fs = std::filesystem;

namespace {

// Room an output folder's path must leave for the names written in it: an app
// folder and a buffer name (100 characters each), ".npy" and a temporary's suffix.
constexpr size_t kRoomForNames = 256;

std::string reason() { return std::strerror(errno); }

// O_TMPFILE is missing on this filesystem or kernel (the named fallback is used).
bool no_tmpfile_support(int err) { return err == EOPNOTSUPP || err == EISDIR || err == EINVAL; }

std::string kind_of(mode_t mode) {
  if (S_ISREG(mode)) return "is a file";
  if (S_ISFIFO(mode)) return "is a FIFO";
  if (S_ISCHR(mode) || S_ISBLK(mode)) return "is a device";
  return "is not a folder";
}

// Whether a file can be created and written in the existing folder DIR ("" if so).
std::string writable_problem(const std::string& dir) {
  int fd = ::open(dir.c_str(), O_TMPFILE | O_WRONLY | O_CLOEXEC, 0600);
  if (fd < 0 && no_tmpfile_support(errno)) return ::access(dir.c_str(), W_OK) == 0 ? "" : reason();
  if (fd < 0) return reason();
  const bool wrote = ::write(fd, "x", 1) == 1;  // a full filesystem refuses the first block
  const std::string why = wrote ? "" : reason();
  ::close(fd);
  return why;
}

std::string length_problem(const std::string& dir) {
  for (const fs::path& part : fs::path(dir))
    if (part.string().size() > NAME_MAX)
      return "a name in it is longer than " + std::to_string(NAME_MAX) + " bytes (File name too long)";
  std::error_code ec;
  const size_t length = fs::absolute(dir, ec).string().size();
  if (length + kRoomForNames > PATH_MAX)
    return "the path is " + std::to_string(length) + " bytes long; at most " +
           std::to_string(PATH_MAX - kRoomForNames) + " leave room for the files written in it";
  return "";
}

// The temporaries a killed run of an older build left in DIR (".NAME.tmpPID"
// of a process that is gone) are removed once per folder and process.
void remove_stale_temporaries(const std::string& dir) {
  static std::mutex mutex;
  static std::set<std::string> cleaned;
  std::lock_guard<std::mutex> lock(mutex);
  if (!cleaned.insert(dir).second) return;
  std::unique_ptr<DIR, int (*)(DIR*)> d(::opendir(dir.c_str()), ::closedir);
  if (!d) return;
  while (const dirent* e = ::readdir(d.get())) {
    const std::string name = e->d_name;
    const size_t at = name.rfind(".tmp");
    if (name.empty() || name[0] != '.' || at == std::string::npos || at + 4 == name.size()) continue;
    const std::string pid = name.substr(at + 4);
    if (pid.find_first_not_of("0123456789") != std::string::npos || pid.size() > 9) continue;
    if (::kill(pid_t(std::stol(pid)), 0) == 0 || errno != ESRCH) continue;  // its writer may still run
    ::unlinkat(::dirfd(d.get()), name.c_str(), 0);
  }
}

}  // namespace

std::string output_dir_problem(const std::string& dir) {
  if (dir.empty()) return "is empty";
  if (std::string why = length_problem(dir); !why.empty()) return why;
  struct stat st {};
  if (::stat(dir.c_str(), &st) == 0) {
    if (!S_ISDIR(st.st_mode)) return kind_of(st.st_mode);
    const std::string why = writable_problem(dir);
    return why.empty() ? "" : "cannot write in it: " + why;
  }
  if (errno == ENOTDIR) return "a part of the path is a file, not a folder";
  if (errno != ENOENT) return reason();
  // Absent: it would be created in its nearest existing ancestor.
  fs::path up = fs::absolute(dir).parent_path();
  while (::stat(up.c_str(), &st) != 0 && up.has_relative_path()) up = up.parent_path();
  if (!S_ISDIR(st.st_mode)) return up.string() + " " + kind_of(st.st_mode) + ", not a folder";
  const std::string why = writable_problem(up.string());
  return why.empty() ? "" : "cannot create it in " + up.string() + ": " + why;
}

void check_output_dir(const std::string& option, const std::string& dir) {
  const std::string why = output_dir_problem(dir);
  if (!why.empty()) throw InputError(option, dir, why + "; expected a writable folder (created if absent)");
}

void prepare_output_dir(const std::string& dir, const std::string& option) {
  check_output_dir(option, dir);
  std::error_code ec;
  fs::create_directories(dir, ec);
  if (ec) throw InputError(option, dir, "cannot create it: " + ec.message());
}

AtomicFile::AtomicFile(const std::string& path, const std::string& what) : final_(path), what_(what) {
  const fs::path p(path);
  const std::string dir = p.has_parent_path() ? p.parent_path().string() : ".";
  remove_stale_temporaries(dir);
  hidden_ = (fs::path(dir) / ("." + p.filename().string() + ".tmp" + std::to_string(::getpid()))).string();
  fd_ = ::open(dir.c_str(), O_TMPFILE | O_WRONLY | O_CLOEXEC, 0666);
  if (fd_ < 0 && no_tmpfile_support(errno)) {
    fd_ = ::open(hidden_.c_str(), O_WRONLY | O_CREAT | O_TRUNC | O_CLOEXEC, 0666);
    named_ = fd_ >= 0;
  }
  if (fd_ < 0) fail(errno);
}

AtomicFile::~AtomicFile() {
  if (fd_ >= 0) ::close(fd_);
  if (named_) ::unlink(hidden_.c_str());
}

void AtomicFile::write(const char* data, size_t size) {
  for (size_t done = 0; done < size;) {
    const ssize_t n = ::write(fd_, data + done, size - done);
    if (n < 0 && errno == EINTR) continue;
    if (n <= 0) fail(n < 0 ? errno : EIO);
    done += size_t(n);
  }
}

void AtomicFile::commit() {
  if (!named_) {  // linkat cannot replace a file: name it hidden first, then rename
    ::unlink(hidden_.c_str());
    const std::string self = "/proc/self/fd/" + std::to_string(fd_);
    if (::linkat(AT_FDCWD, self.c_str(), AT_FDCWD, hidden_.c_str(), AT_SYMLINK_FOLLOW) != 0) fail(errno);
    named_ = true;
  }
  const int closed = ::close(fd_);  // a network filesystem may report a failed write only here
  fd_ = -1;
  if (closed != 0) fail(errno);
  if (::rename(hidden_.c_str(), final_.c_str()) != 0) fail(errno);
  named_ = false;
}

void AtomicFile::fail(int error) const {
  throw std::runtime_error("cannot write " + what_ + final_ + ": " + std::strerror(error));
}

void write_outputs(const std::string& dir, const std::vector<std::pair<std::string, std::string>>& files) {
  std::vector<std::unique_ptr<AtomicFile>> pending;
  for (const auto& [name, content] : files) {
    pending.push_back(std::make_unique<AtomicFile>((fs::path(dir) / name).string()));
    pending.back()->write(content.data(), content.size());
  }
  for (auto& p : pending) p->commit();
}

}  // namespace gpupm
