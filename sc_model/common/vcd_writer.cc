#include "gpupm/common/vcd_writer.h"

#include "gpupm/common/output_files.h"

#include <unistd.h>

#include <cerrno>
#include <cstring>
#include <filesystem>
#include <stdexcept>
#include <utility>

namespace gpupm {

namespace {

// VCD identifier codes: base-94 numbers in the printable characters '!'..'~'.
std::string vcd_id(size_t n) {
  std::string id;
  do {
    id += char('!' + n % 94);
    n /= 94;
  } while (n);
  return id;
}

}  // namespace

VcdWriter::VcdWriter(std::string path, std::string timescale)
    : path_(std::move(path)), timescale_(std::move(timescale)) {
  out_ = std::make_unique<AtomicFile>(path_, "VCD trace ");
  const int fd = ::dup(out_->fd());
  file_ = fd < 0 ? nullptr : ::fdopen(fd, "wb");
  if (!file_) throw std::runtime_error("cannot write VCD trace " + path_ + ": " + std::strerror(errno));
  buffer_.resize(1 << 16);
  std::setvbuf(file_, buffer_.data(), _IOFBF, buffer_.size());
}

VcdWriter::~VcdWriter() {
  if (file_) std::fclose(file_);
}

size_t VcdWriter::add_real(const std::vector<std::string>& scope, const std::string& name) {
  vars_.push_back({scope, name, vcd_id(vars_.size())});
  values_.push_back(0.0);
  written_.push_back(0.0);
  return vars_.size() - 1;
}

void VcdWriter::put(const char* text, size_t n) {
  if (std::fwrite(text, 1, n, file_) != n && !error_) error_ = errno ? errno : EIO;
}

void VcdWriter::write_header() {
  std::string h = "$version gpupm $end\n$timescale " + timescale_ + " $end\n";
  std::vector<std::string> open;  // the scopes open at this point
  for (const Var& v : vars_) {
    size_t common = 0;
    while (common < open.size() && common < v.scope.size() && open[common] == v.scope[common]) ++common;
    for (size_t i = open.size(); i > common; --i) h += "$upscope $end\n";
    open.resize(common);
    for (size_t i = common; i < v.scope.size(); ++i) {
      h += "$scope module " + v.scope[i] + " $end\n";
      open.push_back(v.scope[i]);
    }
    h += "$var real 1 " + v.id + " " + v.name + " $end\n";
  }
  for (size_t i = open.size(); i > 0; --i) h += "$upscope $end\n";
  h += "$enddefinitions $end\n";
  put(h.data(), h.size());
}

void VcdWriter::sample(uint64_t time) {
  const bool first = !header_done_;
  if (first) write_header();
  header_done_ = true;
  bool stamped = false;
  char line[64];
  for (size_t i = 0; i < vars_.size(); ++i) {
    if (!first && values_[i] == written_[i]) continue;
    if (!stamped) {
      int n = std::snprintf(line, sizeof line, "#%llu\n", static_cast<unsigned long long>(time));
      put(line, size_t(n));
      stamped = true;
    }
    int n = std::snprintf(line, sizeof line, "r%.10g %s\n", values_[i], vars_[i].id.c_str());
    put(line, size_t(n));
    written_[i] = values_[i];
  }
}

void VcdWriter::fail(const std::string& what, int error) {
  if (file_) std::fclose(file_);
  file_ = nullptr;
  out_.reset();  // nothing left on disk
  throw std::runtime_error(what + ": " + std::strerror(error));
}

void VcdWriter::commit() {
  if (!header_done_) write_header();
  header_done_ = true;
  if (std::fflush(file_) != 0 && !error_) error_ = errno ? errno : EIO;
  std::FILE* f = std::exchange(file_, nullptr);
  if (std::fclose(f) != 0 && !error_) error_ = errno ? errno : EIO;
  if (error_) fail("cannot write VCD trace " + path_, error_);
  out_->commit();
}

}  // namespace gpupm
