#include "server/system_endpoint.h"

#include <boost/asio/io_context.hpp>
#include <boost/asio/ip/tcp.hpp>
#include <boost/beast/core.hpp>
#include <boost/beast/http.hpp>
#include <chrono>
#include <thread>

#include "base/status_macros.h"
#include "warmup/host_port.h"

namespace warmup {
namespace {

namespace beast = boost::beast;
namespace http = beast::http;
namespace asio = boost::asio;
using tcp = asio::ip::tcp;

// One request per connection, answered and closed: a client fetches one file.
class Connection : public std::enable_shared_from_this<Connection> {
 public:
  Connection(tcp::socket socket, const std::string& certificate)
      : stream_(std::move(socket)), certificate_(certificate) {}

  void Serve() {
    stream_.expires_after(std::chrono::seconds(10));
    parser_.header_limit(8 * 1024);
    parser_.body_limit(0);
    http::async_read(stream_, buffer_, parser_, [self = shared_from_this()](beast::error_code ec, size_t) {
      if (!ec) self->Answer();
    });
  }

 private:
  void Answer() {
    const auto& request = parser_.get();
    response_.version(request.version());
    response_.keep_alive(false);
    if (request.method() == http::verb::get && request.target() == "/system/server.crt") {
      response_.result(http::status::ok);
      response_.set(http::field::content_type, "application/x-pem-file");
      response_.body() = certificate_;
    } else {
      response_.result(http::status::not_found);
      response_.set(http::field::content_type, "text/plain");
      response_.body() = "not found\n";
    }
    response_.prepare_payload();
    http::async_write(stream_, response_, [self = shared_from_this()](beast::error_code, size_t) {
      beast::error_code ignored;
      self->stream_.socket().shutdown(tcp::socket::shutdown_send, ignored);
    });
  }

  beast::tcp_stream stream_;
  const std::string& certificate_;
  beast::flat_buffer buffer_;
  http::request_parser<http::empty_body> parser_;
  http::response<http::string_body> response_;
};

class BeastSystemEndpoint : public SystemEndpoint {
 public:
  explicit BeastSystemEndpoint(std::string certificate)
      : certificate_(std::move(certificate)), acceptor_(io_) {}

  ~BeastSystemEndpoint() override {
    io_.stop();
    if (thread_.joinable()) thread_.join();
  }

  Status Listen(const std::string& listen) {
    WARMUP_ASSIGN_OR_RETURN(const HostPort parts, SplitHostPort(listen, AddressUse::kListen));
    beast::error_code ec;
    tcp::resolver resolver(io_);
    const auto endpoints = resolver.resolve(parts.host, parts.port, ec);
    if (ec || endpoints.empty()) return UnavailableError("system endpoint " + listen + ": " + ec.message());
    const tcp::endpoint endpoint = *endpoints.begin();
    acceptor_.open(endpoint.protocol(), ec);
    if (!ec) acceptor_.set_option(asio::socket_base::reuse_address(true), ec);
    if (!ec) acceptor_.bind(endpoint, ec);
    if (!ec) acceptor_.listen(asio::socket_base::max_listen_connections, ec);
    if (ec) return UnavailableError("system endpoint " + listen + ": cannot listen: " + ec.message());
    port_ = acceptor_.local_endpoint().port();
    Accept();
    thread_ = std::thread([this] { io_.run(); });
    return OkStatus();
  }

  int port() const override { return port_; }

 private:
  void Accept() {
    acceptor_.async_accept([this](beast::error_code ec, tcp::socket socket) {
      if (!ec) std::make_shared<Connection>(std::move(socket), certificate_)->Serve();
      if (acceptor_.is_open()) Accept();
    });
  }

  const std::string certificate_;
  asio::io_context io_;
  tcp::acceptor acceptor_;
  std::thread thread_;
  int port_ = 0;
};

}  // namespace

StatusOr<std::unique_ptr<SystemEndpoint>> SystemEndpoint::Start(const std::string& listen,
                                                                std::string certificate_pem) {
  auto endpoint = std::make_unique<BeastSystemEndpoint>(std::move(certificate_pem));
  WARMUP_RETURN_IF_ERROR(endpoint->Listen(listen));
  return std::unique_ptr<SystemEndpoint>(std::move(endpoint));
}

}  // namespace warmup
