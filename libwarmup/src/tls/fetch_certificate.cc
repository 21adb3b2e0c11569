// FetchServerCertificate: one plain-HTTP GET with Boost.Beast, the way
// evitaDB's Java client fetches a server's generated certificate.
#include <boost/asio/connect.hpp>
#include <boost/asio/io_context.hpp>
#include <boost/asio/ip/tcp.hpp>
#include <boost/beast/core.hpp>
#include <boost/beast/http.hpp>
#include <chrono>

#include "base/status_macros.h"
#include "tls/tls_files.h"
#include "warmup/host_port.h"
#include "warmup/tls.h"

namespace warmup {

namespace beast = boost::beast;
namespace http = beast::http;
namespace asio = boost::asio;

StatusOr<std::string> FetchServerCertificate(const std::string& host_port, int timeout_seconds) {
  WARMUP_ASSIGN_OR_RETURN(const HostPort parts, SplitHostPort(host_port, AddressUse::kDial));
  const std::string url = "http://" + host_port + "/system/server.crt";

  asio::io_context io;
  asio::ip::tcp::resolver resolver(io);
  beast::tcp_stream stream(io);
  beast::flat_buffer buffer;
  http::request<http::empty_body> request(http::verb::get, "/system/server.crt", 11);
  request.set(http::field::host, host_port);
  request.set(http::field::user_agent, "warmup");
  http::response_parser<http::string_body> parser;
  parser.body_limit(1 << 20);
  beast::error_code failure;
  auto fail = [&](beast::error_code ec) {
    failure = ec;
    beast::error_code ignored;
    stream.socket().close(ignored);
  };
  stream.expires_after(std::chrono::seconds(timeout_seconds));
  resolver.async_resolve(
      parts.host, parts.port,
      [&](beast::error_code resolved, const asio::ip::tcp::resolver::results_type& hosts) {
        if (resolved) return fail(resolved);
        stream.async_connect(hosts, [&](beast::error_code connected, const asio::ip::tcp::endpoint&) {
          if (connected) return fail(connected);
          http::async_write(stream, request, [&](beast::error_code written, size_t) {
            if (written) return fail(written);
            http::async_read(stream, buffer, parser, [&](beast::error_code read, size_t) {
              if (read) return fail(read);
              beast::error_code ignored;
              stream.socket().shutdown(asio::ip::tcp::socket::shutdown_both, ignored);
            });
          });
        });
      });
  io.run();
  if (failure) return UnavailableError("GET " + url + ": " + failure.message());
  const auto& response = parser.get();
  if (response.result() != http::status::ok) {
    const beast::string_view reason = response.reason();
    return UnavailableError("GET " + url + ": the server answered " + std::to_string(response.result_int()) +
                            " " + std::string(reason.data(), reason.size()));
  }
  WARMUP_RETURN_IF_ERROR(tls::CheckPemCertificate(response.body(), "GET " + url));
  return response.body();
}

}  // namespace warmup
