// A PostgreSQL server of the test's own, from Debian's postgresql package:
// initdb into a directory of the test's, postgres on 127.0.0.1 and a free
// port (no Unix socket), as the postgres user when the tests run as root
// (PostgreSQL refuses root), stopped when the object goes.
#ifndef WARMUP_TESTS_COMMON_POSTGRES_SERVER_H_
#define WARMUP_TESTS_COMMON_POSTGRES_SERVER_H_

#include <arpa/inet.h>
#include <fcntl.h>
#include <grp.h>
#include <libpq-fe.h>
#include <netinet/in.h>
#include <pwd.h>
#include <signal.h>
#include <sys/socket.h>
#include <sys/wait.h>
#include <unistd.h>

#include <doctest/doctest.h>

#include <chrono>
#include <filesystem>
#include <iostream>
#include <string>
#include <thread>
#include <vector>

namespace warmup::testing {

class PostgresServer {
 public:
  // The bin directory of the newest PostgreSQL installed (with initdb and
  // postgres); empty when there is none.
  static std::string BinDir() {
    std::error_code ec;
    std::string best;
    for (const auto& e : std::filesystem::directory_iterator("/usr/lib/postgresql", ec)) {
      const std::string bin = e.path().string() + "/bin";
      if (std::filesystem::exists(bin + "/initdb") && std::filesystem::exists(bin + "/postgres") &&
          bin > best) {
        best = bin;
      }
    }
    return best;
  }

  // Whether a server can be started; when not, says "skipped: no PostgreSQL"
  // on stderr (never silently) and the caller returns.
  static bool Available() {
    if (!BinDir().empty()) return true;
    std::cerr
        << "skipped: no PostgreSQL (Debian's postgresql package; scripts/install-deps.sh installs it)\n";
    return false;
  }

  // Starts the server with its data in DIR/pg (REQUIRE-d ready within 30 s).
  explicit PostgresServer(const std::string& dir) : data_(dir + "/pg") {
    const std::string bin = BinDir();
    REQUIRE_MESSAGE(!bin.empty(), "no PostgreSQL installed");
    std::filesystem::create_directories(data_);
    if (::getuid() == 0) {
      const passwd* pw = ::getpwnam("postgres");
      REQUIRE_MESSAGE(pw != nullptr, "running as root, and there is no postgres user to run the server as");
      uid_ = pw->pw_uid;
      gid_ = pw->pw_gid;
      // The server's user must reach its directory: the test's own is 0700.
      std::filesystem::permissions(dir, std::filesystem::perms::owner_all |
                                            std::filesystem::perms::group_exec |
                                            std::filesystem::perms::others_exec);
      REQUIRE(::chown(data_.c_str(), uid_, gid_) == 0);
    }
    const CliEnd init = RunAs({bin + "/initdb", "-D", data_, "-U", "warmup", "-A", "trust", "--no-sync",
                               "--no-locale", "-E", "UTF8"},
                              data_ + "/../initdb.log");
    REQUIRE_MESSAGE(init.exit_code == 0, "initdb failed; see ", data_, "/../initdb.log");
    port_ = FreePort();
    pid_ = Spawn({bin + "/postgres", "-D", data_, "-p", std::to_string(port_), "-c",
                  "listen_addresses=127.0.0.1", "-c", "unix_socket_directories=", "-c", "fsync=off"},
                 data_ + "/../postgres.log");
    const auto deadline = std::chrono::steady_clock::now() + std::chrono::seconds(30);
    while (PQping(url().c_str()) != PQPING_OK) {
      int status = 0;
      REQUIRE_MESSAGE(::waitpid(pid_, &status, WNOHANG) == 0, "postgres exited; see ", data_,
                      "/../postgres.log");
      REQUIRE_MESSAGE(std::chrono::steady_clock::now() < deadline, "postgres not ready within 30 s");
      std::this_thread::sleep_for(std::chrono::milliseconds(50));
    }
  }

  // Fast shutdown (SIGINT), then SIGKILL after 10 s.
  ~PostgresServer() {
    if (pid_ <= 0) return;
    ::kill(pid_, SIGINT);
    const auto deadline = std::chrono::steady_clock::now() + std::chrono::seconds(10);
    int status = 0;
    while (::waitpid(pid_, &status, WNOHANG) == 0) {
      if (std::chrono::steady_clock::now() >= deadline) {
        ::kill(pid_, SIGKILL);
        ::waitpid(pid_, &status, 0);
        break;
      }
      std::this_thread::sleep_for(std::chrono::milliseconds(20));
    }
  }

  PostgresServer(const PostgresServer&) = delete;
  PostgresServer& operator=(const PostgresServer&) = delete;

  // The database every test uses: postgresql://warmup@127.0.0.1:PORT/postgres.
  std::string url() const { return url("postgres"); }
  std::string url(const std::string& database) const {
    return "postgresql://warmup@127.0.0.1:" + std::to_string(port_) + "/" + database;
  }

  // Runs `sql` in `database` (REQUIRE-d to succeed); returns the first
  // column of the first row ("" without one).
  std::string Sql(const std::string& sql, const std::string& database = "postgres") const {
    PGconn* conn = PQconnectdb(url(database).c_str());
    REQUIRE_MESSAGE(PQstatus(conn) == CONNECTION_OK, PQerrorMessage(conn));
    PGresult* result = PQexec(conn, sql.c_str());
    const ExecStatusType status = PQresultStatus(result);
    const std::string first =
        status == PGRES_TUPLES_OK && PQntuples(result) > 0 ? PQgetvalue(result, 0, 0) : "";
    const std::string why = PQerrorMessage(conn);
    PQclear(result);
    PQfinish(conn);
    REQUIRE_MESSAGE((status == PGRES_TUPLES_OK || status == PGRES_COMMAND_OK), why);
    return first;
  }

  // A new empty database; returns its URL.
  std::string CreateDatabase(const std::string& name) const {
    Sql("CREATE DATABASE " + name);
    return url(name);
  }

 private:
  struct CliEnd {
    int exit_code = -1;
  };

  static int FreePort() {
    const int fd = ::socket(AF_INET, SOCK_STREAM, 0);
    REQUIRE(fd >= 0);
    sockaddr_in address{};
    address.sin_family = AF_INET;
    address.sin_addr.s_addr = htonl(INADDR_LOOPBACK);
    REQUIRE(::bind(fd, reinterpret_cast<sockaddr*>(&address), sizeof(address)) == 0);
    socklen_t length = sizeof(address);
    REQUIRE(::getsockname(fd, reinterpret_cast<sockaddr*>(&address), &length) == 0);
    ::close(fd);
    return ntohs(address.sin_port);
  }

  // Forks `argv` as the server's user, its output into `log`.
  pid_t Spawn(const std::vector<std::string>& argv, const std::string& log) const {
    const pid_t child = ::fork();
    REQUIRE(child >= 0);
    if (child == 0) {
      const int out = ::open(log.c_str(), O_WRONLY | O_CREAT | O_TRUNC, 0644);
      if (out >= 0) {
        ::dup2(out, STDOUT_FILENO);
        ::dup2(out, STDERR_FILENO);
      }
      if (uid_ != 0 && (::setgroups(0, nullptr) != 0 || ::setgid(gid_) != 0 || ::setuid(uid_) != 0))
        ::_exit(126);
      std::vector<char*> args;
      for (const std::string& a : argv) args.push_back(const_cast<char*>(a.c_str()));
      args.push_back(nullptr);
      ::execv(args[0], args.data());
      ::_exit(127);
    }
    return child;
  }

  CliEnd RunAs(const std::vector<std::string>& argv, const std::string& log) const {
    const pid_t child = Spawn(argv, log);
    int status = 0;
    ::waitpid(child, &status, 0);
    return {WIFEXITED(status) ? WEXITSTATUS(status) : -1};
  }

  std::string data_;
  uid_t uid_ = 0;
  gid_t gid_ = 0;
  int port_ = 0;
  pid_t pid_ = -1;
};

}  // namespace warmup::testing

#endif  // WARMUP_TESTS_COMMON_POSTGRES_SERVER_H_
