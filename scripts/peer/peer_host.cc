// Host program of the peer harness: runs one program-contract workload on
// GPGPU-Sim's libcudart, driven by a plan written by peer.py (one program for
// every workload, so nothing is compiled per program). It is built against no
// CUDA header: the few runtime entry points it calls are declared here with
// the ABI libcudart has (dim3 is three unsigned ints passed by value).
//
// Plan lines (whitespace separated):
//   buffer NAME BYTES FILE        device allocation, initial contents from FILE
//   kernel INDEX NAME             registers .entry NAME under key INDEX
//   launch KERNEL_INDEX GX GY GZ BX BY BZ SHARED REPEAT WATCH_BUFFER WATCH_TYPE WATCH_MAX NARGS
//     WATCH_BUFFER '-' when the launch has no while_nonzero; followed by NARGS lines:
//   arg buffer NAME | arg bytes HEX   (a buffer's device address, or the parameter's bytes)
//   output DIR                     final buffers are written as DIR/NAME.bin
#include <cstdint>
#include <cstdio>
#include <cstdlib>
#include <cstring>
#include <fstream>
#include <map>
#include <sstream>
#include <string>
#include <vector>

struct dim3 {
  unsigned x, y, z;
};

extern "C" {
int cudaMalloc(void** ptr, size_t bytes);
int cudaMemcpy(void* dst, const void* src, size_t bytes, int kind);
int cudaDeviceSynchronize(void);
void** __cudaRegisterFatBinary(void* fat_cubin);
void __cudaRegisterFatBinaryEnd(void** handle);
void __cudaRegisterFunction(void** handle, const char* host_fun, char* device_fun, const char* device_name,
                            int thread_limit, void* tid, void* bid, void* block, void* grid, int* warp_size);
unsigned __cudaPushCallConfiguration(dim3 grid, dim3 block, size_t shared_bytes, void* stream);
int cudaLaunchKernel(const void* host_fun, dim3 grid, dim3 block, void** args, size_t shared_bytes, void* stream);
}

namespace {

constexpr int kHostToDevice = 1;
constexpr int kDeviceToHost = 2;

[[noreturn]] void fail(const std::string& what) {
  std::fprintf(stderr, "peer_host: %s\n", what.c_str());
  std::exit(1);
}

void check(int status, const std::string& what) {
  if (status != 0) fail(what + " returned " + std::to_string(status));
}

struct Buffer {
  std::string name;
  size_t bytes = 0;
  void* device = nullptr;
};

struct Arg {
  std::string buffer;              // non-empty: the buffer's device address
  std::vector<unsigned char> raw;  // else the parameter's bytes
};

struct Launch {
  int kernel = 0;
  dim3 grid{1, 1, 1}, block{1, 1, 1};
  size_t shared = 0;
  unsigned repeat = 1;
  std::string watch_buffer, watch_type;
  unsigned watch_max = 0;
  std::vector<Arg> args;
};

std::vector<unsigned char> read_file(const std::string& path, size_t bytes) {
  std::vector<unsigned char> data(bytes);
  std::FILE* f = std::fopen(path.c_str(), "rb");
  if (!f) fail("cannot open " + path);
  if (bytes && std::fread(data.data(), 1, bytes, f) != bytes) fail(path + " is shorter than its buffer");
  std::fclose(f);
  return data;
}

std::vector<unsigned char> hex_bytes(const std::string& hex) {
  std::vector<unsigned char> out;
  for (size_t i = 0; i + 1 < hex.size(); i += 2) out.push_back(std::stoul(hex.substr(i, 2), nullptr, 16));
  return out;
}

// Element 0 of a while_nonzero buffer, read as its type: -0.0 is zero.
bool element_nonzero(const unsigned char* p, const std::string& type) {
  if (type == "f32") {
    float v;
    std::memcpy(&v, p, 4);
    return v != 0.0f;
  }
  if (type == "f64") {
    double v;
    std::memcpy(&v, p, 8);
    return v != 0.0;
  }
  size_t n = type == "u8" ? 1 : (type == "s64" || type == "u64") ? 8 : 4;
  for (size_t i = 0; i < n; ++i)
    if (p[i]) return true;
  return false;
}

size_t element_bytes(const std::string& type) {
  return type == "u8" ? 1 : (type == "s64" || type == "u64" || type == "f64") ? 8 : 4;
}

struct Plan {
  std::vector<Buffer> buffers;
  std::map<std::string, size_t> buffer_index;
  std::map<int, std::string> kernels;
  std::vector<Launch> launches;
  std::string output_dir;
};

Plan read_plan(const char* path) {
  Plan plan;
  std::ifstream in(path);
  if (!in) fail(std::string("cannot open plan ") + path);
  std::string line;
  while (std::getline(in, line)) {
    std::istringstream s(line);
    std::string word;
    if (!(s >> word)) continue;
    if (word == "buffer") {
      Buffer b;
      std::string file;
      s >> b.name >> b.bytes >> file;
      check(cudaMalloc(&b.device, b.bytes ? b.bytes : 1), "cudaMalloc " + b.name);
      std::vector<unsigned char> init = read_file(file, b.bytes);
      if (b.bytes) check(cudaMemcpy(b.device, init.data(), b.bytes, kHostToDevice), "cudaMemcpy to " + b.name);
      plan.buffer_index[b.name] = plan.buffers.size();
      plan.buffers.push_back(b);
    } else if (word == "kernel") {
      int index;
      std::string name;
      s >> index >> name;
      plan.kernels[index] = name;
    } else if (word == "launch") {
      Launch l;
      size_t nargs;
      s >> l.kernel >> l.grid.x >> l.grid.y >> l.grid.z >> l.block.x >> l.block.y >> l.block.z >> l.shared >>
          l.repeat >> l.watch_buffer >> l.watch_type >> l.watch_max >> nargs;
      if (l.watch_buffer == "-") l.watch_buffer.clear();
      for (size_t i = 0; i < nargs && std::getline(in, line); ++i) {
        std::istringstream a(line);
        std::string tag, kind, value;
        a >> tag >> kind >> value;
        Arg arg;
        if (kind == "buffer") arg.buffer = value;
        else arg.raw = hex_bytes(value);
        l.args.push_back(arg);
      }
      plan.launches.push_back(l);
    } else if (word == "output") {
      s >> plan.output_dir;
    }
  }
  return plan;
}

// Host keys of the registered kernels: distinct addresses GPGPU-Sim maps to .entry names.
char g_kernel_keys[256];

void run_launch(const Plan& plan, const Launch& l, unsigned& launch_number) {
  std::vector<void*> values(l.args.size());
  std::vector<void*> arg_ptrs(l.args.size());
  for (size_t i = 0; i < l.args.size(); ++i) {
    const Arg& a = l.args[i];
    if (!a.buffer.empty()) {
      auto it = plan.buffer_index.find(a.buffer);
      if (it == plan.buffer_index.end()) fail("unknown buffer " + a.buffer);
      values[i] = plan.buffers[it->second].device;
      arg_ptrs[i] = &values[i];
    } else {
      arg_ptrs[i] = const_cast<unsigned char*>(a.raw.data());
    }
  }
  const void* key = &g_kernel_keys[l.kernel];
  const std::string& name = plan.kernels.at(l.kernel);
  auto launch_once = [&]() {
    std::printf("PEER_LAUNCH %u %s\n", launch_number++, name.c_str());
    std::fflush(stdout);
    __cudaPushCallConfiguration(l.grid, l.block, l.shared, nullptr);
    check(cudaLaunchKernel(key, l.grid, l.block, arg_ptrs.data(), l.shared, nullptr), "cudaLaunchKernel " + name);
    check(cudaDeviceSynchronize(), "cudaDeviceSynchronize after " + name);
  };
  if (l.watch_buffer.empty()) {
    for (unsigned r = 0; r < l.repeat; ++r) launch_once();
    return;
  }
  const Buffer& watch = plan.buffers[plan.buffer_index.at(l.watch_buffer)];
  const size_t n = element_bytes(l.watch_type);
  unsigned char element[8] = {0};
  for (unsigned count = 1;; ++count) {
    unsigned char zero[8] = {0};
    check(cudaMemcpy(watch.device, zero, n, kHostToDevice), "cudaMemcpy zero " + watch.name);
    launch_once();
    check(cudaMemcpy(element, watch.device, n, kDeviceToHost), "cudaMemcpy from " + watch.name);
    if (!element_nonzero(element, l.watch_type)) return;
    if (count >= l.watch_max) fail("launch of " + name + " reached while_nonzero max " + std::to_string(l.watch_max));
  }
}

void write_buffers(const Plan& plan) {
  for (const Buffer& b : plan.buffers) {
    std::vector<unsigned char> data(b.bytes);
    if (b.bytes) check(cudaMemcpy(data.data(), b.device, b.bytes, kDeviceToHost), "cudaMemcpy from " + b.name);
    const std::string path = plan.output_dir + "/" + b.name + ".bin";
    std::FILE* f = std::fopen(path.c_str(), "wb");
    if (!f || std::fwrite(data.data(), 1, b.bytes, f) != b.bytes) fail("cannot write " + path);
    std::fclose(f);
  }
}

}  // namespace

int main(int argc, char** argv) {
  if (argc != 2) fail("usage: peer_host PLAN");
  // GPGPU-Sim reads the PTX itself (the cuobjdump shim hands it the program's
  // PTX), so the fat binary is only a handle.
  static char fat_binary[16];
  void** handle = __cudaRegisterFatBinary(fat_binary);
  Plan plan = read_plan(argv[1]);
  for (auto& [index, name] : plan.kernels) {
    if (index < 0 || index >= int(sizeof g_kernel_keys)) fail("kernel index out of range");
    __cudaRegisterFunction(handle, &g_kernel_keys[index], const_cast<char*>(name.c_str()), name.c_str(), -1, nullptr,
                           nullptr, nullptr, nullptr, nullptr);
  }
  __cudaRegisterFatBinaryEnd(handle);
  unsigned launch_number = 0;
  for (const Launch& l : plan.launches) run_launch(plan, l, launch_number);
  write_buffers(plan);
  std::printf("PEER_DONE %u launches\n", launch_number);
  return 0;
}
