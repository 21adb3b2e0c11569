#include "common/profiler_window.h"

#include <dlfcn.h>
#include <fcntl.h>
#include <gperftools/profiler.h>
#include <signal.h>
#include <sys/stat.h>
#include <sys/wait.h>
#include <unistd.h>

#include <chrono>
#include <filesystem>
#include <fstream>
#include <sstream>
#include <thread>

namespace warmup::cli {
namespace {

// The heap profiler lives in tcmalloc, which only some binaries link
// (warmup-profile) or preload (LD_PRELOAD=libtcmalloc.so.4): looked up at
// run time, so that a binary without it still links and says what to do.
struct HeapProfilerCalls {
  void (*start)(const char*) = nullptr;
  void (*dump)(const char*) = nullptr;
  void (*stop)() = nullptr;
};

HeapProfilerCalls FindHeapProfiler() {
  HeapProfilerCalls calls;
  calls.start = reinterpret_cast<void (*)(const char*)>(dlsym(RTLD_DEFAULT, "HeapProfilerStart"));
  calls.dump = reinterpret_cast<void (*)(const char*)>(dlsym(RTLD_DEFAULT, "HeapProfilerDump"));
  calls.stop = reinterpret_cast<void (*)()>(dlsym(RTLD_DEFAULT, "HeapProfilerStop"));
  return calls;
}

bool OnPath(const std::string& program) {
  const char* path = std::getenv("PATH");
  std::istringstream dirs(path == nullptr ? "/usr/bin:/bin" : path);
  for (std::string dir; std::getline(dirs, dir, ':');) {
    if (::access((dir + "/" + program).c_str(), X_OK) == 0) return true;
  }
  return false;
}

std::string Tail(const std::string& path, size_t bytes) {
  std::ifstream in(path);
  std::string text((std::istreambuf_iterator<char>(in)), std::istreambuf_iterator<char>());
  return text.size() > bytes ? text.substr(text.size() - bytes) : text;
}

}  // namespace

const char* ProfilerKindName(ProfilerKind kind) {
  switch (kind) {
    case ProfilerKind::kNone:
      return "none";
    case ProfilerKind::kCpu:
      return "cpu";
    case ProfilerKind::kHeap:
      return "heap";
    case ProfilerKind::kPerf:
      return "perf";
  }
  return "none";
}

StatusOr<ProfilerKind> ParseProfilerKind(const std::string& name) {
  for (ProfilerKind k : {ProfilerKind::kNone, ProfilerKind::kCpu, ProfilerKind::kHeap, ProfilerKind::kPerf}) {
    if (name == ProfilerKindName(k)) return k;
  }
  return InvalidArgumentError("--profiler must be none, cpu, heap or perf, not '" + name + "'");
}

StatusOr<std::unique_ptr<ProfilerWindow>> ProfilerWindow::Make(ProfilerKind kind, const std::string& out) {
  if (kind != ProfilerKind::kNone && out.empty()) {
    return InvalidArgumentError(std::string("--profiler ") + ProfilerKindName(kind) + " needs --profile-out");
  }
  if (kind == ProfilerKind::kHeap && FindHeapProfiler().start == nullptr) {
    return FailedPreconditionError(
        "--profiler heap needs tcmalloc in the process: use warmup-profile, or start with "
        "LD_PRELOAD=libtcmalloc.so.4 (libgoogle-perftools-dev)");
  }
  if (kind == ProfilerKind::kPerf && !OnPath("perf")) {
    return FailedPreconditionError("--profiler perf needs perf on PATH (Debian: linux-perf)");
  }
  return std::unique_ptr<ProfilerWindow>(new ProfilerWindow(kind, out));
}

ProfilerWindow::~ProfilerWindow() {
  if (open_) (void)Close();
}

Status ProfilerWindow::Open() {
  if (open_) return FailedPreconditionError("the profiler window is open already");
  switch (kind_) {
    case ProfilerKind::kNone:
      break;
    case ProfilerKind::kCpu:
      if (ProfilerStart(out_.c_str()) == 0) {
        return FailedPreconditionError("the CPU profiler did not start writing " + out_ +
                                       " (can it be written? is another profile running?)");
      }
      break;
    case ProfilerKind::kHeap:
      FindHeapProfiler().start(out_.c_str());
      break;
    case ProfilerKind::kPerf: {
      const std::string pid = std::to_string(::getpid());
      const std::string log = out_ + ".log";
      std::error_code ec;
      std::filesystem::remove(out_, ec);
      perf_pid_ = ::fork();
      if (perf_pid_ < 0) return InternalError("fork for perf failed");
      if (perf_pid_ == 0) {
        const int fd = ::open(log.c_str(), O_WRONLY | O_CREAT | O_TRUNC, 0644);
        if (fd >= 0) {
          ::dup2(fd, STDOUT_FILENO);
          ::dup2(fd, STDERR_FILENO);
        }
        ::execlp("perf", "perf", "record", "-g", "-e", "cpu-clock", "-p", pid.c_str(), "-o", out_.c_str(),
                 static_cast<char*>(nullptr));
        ::_exit(127);
      }
      // perf has attached once it has written its file's header.
      const auto deadline = std::chrono::steady_clock::now() + std::chrono::seconds(10);
      while (!std::filesystem::exists(out_, ec)) {
        int status = 0;
        if (::waitpid(perf_pid_, &status, WNOHANG) == perf_pid_) {
          perf_pid_ = -1;
          return FailedPreconditionError("perf record exited before it attached: " + Tail(log, 400));
        }
        if (std::chrono::steady_clock::now() > deadline) {
          ::kill(perf_pid_, SIGKILL);
          ::waitpid(perf_pid_, nullptr, 0);
          perf_pid_ = -1;
          return Status(StatusCode::kDeadlineExceeded,
                        "perf record did not attach within 10 s: " + Tail(log, 400));
        }
        std::this_thread::sleep_for(std::chrono::milliseconds(20));
      }
      std::this_thread::sleep_for(std::chrono::milliseconds(200));
      break;
    }
  }
  open_ = true;
  return OkStatus();
}

Status ProfilerWindow::Close() {
  if (!open_) return FailedPreconditionError("the profiler window is not open");
  open_ = false;
  switch (kind_) {
    case ProfilerKind::kNone:
      break;
    case ProfilerKind::kCpu:
      ProfilerStop();
      break;
    case ProfilerKind::kHeap: {
      const HeapProfilerCalls heap = FindHeapProfiler();
      heap.dump("end of the window");
      heap.stop();
      ++heap_dumps_;
      break;
    }
    case ProfilerKind::kPerf: {
      ::kill(perf_pid_, SIGINT);
      int status = 0;
      ::waitpid(perf_pid_, &status, 0);
      perf_pid_ = -1;
      // perf exits with SIGINT's code or 0, depending on its version.
      const bool ok = (WIFEXITED(status) && WEXITSTATUS(status) == 0) ||
                      (WIFSIGNALED(status) && WTERMSIG(status) == SIGINT) ||
                      (WIFEXITED(status) && WEXITSTATUS(status) == 128 + SIGINT);
      if (!ok) return InternalError("perf record failed: " + Tail(out_ + ".log", 400));
      break;
    }
  }
  return OkStatus();
}

std::string ProfilerWindow::Describe() const {
  switch (kind_) {
    case ProfilerKind::kNone:
      return "";
    case ProfilerKind::kCpu:
      return "cpu profile " + out_ + "  (google-pprof --text BINARY " + out_ + ")";
    case ProfilerKind::kHeap:
      return "heap profile " + out_ +
             ".NNNN.heap, the last at the window's end  (google-pprof --text BINARY " + out_ + ".NNNN.heap)";
    case ProfilerKind::kPerf:
      return "perf data " + out_ + "  (perf report -i " + out_ + ")";
  }
  return "";
}

}  // namespace warmup::cli
