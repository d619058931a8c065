#include "smd/control/metrics_server.h"

#include <spdlog/spdlog.h>

#include <boost/beast/core.hpp>
#include <boost/beast/http.hpp>
#include <optional>
#include <unordered_set>

#include "config/listen_address.h"
#include "smd/control/metrics_text.h"

namespace smd {
namespace {

namespace asio = boost::asio;
namespace beast = boost::beast;
namespace http = beast::http;
using tcp = asio::ip::tcp;

constexpr std::uint32_t kHeaderLimit = 8 * 1024;  // a scrape request is a few hundred bytes
constexpr std::uint64_t kBodyLimit = 1024;        // GET has no body; refuse big uploads early

}  // namespace

Result<tcp::endpoint> parse_listen(const std::string& listen) {
  // The syntax is the policy loader's (config/listen_address.h), so check-config and the daemon agree.
  auto parsed = parse_listen_address(listen);
  if (!parsed)
    return make_error(ErrorCode::kInvalidInput, "metrics.listen '" + listen + "': " + parsed.error().message);
  boost::system::error_code aec;
  const auto address = asio::ip::make_address(parsed->host, aec);
  if (aec) {
    return make_error(ErrorCode::kInvalidInput,
                      "metrics.listen '" + listen + "': host must be an IP address or localhost");
  }
  return tcp::endpoint(address, static_cast<unsigned short>(parsed->port));
}

struct MetricsServer::Shared {
  Shared(SnapshotFn fn, MetricsServerOptions o) : snapshot(std::move(fn)), options(o) {}
  SnapshotFn snapshot;
  MetricsServerOptions options;
  std::unordered_set<std::shared_ptr<Session>> sessions;
  bool stopped = true;
};

/// One HTTP connection: read a request, answer it, repeat while the client keeps it alive.
class MetricsServer::Session : public std::enable_shared_from_this<Session> {
 public:
  Session(tcp::socket socket, std::shared_ptr<Shared> shared)
      : stream_(std::move(socket)), shared_(std::move(shared)) {}

  void read() {
    parser_.emplace();
    parser_->header_limit(kHeaderLimit);
    parser_->body_limit(kBodyLimit);
    stream_.expires_after(shared_->options.timeout);
    http::async_read(stream_, buffer_, *parser_,
                     [self = shared_from_this()](const beast::error_code& ec, std::size_t) { self->on_read(ec); });
  }

  void close() {
    beast::error_code ignored;
    stream_.socket().shutdown(tcp::socket::shutdown_both, ignored);
    stream_.close();
    shared_->sessions.erase(shared_from_this());
  }

 private:
  void on_read(const beast::error_code& ec) {
    if (ec && ec.category() == http::make_error_code(http::error::bad_target).category() && !shared_->stopped &&
        ec != http::error::end_of_stream && ec != http::error::partial_message) {
      refuse(ec);  // malformed or oversized: the client learns why (RFC 9110 status), then the connection ends
      return;
    }
    if (ec || shared_->stopped) {  // end of stream, timeout, a reset
      close();
      return;
    }
    const auto& req = parser_->get();
    response_.emplace(http::status::ok, req.version());
    response_->set(http::field::server, "smd");
    response_->keep_alive(req.keep_alive());
    std::string_view target(req.target().data(), req.target().size());
    // Absolute form ("http://host:9464/metrics", RFC 9112 3.2.2) names the same resource.
    if (const auto scheme = target.find("://"); scheme != std::string_view::npos && target.front() != '/') {
      const auto slash = target.find('/', scheme + 3);
      target = slash == std::string_view::npos ? std::string_view("/") : target.substr(slash);
    }
    const std::string_view path = target.substr(0, target.find('?'));
    std::shared_ptr<const FabricSnapshot> snap;
    if (path != "/metrics") {
      response_->result(http::status::not_found);
      response_->set(http::field::content_type, "text/plain");
      response_->body() = "not found: only GET /metrics is served\n";
    } else if (req.method() != http::verb::get) {
      response_->result(http::status::method_not_allowed);
      response_->set(http::field::allow, "GET");
      response_->set(http::field::content_type, "text/plain");
      response_->body() = "method not allowed: /metrics is read with GET\n";
    } else if (!(snap = shared_->snapshot())) {
      response_->result(http::status::service_unavailable);
      response_->set(http::field::content_type, "text/plain");
      response_->body() = "smd has published no state yet\n";
    } else {
      response_->set(http::field::content_type, kMetricsContentType);
      response_->body() = render_metrics(*snap);
    }
    response_->prepare_payload();
    write_response();
  }

  /// Answer a request the parser refused with the status that says why, and close.
  void refuse(const beast::error_code& ec) {
    http::status status = http::status::bad_request;
    if (ec == http::error::header_limit) status = http::status::request_header_fields_too_large;
    if (ec == http::error::body_limit) status = http::status::payload_too_large;
    refuse(status, ec.message());
  }

  void refuse(http::status status, const std::string& why) {
    response_.emplace(status, 11);
    response_->set(http::field::server, "smd");
    response_->set(http::field::content_type, "text/plain");
    response_->keep_alive(false);
    response_->body() = std::string(http::obsolete_reason(status)) + ": " + why + "\n";
    response_->prepare_payload();
    write_response();
  }

  void write_response() {
    stream_.expires_after(shared_->options.timeout);
    http::async_write(stream_, *response_, [self = shared_from_this()](const beast::error_code& wec, std::size_t) {
      if (wec || !self->response_->keep_alive() || self->shared_->stopped) {
        self->close();
        return;
      }
      self->read();
    });
  }

  beast::tcp_stream stream_;
  beast::flat_buffer buffer_;
  std::optional<http::request_parser<http::string_body>> parser_;
  std::optional<http::response<http::string_body>> response_;
  std::shared_ptr<Shared> shared_;
};

MetricsServer::MetricsServer(asio::io_context& io, SnapshotFn snapshot, std::string listen,
                             MetricsServerOptions options)
    : io_(io), listen_(std::move(listen)), shared_(std::make_shared<Shared>(std::move(snapshot), options)) {}

MetricsServer::~MetricsServer() { (void)stop(); }

Status MetricsServer::start() {
  if (!shared_->stopped) return Ok{};
  auto endpoint = parse_listen(listen_);
  if (!endpoint.ok()) return endpoint.error();
  auto acceptor = std::make_unique<tcp::acceptor>(io_);
  boost::system::error_code ec;
  const auto fail = [&](const char* what) {
    return make_error(ErrorCode::kIo, "metrics " + listen_ + ": " + what + ": " + ec.message());
  };
  acceptor->open(endpoint->protocol(), ec);
  if (ec) return fail("socket");
  // A restarted daemon must not wait out TIME_WAIT connections of its predecessor's scrapes.
  acceptor->set_option(asio::socket_base::reuse_address(true), ec);
  acceptor->bind(*endpoint, ec);
  if (ec) return fail("bind");
  acceptor->listen(asio::socket_base::max_listen_connections, ec);
  if (ec) return fail("listen");
  acceptor_ = std::move(acceptor);
  shared_->stopped = false;
  accept_next();
  spdlog::info("metrics listening on {}:{}", acceptor_->local_endpoint(ec).address().to_string(), port());
  return Ok{};
}

void MetricsServer::accept_next() {
  acceptor_->async_accept([this, shared = shared_](const boost::system::error_code& ec, tcp::socket socket) {
    if (shared->stopped) return;  // the server (this) may be gone: touch nothing
    if (ec) {
      spdlog::warn("metrics {}: accept: {}", listen_, ec.message());
    } else if (shared->sessions.size() >= shared->options.max_clients) {
      boost::system::error_code ignored;
      socket.close(ignored);  // a scraper retries; an open slot matters more than this request
    } else {
      auto session = std::make_shared<Session>(std::move(socket), shared);
      shared->sessions.insert(session);
      session->read();
    }
    accept_next();
  });
}

Status MetricsServer::stop() {
  if (shared_->stopped) return Ok{};
  shared_->stopped = true;
  boost::system::error_code ignored;
  acceptor_->close(ignored);
  acceptor_.reset();
  const auto sessions = shared_->sessions;  // close() erases from the set
  for (const auto& s : sessions) s->close();
  return Ok{};
}

std::string MetricsServer::address() const {
  if (!acceptor_) return "";
  boost::system::error_code ec;
  const auto ep = acceptor_->local_endpoint(ec);
  if (ec) return "";
  const std::string host = ep.address().to_string();
  return (ep.address().is_v6() ? "[" + host + "]" : host) + ":" + std::to_string(ep.port());
}

unsigned short MetricsServer::port() const {
  if (!acceptor_) return 0;
  boost::system::error_code ec;
  const auto ep = acceptor_->local_endpoint(ec);
  return ec ? 0 : ep.port();
}

}  // namespace smd
