// ServerProcess and ServerSampler (warmup/server_process.h). The start-up
// wait runs on Boost.Asio: the readiness pipe as a stream descriptor racing a
// steady_timer.
#include "warmup/server_process.h"

#include <fcntl.h>
#include <netinet/in.h>
#include <signal.h>
#include <sys/prctl.h>
#include <sys/resource.h>
#include <sys/socket.h>
#include <sys/wait.h>
#include <unistd.h>

#include <utility>  // before Asio: Boost 1.74's awaitable.hpp needs std::exchange
// clang-format off
#include <boost/asio/io_context.hpp>
#include <boost/asio/posix/stream_descriptor.hpp>
#include <boost/asio/read_until.hpp>
#include <boost/asio/steady_timer.hpp>
#include <boost/asio/streambuf.hpp>
// clang-format on
#include <algorithm>
#include <atomic>
#include <cerrno>
#include <cstdlib>
#include <cstring>
#include <filesystem>
#include <fstream>
#include <sstream>
#include <thread>

#include "base/mutex.h"
#include "result/environment.h"
#include "warmup/catalog_admin.h"
#include "warmup/gc_log.h"
#include "warmup/readiness_line.h"

namespace warmup {
namespace {

namespace asio = boost::asio;
using Clock = std::chrono::steady_clock;

constexpr size_t kOutputKept = size_t{64} * 1024;

std::string Seconds(std::chrono::milliseconds d) {
  std::ostringstream out;
  out << static_cast<double>(d.count()) / 1000.0 << " s";
  return out.str();
}

std::string SignalName(int signal) {
  const char* name = ::sigabbrev_np(signal);
  return name != nullptr ? "SIG" + std::string(name) : "signal " + std::to_string(signal);
}

// `shell`: the status is of a command run by /bin/sh, which reports a
// command a signal ended as exit 128 + the signal's number (and a JVM ended
// by SIGTERM exits 143 the same way).
std::string DescribeStatus(int status, bool shell) {
  if (WIFEXITED(status)) {
    const int code = WEXITSTATUS(status);
    std::string exited = "exited " + std::to_string(code);
    if (shell && code > 128 && ::sigabbrev_np(code - 128) != nullptr) {
      return exited + " (= 128 + " + SignalName(code - 128) +
             ": ended by that signal, as a shell or a JVM reports it)";
    }
    return exited;
  }
  if (WIFSIGNALED(status)) return "killed by " + SignalName(WTERMSIG(status));
  return "ended (status " + std::to_string(status) + ")";
}

// One process's /proc/<pid>/stat: its process group, and user + system ticks.
struct ProcStat {
  pid_t group = 0;
  int64_t ticks = 0;  // user + system
  int64_t system_ticks = 0;
};
std::optional<ProcStat> ReadProcStat(const std::string& proc) {
  std::ifstream stat(proc + "/stat");
  std::string text((std::istreambuf_iterator<char>(stat)), std::istreambuf_iterator<char>());
  const size_t close = text.rfind(')');  // the command name may hold spaces
  if (close == std::string::npos) return std::nullopt;
  std::istringstream fields(text.substr(close + 2));
  std::string field;
  ProcStat result;
  for (int i = 3; i <= 15 && fields >> field; ++i) {  // fields 3.. after the name; 5 pgrp, 14 utime, 15 stime
    if (i == 5) result.group = static_cast<pid_t>(std::strtol(field.c_str(), nullptr, 10));
    if (i == 14 || i == 15) result.ticks += std::strtoll(field.c_str(), nullptr, 10);
    if (i == 15) result.system_ticks = std::strtoll(field.c_str(), nullptr, 10);
  }
  return result;
}

int64_t ResidentBytes(const std::string& proc) {
  std::ifstream statm(proc + "/statm");
  int64_t size_pages = 0;
  int64_t resident_pages = 0;
  if (!(statm >> size_pages >> resident_pages)) return -1;
  return resident_pages * ::sysconf(_SC_PAGESIZE);
}

// How the server was started: warmup serve's pipes, or a command of the user's.
struct Launch {
  std::string binary;     // what ServerFigures::binary says
  bool group = false;     // a command: its process group is the server
  std::string log;        // a command's output file
  std::string header;     // a command's "header": the command line run
  std::string gc_log;     // a command's {gclog}, read after the stop
  bool gc_asked = false;  // {gclog} was in the command
};

class ServerProcessImpl : public ServerProcess {
 public:
  ServerProcessImpl(Launch launch, std::chrono::milliseconds grace, pid_t pid, int output_fd)
      : launch_(std::move(launch)), grace_(grace), pid_(pid), output_fd_(output_fd) {
    if (output_fd_ >= 0) reader_ = std::thread([this] { ReadOutput(); });
  }
  ~ServerProcessImpl() override { Stop(); }

  pid_t pid() const override { return pid_; }
  bool HasEnded() const override {
    // WNOWAIT: looked at, not reaped, so that Stop still collects its status.
    siginfo_t info{};
    return ::waitid(P_PID, static_cast<id_t>(pid_), &info, WEXITED | WNOHANG | WNOWAIT) == 0 &&
           info.si_pid == pid_;
  }
  std::string address() const override { return "127.0.0.1:" + std::to_string(port_); }
  std::string header() const override {
    if (!launch_.header.empty()) return launch_.header;
    MutexLock lock(output_mu_);
    return first_line_;
  }
  std::string output() const override {
    if (!launch_.log.empty()) {
      std::ifstream in(launch_.log, std::ios::binary);
      std::string text((std::istreambuf_iterator<char>(in)), std::istreambuf_iterator<char>());
      return text.size() > kOutputKept ? text.substr(text.size() - kOutputKept) : text;
    }
    MutexLock lock(output_mu_);
    return output_;
  }

  StatusOr<ProcessSample> SampleNow() const override {
    ProcessSample sample;
    int64_t ticks = 0;
    int64_t system_ticks = 0;
    if (!launch_.group) {
      const std::string proc = "/proc/" + std::to_string(pid_);
      const auto stat = ReadProcStat(proc);
      if (!stat) return UnavailableError(proc + "/stat: cannot be read");
      ticks = stat->ticks;
      sample.rss_bytes = ResidentBytes(proc);
      if (sample.rss_bytes < 0) return UnavailableError(proc + "/statm: cannot be read");
    } else {  // every process of the group: a wrapper script and the JVM it started
      bool any = false;
      std::error_code ec;
      for (const auto& entry : std::filesystem::directory_iterator("/proc", ec)) {
        const std::string name = entry.path().filename().string();
        if (name.empty() || name.find_first_not_of("0123456789") != std::string::npos) continue;
        const auto stat = ReadProcStat(entry.path().string());
        if (!stat || stat->group != pid_) continue;
        const int64_t rss = ResidentBytes(entry.path().string());
        if (rss < 0) continue;  // it ended between the two reads
        any = true;
        ticks += stat->ticks;
        system_ticks += stat->system_ticks;
        sample.rss_bytes += rss;
      }
      if (!any)
        return UnavailableError("no process of the server's group " + std::to_string(pid_) + " in /proc");
    }
    const auto tick = static_cast<double>(::sysconf(_SC_CLK_TCK));
    sample.cpu_seconds = static_cast<double>(ticks) / tick;
    if (launch_.group) {  // what wait4 cannot say of a group: the figures of the samples
      MutexLock lock(group_mu_);
      group_usage_.peak_rss_bytes = std::max(group_usage_.peak_rss_bytes, sample.rss_bytes);
      group_usage_.user_seconds = static_cast<double>(ticks - system_ticks) / tick;
      group_usage_.system_seconds = static_cast<double>(system_ticks) / tick;
    }
    return sample;
  }

  ServerFigures Stop() override {
    MutexLock lock(stop_mu_);
    if (stopped_) return figures_;
    stopped_ = true;
    int status = 0;
    struct rusage usage {};
    bool killed = false;
    const pid_t target = launch_.group ? -pid_ : pid_;  // a command: its whole process group
    if (launch_.group) (void)SampleNow();               // its CPU time so far, before it ends
    ::kill(target, SIGTERM);
    const auto signalled = Clock::now();
    const auto deadline = signalled + grace_;
    bool reaped = false;
    while (true) {
      if (!reaped) {
        const pid_t done = ::wait4(pid_, &status, WNOHANG, &usage);
        reaped = done == pid_ || (done < 0 && errno != EINTR);
      }
      // A group outlives its leader while a member runs (a JVM under a shell that exited).
      const bool gone = reaped && (!launch_.group || (::kill(target, 0) != 0 && errno == ESRCH));
      if (gone) break;
      if (Clock::now() >= deadline) {
        ::kill(target, SIGKILL);
        while (!reaped && ::wait4(pid_, &status, 0, &usage) < 0 && errno == EINTR) {
        }
        killed = true;
        break;
      }
      std::this_thread::sleep_for(std::chrono::milliseconds(10));
    }
    figures_.stop_seconds = std::chrono::duration<double>(Clock::now() - signalled).count();
    if (reader_.joinable()) reader_.join();
    figures_.binary = launch_.binary;
    figures_.header = header();
    figures_.build = build_;
    figures_.pid = pid_;
    figures_.usage = UsageFromRusage(usage);
    if (launch_.group) {
      // The shell's own usage is not the server's (a wrapper's JVM is its grandchild, never
      // waited for when the group is signalled): CPU and peak RSS from /proc samples of the group.
      MutexLock group_lock(group_mu_);
      figures_.usage = group_usage_;
      figures_.usage_sampled = true;
    }
    figures_.ended = killed ? "killed by SIGKILL after a grace period of " + Seconds(grace_)
                            : DescribeStatus(status, launch_.group);
    if (launch_.gc_asked) {
      auto gc = ReadGcLog(launch_.gc_log);
      if (gc.ok()) {
        figures_.gc = *gc;
      } else {
        figures_.gc_unavailable = gc.status().message();
      }
    } else if (launch_.group) {
      figures_.gc_unavailable = "no GC log: the server command has no {gclog}";
    }
    return figures_;
  }

  void set_port(int port) { port_ = port; }
  void set_build(std::string build) { build_ = std::move(build); }
  void set_identity(ServerIdentity identity) { identity_ = std::move(identity); }
  std::optional<ServerIdentity> identity() const override { return identity_; }

 private:
  void ReadOutput() {
    char buffer[4096];
    while (true) {
      const ssize_t n = ::read(output_fd_, buffer, sizeof(buffer));
      if (n < 0 && errno == EINTR) continue;
      if (n <= 0) break;
      MutexLock lock(output_mu_);
      output_.append(buffer, static_cast<size_t>(n));
      if (first_line_.empty() && output_.find('\n') != std::string::npos) {
        first_line_ = output_.substr(0, output_.find('\n'));
      }
      if (output_.size() > kOutputKept) output_.erase(0, output_.size() - kOutputKept);
    }
    ::close(output_fd_);
  }

  Launch launch_;
  std::chrono::milliseconds grace_;
  pid_t pid_;
  int output_fd_;
  int port_ = 0;
  std::string build_;                       // what the server said of its build when ready
  std::optional<ServerIdentity> identity_;  // what its ServerStatus said when ready (a command's)
  std::thread reader_;
  mutable Mutex output_mu_;
  std::string output_ GUARDED_BY(output_mu_);
  std::string first_line_ GUARDED_BY(output_mu_);
  Mutex stop_mu_;
  bool stopped_ GUARDED_BY(stop_mu_) = false;
  mutable Mutex group_mu_;
  mutable ProcessUsage group_usage_ GUARDED_BY(group_mu_);  // a command's: from the samples of its group
  ServerFigures figures_ GUARDED_BY(stop_mu_);
};

// Reads the one readiness line, or gives up at the deadline or when the pipe
// closes (the child died or closed it without a word).
struct Readiness {
  bool ready = false;
  bool timed_out = false;
  std::string line;
};

Readiness AwaitReadiness(int fd, std::chrono::milliseconds timeout) {
  asio::io_context io;
  asio::posix::stream_descriptor pipe(io, fd);  // owns and closes fd
  asio::steady_timer timer(io, timeout);
  asio::streambuf buffer;
  Readiness result;
  asio::async_read_until(pipe, buffer, '\n', [&](const boost::system::error_code& ec, size_t n) {
    if (!ec) {
      result.ready = true;
      result.line.assign(asio::buffers_begin(buffer.data()), asio::buffers_begin(buffer.data()) + n);
    }
    timer.cancel();
  });
  timer.async_wait([&](const boost::system::error_code& ec) {
    if (!ec) {
      result.timed_out = true;
      boost::system::error_code ignored;
      pipe.cancel(ignored);
    }
  });
  io.run();
  return result;
}

// A loopback port nobody listens on now (the kernel's pick; another process
// could take it before the server does, which the start-up would report).
StatusOr<int> FreeLoopbackPort() {
  const int fd = ::socket(AF_INET, SOCK_STREAM | SOCK_CLOEXEC, 0);
  if (fd < 0) return InternalError(std::string("cannot create a socket: ") + std::strerror(errno));
  sockaddr_in address{};
  address.sin_family = AF_INET;
  address.sin_addr.s_addr = htonl(INADDR_LOOPBACK);
  socklen_t length = sizeof(address);
  const bool ok = ::bind(fd, reinterpret_cast<sockaddr*>(&address), sizeof(address)) == 0 &&
                  ::getsockname(fd, reinterpret_cast<sockaddr*>(&address), &length) == 0;
  ::close(fd);
  if (!ok) return InternalError(std::string("cannot pick a free port: ") + std::strerror(errno));
  return static_cast<int>(ntohs(address.sin_port));
}

// `value` as one shell word: as it is when it holds only characters no shell
// treats specially, else single-quoted ("it's" -> 'it'\''s').
std::string ShellWord(const std::string& value) {
  if (!value.empty() &&
      value.find_first_not_of("ABCDEFGHIJKLMNOPQRSTUVWXYZabcdefghijklmnopqrstuvwxyz0123456789_@%+=:,./-") ==
          std::string::npos) {
    return value;
  }
  std::string quoted = "'";
  for (const char c : value) quoted += c == '\'' ? std::string("'\\''") : std::string(1, c);
  return quoted + "'";
}

// The command with its placeholders replaced, each value as one shell word
// (a data directory with a space stays one argument); `*gc_asked` says
// whether {gclog} was there.
StatusOr<std::string> Substitute(const ServerProcessOptions& options, int port, bool* gc_asked) {
  const std::vector<std::pair<std::string, std::string>> values = {{"port", std::to_string(port)},
                                                                   {"data", options.data_dir},
                                                                   {"run", options.run_label},
                                                                   {"gclog", options.gc_log},
                                                                   {"xmx", options.xmx}};
  std::string out;
  *gc_asked = false;
  const std::string& in = options.command;
  for (size_t i = 0; i < in.size(); ++i) {
    const size_t close = in[i] == '{' ? in.find('}', i) : std::string::npos;
    const std::string word = close == std::string::npos ? "" : in.substr(i + 1, close - i - 1);
    if (word.empty() || word.find_first_not_of("abcdefghijklmnopqrstuvwxyz") != std::string::npos) {
      out += in[i];  // not a placeholder: a shell's ${VAR} or a brace of its own stays as it is
      continue;
    }
    const auto found =
        std::find_if(values.begin(), values.end(), [&](const auto& v) { return v.first == word; });
    if (found == values.end()) {
      return InvalidArgumentError("the server command has an unknown placeholder {" + word +
                                  "}; it knows {port} {data} {run} {gclog} {xmx}");
    }
    if (found->second.empty()) {
      return InvalidArgumentError("the server command's {" + word + "} has no value" +
                                  (word == "xmx" ? ": give the server's heap size (xmx, e.g. 8g)" : ""));
    }
    if (word == "gclog") *gc_asked = true;
    out += ShellWord(found->second);
    i = close;
  }
  return out;
}

StatusOr<std::unique_ptr<ServerProcess>> StartCommand(const ServerProcessOptions& options) {
  auto port = FreeLoopbackPort();
  if (!port.ok()) return port.status();
  bool gc_asked = false;
  auto command = Substitute(options, *port, &gc_asked);
  if (!command.ok()) return command.status();
  const int log = ::open(options.log.empty() ? "/dev/null" : options.log.c_str(),
                         O_WRONLY | O_CREAT | O_TRUNC | O_CLOEXEC, 0644);
  if (log < 0)
    return InternalError("cannot create the server log " + options.log + ": " + std::strerror(errno));
  const std::string shell = "/bin/sh";
  std::string dash_c = "-c";
  std::string line = *command;
  char* argv[] = {const_cast<char*>(shell.c_str()), dash_c.data(), line.data(), nullptr};
  const pid_t parent = ::getpid();
  const pid_t pid = ::fork();
  if (pid < 0) {
    ::close(log);
    return InternalError("cannot fork the server");
  }
  if (pid == 0) {
    // Only async-signal-safe calls between fork and exec.
    ::setpgid(0, 0);
    ::prctl(PR_SET_PDEATHSIG, SIGKILL);
    if (::getppid() != parent) ::_exit(1);
    const int null = ::open("/dev/null", O_RDONLY);
    ::dup2(null, STDIN_FILENO);
    ::dup2(log, STDOUT_FILENO);
    ::dup2(log, STDERR_FILENO);
    ::execv(shell.c_str(), argv);
    ::_exit(127);
  }
  ::setpgid(pid, pid);  // also here, so the group exists before the first signal, whoever runs first
  ::close(log);
  Launch launch;
  launch.binary = "/bin/sh -c";
  launch.group = true;
  launch.log = options.log;
  launch.header = "command: " + *command;
  launch.gc_log = options.gc_log;
  launch.gc_asked = gc_asked;
  auto server = std::make_unique<ServerProcessImpl>(std::move(launch), options.stop_grace, pid, -1);
  server->set_port(*port);
  const std::string address = server->address();
  const auto deadline = Clock::now() + options.start_timeout;
  ServerAdminOptions probe;
  probe.call_timeout_seconds = 2;
  std::string last_answer = "nothing answered";
  while (true) {
    int status = 0;
    if (::waitpid(pid, &status, WNOHANG) == pid) {
      // Reaped here: Stop() has nothing left to wait for but the group.
      const std::string last = server->output();
      server->Stop();
      return UnavailableError(
          "the server command `" + *command + "` " + DescribeStatus(status, /*shell=*/true) +
          " before it was ready" +
          (last.empty() ? " (it printed nothing)" : "; the end of its log " + options.log + ":\n" + last));
    }
    auto ready = CheckServerReady(address, probe);
    if (ready.ok()) {
      server->set_identity(std::move(ready).value());
      break;
    }
    last_answer = ready.status().message();
    // It answered, and will answer the same until the deadline: say it now.
    const bool never = ready.status().code() == StatusCode::kFailedPrecondition;
    if (never || Clock::now() >= deadline) {
      const ServerFigures stopped = server->Stop();
      if (never) {
        return FailedPreconditionError("the server command `" + *command + "` runs on " + address +
                                       " but refuses the readiness probe: " + last_answer + "; stopped it (" +
                                       stopped.ended + "); its output is in " + options.log);
      }
      return UnavailableError("the server command `" + *command + "` was not ready on " + address +
                              " within " + Seconds(options.start_timeout) + " (last: " + last_answer +
                              "); stopped it (" + stopped.ended + "); its output is in " + options.log);
    }
    std::this_thread::sleep_for(std::chrono::milliseconds(100));
  }
  return std::unique_ptr<ServerProcess>(std::move(server));
}

// A server of the user's, by pid: read, never signalled.
class AttachedServerProcess : public ServerProcess {
 public:
  AttachedServerProcess(pid_t pid, std::string address, std::string gc_log, int64_t base_ticks,
                        int64_t base_system_ticks, std::streamoff gc_offset)
      : pid_(pid),
        address_(std::move(address)),
        gc_log_(std::move(gc_log)),
        base_ticks_(base_ticks),
        base_system_ticks_(base_system_ticks),
        gc_offset_(gc_offset) {}

  pid_t pid() const override { return pid_; }
  std::string address() const override { return address_; }
  std::string header() const override {
    return "attached: pid " + std::to_string(pid_) + " (given, not started by warmup)";
  }
  std::string output() const override { return ""; }
  StatusOr<ProcessSample> SampleNow() const override {
    const std::string proc = "/proc/" + std::to_string(pid_);
    const auto stat = ReadProcStat(proc);
    ProcessSample sample;
    sample.rss_bytes = ResidentBytes(proc);
    if (!stat || sample.rss_bytes < 0) {
      return UnavailableError(proc + ": cannot be read (has the server ended?)");
    }
    const auto tick = static_cast<double>(::sysconf(_SC_CLK_TCK));
    sample.cpu_seconds = static_cast<double>(stat->ticks - base_ticks_) / tick;
    MutexLock lock(mu_);
    usage_.peak_rss_bytes = std::max(usage_.peak_rss_bytes, sample.rss_bytes);
    usage_.user_seconds =
        static_cast<double>((stat->ticks - stat->system_ticks) - (base_ticks_ - base_system_ticks_)) / tick;
    usage_.system_seconds = static_cast<double>(stat->system_ticks - base_system_ticks_) / tick;
    return sample;
  }
  ServerFigures Stop() override {
    (void)SampleNow();  // its CPU up to here
    ServerFigures figures;
    figures.binary = "pid " + std::to_string(pid_);
    figures.header = header();
    figures.pid = pid_;
    {
      MutexLock lock(mu_);
      figures.usage = usage_;
    }
    figures.usage_sampled = true;
    figures.attached = true;
    figures.ended = ::kill(pid_, 0) == 0 ? "left running (attached by its pid, not started by warmup)"
                                         : "gone by the end of the run (attached by its pid)";
    if (gc_log_.empty()) {
      figures.gc_unavailable = "no GC log: none was given with the pid";
    } else {
      std::ifstream in(gc_log_, std::ios::binary);
      in.seekg(gc_offset_);
      const std::string text((std::istreambuf_iterator<char>(in)), std::istreambuf_iterator<char>());
      if (!in.good() && !in.eof()) {
        figures.gc_unavailable = gc_log_ + ": cannot be read";
      } else {
        figures.gc = ParseGcLogText(text);
        figures.gc->log = gc_log_ + " (from byte " + std::to_string(gc_offset_) + ": this run's collections)";
      }
    }
    return figures;
  }

 private:
  const pid_t pid_;
  const std::string address_;
  const std::string gc_log_;
  const int64_t base_ticks_;
  const int64_t base_system_ticks_;
  const std::streamoff gc_offset_;
  mutable Mutex mu_;
  mutable ProcessUsage usage_ GUARDED_BY(mu_);
};

}  // namespace

StatusOr<std::unique_ptr<ServerProcess>> ServerProcess::Attach(pid_t pid, const std::string& address,
                                                               const std::string& gc_log) {
  const std::string proc = "/proc/" + std::to_string(pid);
  const auto stat = pid > 0 ? ReadProcStat(proc) : std::nullopt;
  if (!stat) return NotFoundError("no process " + std::to_string(pid) + " to attach to (" + proc + "/stat)");
  std::streamoff gc_offset = 0;
  if (!gc_log.empty()) {
    std::error_code ec;
    const auto size = std::filesystem::file_size(gc_log, ec);
    if (ec) return NotFoundError("the server's GC log " + gc_log + ": " + ec.message());
    gc_offset = static_cast<std::streamoff>(size);
  }
  return std::unique_ptr<ServerProcess>(std::make_unique<AttachedServerProcess>(
      pid, address, gc_log, stat->ticks, stat->system_ticks, gc_offset));
}

StatusOr<std::unique_ptr<ServerProcess>> ServerProcess::Start(const ServerProcessOptions& options) {
  if (!options.command.empty()) return StartCommand(options);
  int output[2], ready[2], exec_error[2];
  if (::pipe2(output, O_CLOEXEC) != 0) return InternalError("cannot create a pipe for the server's output");
  if (::pipe2(ready, O_CLOEXEC) != 0 || ::pipe2(exec_error, O_CLOEXEC) != 0) {
    return InternalError("cannot create the server's pipes");
  }
  std::vector<std::string> args = {options.binary, "serve"};
  args.insert(args.end(), options.serve_args.begin(), options.serve_args.end());
  for (const std::string& extra : {std::string("--listen"), std::string("127.0.0.1:0"),
                                   std::string("--ready-fd"), std::to_string(ready[1])}) {
    args.push_back(extra);
  }
  std::vector<char*> argv;
  argv.reserve(args.size() + 1);
  for (auto& a : args) argv.push_back(a.data());
  argv.push_back(nullptr);
  const pid_t parent = ::getpid();
  const pid_t pid = ::fork();
  if (pid < 0) return InternalError("cannot fork the server");
  if (pid == 0) {
    // Only async-signal-safe calls between fork and exec.
    ::prctl(PR_SET_PDEATHSIG, SIGKILL);
    if (::getppid() != parent) ::_exit(1);
    const int null = ::open("/dev/null", O_RDONLY);
    ::dup2(null, STDIN_FILENO);
    ::dup2(output[1], STDOUT_FILENO);
    ::dup2(output[1], STDERR_FILENO);
    ::fcntl(ready[1], F_SETFD, 0);  // the readiness pipe survives exec
    ::execv(options.binary.c_str(), argv.data());
    const int error = errno;
    (void)!::write(exec_error[1], &error, sizeof(error));
    ::_exit(127);
  }
  ::close(output[1]);
  ::close(ready[1]);
  ::close(exec_error[1]);
  Launch launch;
  launch.binary = options.binary;
  auto server = std::make_unique<ServerProcessImpl>(std::move(launch), options.stop_grace, pid, output[0]);
  int error = 0;
  const ssize_t n = ::read(exec_error[0], &error, sizeof(error));  // 0 bytes: exec succeeded
  ::close(exec_error[0]);
  if (n == sizeof(error)) {
    ::close(ready[0]);
    server->Stop();
    return UnavailableError("cannot execute the server " + options.binary + ": " + std::strerror(error));
  }
  const Readiness readiness = AwaitReadiness(ready[0], options.start_timeout);
  if (!readiness.ready) {
    const ServerFigures stopped = server->Stop();
    const std::string last = server->output();
    const std::string said = last.empty() ? " (it printed nothing)" : "; its last output:\n" + last;
    if (readiness.timed_out) {
      return UnavailableError("the server " + options.binary + " was not ready within " +
                              Seconds(options.start_timeout) + "; stopped it (" + stopped.ended + ")" + said);
    }
    if (stopped.ended == "exited 64") {  // EX_USAGE: the arguments it was given are wrong
      return InvalidArgumentError("the server " + options.binary + " refused its arguments (it exited 64, " +
                                  "EX_USAGE, before it was ready)" + said);
    }
    return UnavailableError("the server " + options.binary + " did not start: it " + stopped.ended +
                            " before it was ready" + said);
  }
  auto line = ParseReadinessLine(readiness.line);
  if (!line.ok()) {
    server->Stop();
    return UnavailableError("the server " + options.binary + " said it was ready in a way not understood (" +
                            line.status().message() + "): " + readiness.line);
  }
  server->set_port(line->port);
  if (!line->build.empty()) server->set_build(line->build);
  return std::unique_ptr<ServerProcess>(std::move(server));
}

struct ServerSampler::State {
  State(const ServerProcess& sampled, std::chrono::milliseconds every) : server(sampled), interval(every) {}
  const ServerProcess& server;
  std::chrono::milliseconds interval;
  Mutex mu;
  CondVar wake;
  bool running GUARDED_BY(mu) = false;
  std::atomic<bool> golive{false};
  Clock::time_point start;
  std::vector<ProcessSample> samples GUARDED_BY(mu);
  std::thread thread;

  // Reads the server now and keeps the reading, marked with the phase.
  void Take(bool during_golive) {
    auto sample = server.SampleNow();
    if (!sample.ok()) return;
    sample->seconds = std::chrono::duration<double>(Clock::now() - start).count();
    sample->golive = during_golive;
    MutexLock lock(mu);
    samples.push_back(*sample);
  }
  void Run() {
    MutexLock lock(mu);
    while (running) {
      lock.Unlock();
      Take(golive.load());
      lock.Lock();
      const auto next = std::chrono::steady_clock::now() + interval;
      while (running && wake.WaitUntil(mu, next)) {
      }
    }
  }
  void Stop() {
    {
      MutexLock lock(mu);
      running = false;
    }
    wake.NotifyAll();
    if (thread.joinable()) thread.join();
  }
};

ServerSampler::ServerSampler(const ServerProcess& server, std::chrono::milliseconds interval)
    : state_(std::make_unique<State>(server, interval)) {}
ServerSampler::~ServerSampler() { state_->Stop(); }

void ServerSampler::OnRunStart(const RunStart&) {
  state_->start = Clock::now();
  {
    MutexLock lock(state_->mu);  // before the thread, which reads it under the lock
    state_->running = true;
  }
  state_->thread = std::thread([this] { state_->Run(); });
}
// A reading at each end of goLive, so that even a goLive shorter than the
// interval has its figures (taken outside goLive's timed window).
void ServerSampler::OnGoLiveStart() {
  state_->Take(/*during_golive=*/false);
  state_->golive = true;
}
void ServerSampler::OnGoLiveEnd(GoLiveOutcome, double) {
  state_->Take(/*during_golive=*/true);
  state_->golive = false;
}
void ServerSampler::OnRunEnd(const RunResult&) { state_->Stop(); }

void ServerSampler::AddTo(ServerFigures& figures) const {
  MutexLock lock(state_->mu);
  figures.samples = state_->samples;
  for (const auto& s : state_->samples) {
    int64_t& peak = s.golive ? figures.peak_rss_golive_bytes : figures.peak_rss_load_bytes;
    peak = std::max(peak, s.rss_bytes);
  }
}

}  // namespace warmup
