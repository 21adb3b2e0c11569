// ServerProcess and ServerSampler (warmup/server_process.h). The start-up
// wait runs on Boost.Asio: the readiness pipe as a stream descriptor racing a
// steady_timer.
#include "warmup/server_process.h"

#include <fcntl.h>
#include <signal.h>
#include <sys/prctl.h>
#include <sys/resource.h>
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
#include <atomic>
#include <cerrno>
#include <condition_variable>
#include <cstdlib>
#include <cstring>
#include <fstream>
#include <mutex>
#include <nlohmann/json.hpp>
#include <sstream>
#include <thread>

#include "report/environment.h"

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

std::string DescribeStatus(int status) {
  if (WIFEXITED(status)) return "exited " + std::to_string(WEXITSTATUS(status));
  if (WIFSIGNALED(status)) {
    const char* name = ::sigabbrev_np(WTERMSIG(status));
    return "killed by " +
           (name != nullptr ? "SIG" + std::string(name) : "signal " + std::to_string(WTERMSIG(status)));
  }
  return "ended (status " + std::to_string(status) + ")";
}

class ServerProcessImpl : public ServerProcess {
 public:
  ServerProcessImpl(std::string binary, std::chrono::milliseconds grace, pid_t pid, int output_fd)
      : binary_(std::move(binary)), grace_(grace), pid_(pid), output_fd_(output_fd) {
    reader_ = std::thread([this] { ReadOutput(); });
  }
  ~ServerProcessImpl() override { Stop(); }

  pid_t pid() const override { return pid_; }
  std::string address() const override { return "127.0.0.1:" + std::to_string(port_); }
  std::string header() const override {
    std::lock_guard lock(output_mu_);
    return first_line_;
  }
  std::string output() const override {
    std::lock_guard lock(output_mu_);
    return output_;
  }

  StatusOr<ProcessSample> SampleNow() const override {
    const std::string proc = "/proc/" + std::to_string(pid_);
    std::ifstream stat(proc + "/stat");
    std::string text((std::istreambuf_iterator<char>(stat)), std::istreambuf_iterator<char>());
    const size_t close = text.rfind(')');  // the command name may hold spaces
    if (close == std::string::npos) return UnavailableError(proc + "/stat: cannot be read");
    std::istringstream fields(text.substr(close + 2));
    std::string field;
    int64_t utime = 0;
    int64_t stime = 0;
    for (int i = 3; i <= 15 && fields >> field; ++i) {  // fields 3.. after the name; 14 utime, 15 stime
      if (i == 14) utime = std::strtoll(field.c_str(), nullptr, 10);
      if (i == 15) stime = std::strtoll(field.c_str(), nullptr, 10);
    }
    std::ifstream statm(proc + "/statm");
    int64_t size_pages = 0;
    int64_t resident_pages = 0;
    if (!(statm >> size_pages >> resident_pages)) return UnavailableError(proc + "/statm: cannot be read");
    ProcessSample sample;
    sample.rss_bytes = resident_pages * ::sysconf(_SC_PAGESIZE);
    sample.cpu_seconds = static_cast<double>(utime + stime) / static_cast<double>(::sysconf(_SC_CLK_TCK));
    return sample;
  }

  ServerFigures Stop() override {
    std::lock_guard lock(stop_mu_);
    if (stopped_) return figures_;
    stopped_ = true;
    int status = 0;
    struct rusage usage {};
    bool killed = false;
    ::kill(pid_, SIGTERM);
    const auto deadline = Clock::now() + grace_;
    while (true) {
      const pid_t done = ::wait4(pid_, &status, WNOHANG, &usage);
      if (done == pid_ || (done < 0 && errno != EINTR)) break;
      if (Clock::now() >= deadline) {
        ::kill(pid_, SIGKILL);
        while (::wait4(pid_, &status, 0, &usage) < 0 && errno == EINTR) {
        }
        killed = true;
        break;
      }
      std::this_thread::sleep_for(std::chrono::milliseconds(10));
    }
    if (reader_.joinable()) reader_.join();
    figures_.binary = binary_;
    figures_.header = header();
    figures_.build = build_;
    figures_.pid = pid_;
    figures_.usage = report::UsageFromRusage(usage);
    figures_.ended =
        killed ? "killed by SIGKILL after a grace period of " + Seconds(grace_) : DescribeStatus(status);
    return figures_;
  }

  void set_port(int port) { port_ = port; }
  void set_build(std::string build) { build_ = std::move(build); }

 private:
  void ReadOutput() {
    char buffer[4096];
    while (true) {
      const ssize_t n = ::read(output_fd_, buffer, sizeof(buffer));
      if (n < 0 && errno == EINTR) continue;
      if (n <= 0) break;
      std::lock_guard lock(output_mu_);
      output_.append(buffer, static_cast<size_t>(n));
      if (first_line_.empty() && output_.find('\n') != std::string::npos) {
        first_line_ = output_.substr(0, output_.find('\n'));
      }
      if (output_.size() > kOutputKept) output_.erase(0, output_.size() - kOutputKept);
    }
    ::close(output_fd_);
  }

  std::string binary_;
  std::chrono::milliseconds grace_;
  pid_t pid_;
  int output_fd_;
  int port_ = 0;
  std::string build_;  // what the server said of its build when ready
  std::thread reader_;
  mutable std::mutex output_mu_;
  std::string output_;
  std::string first_line_;
  std::mutex stop_mu_;
  bool stopped_ = false;
  ServerFigures figures_;
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

}  // namespace

StatusOr<std::unique_ptr<ServerProcess>> ServerProcess::Start(const ServerProcessOptions& options) {
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
  auto server = std::make_unique<ServerProcessImpl>(options.binary, options.stop_grace, pid, output[0]);
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
    return UnavailableError("the server " + options.binary + " did not start: it " + stopped.ended +
                            " before it was ready" + said);
  }
  const auto parsed = nlohmann::json::parse(readiness.line, nullptr, /*allow_exceptions=*/false);
  if (!parsed.is_object() || !parsed.contains("port") || !parsed["port"].is_number_integer()) {
    server->Stop();
    return UnavailableError("the server " + options.binary +
                            " said it was ready in a way not understood: " + readiness.line);
  }
  server->set_port(parsed["port"].get<int>());
  if (parsed.contains("build") && parsed["build"].is_string())
    server->set_build(parsed["build"].get<std::string>());
  return std::unique_ptr<ServerProcess>(std::move(server));
}

struct ServerSampler::State {
  State(const ServerProcess& sampled, std::chrono::milliseconds every) : server(sampled), interval(every) {}
  const ServerProcess& server;
  std::chrono::milliseconds interval;
  std::mutex mu;
  std::condition_variable wake;
  bool running = false;
  std::atomic<bool> golive{false};
  Clock::time_point start;
  std::vector<ProcessSample> samples;
  std::thread thread;

  // Reads the server now and keeps the reading, marked with the phase.
  void Take(bool during_golive) {
    auto sample = server.SampleNow();
    if (!sample.ok()) return;
    sample->seconds = std::chrono::duration<double>(Clock::now() - start).count();
    sample->golive = during_golive;
    std::lock_guard lock(mu);
    samples.push_back(*sample);
  }
  void Run() {
    std::unique_lock lock(mu);
    while (running) {
      lock.unlock();
      Take(golive.load());
      lock.lock();
      wake.wait_for(lock, interval, [this] { return !running; });
    }
  }
  void Stop() {
    {
      std::lock_guard lock(mu);
      running = false;
    }
    wake.notify_all();
    if (thread.joinable()) thread.join();
  }
};

ServerSampler::ServerSampler(const ServerProcess& server, std::chrono::milliseconds interval)
    : state_(std::make_unique<State>(server, interval)) {}
ServerSampler::~ServerSampler() { state_->Stop(); }

void ServerSampler::OnRunStart(const RunStart&) {
  state_->start = Clock::now();
  state_->running = true;
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
  std::lock_guard lock(state_->mu);
  figures.samples = state_->samples;
  for (const auto& s : state_->samples) {
    int64_t& peak = s.golive ? figures.peak_rss_golive_bytes : figures.peak_rss_load_bytes;
    peak = std::max(peak, s.rss_bytes);
  }
}

}  // namespace warmup
