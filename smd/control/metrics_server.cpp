#include "smd/control/metrics_server.h"

#include <spdlog/spdlog.h>

#include <boost/beast/core.hpp>
#include <boost/beast/http.hpp>
#include <optional>

#include "config/listen_address.h"
#include "smd/control/metrics_text.h"
#include "smd/control/view_routes.h"

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

/// One HTTP connection: read a request, answer it, repeat while the client keeps it alive.
class MetricsServer::Session : public control::ServedConnection {
 public:
  /// `snapshot` is copied: a session may outlive the server by the handlers it still has queued.
  Session(tcp::socket socket, std::shared_ptr<control::ConnectionRegistry> registry, SnapshotFn snapshot,
          std::chrono::milliseconds timeout)
      : ServedConnection(std::move(registry)),
        stream_(std::move(socket)),
        snapshot_(std::move(snapshot)),
        timeout_(timeout) {}

  void begin() override { read(); }

 private:
  void read() {
    parser_.emplace();
    parser_->header_limit(kHeaderLimit);
    parser_->body_limit(kBodyLimit);
    stream_.expires_after(timeout_);
    http::async_read(stream_, buffer_, *parser_,
                     [self = self<Session>()](const beast::error_code& ec, std::size_t) { self->on_read(ec); });
  }

  void shut() override {
    beast::error_code ignored;
    stream_.socket().shutdown(tcp::socket::shutdown_both, ignored);
    stream_.close();
  }

  void on_read(const beast::error_code& ec) {
    if (ec && ec.category() == http::make_error_code(http::error::bad_target).category() && !server_stopped() &&
        ec != http::error::end_of_stream && ec != http::error::partial_message) {
      refuse(ec);  // malformed or oversized: the client learns why (RFC 9110 status), then the connection ends
      return;
    }
    if (ec || server_stopped()) {  // end of stream, timeout, a reset
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
      // The fabric view and its API (view_routes.h): pure reads of the same snapshot.
      const control::ViewAnswer view = control::answer_view(
          std::string_view(req.method_string().data(), req.method_string().size()), path, snapshot_());
      response_->result(static_cast<http::status>(view.status));
      response_->set(http::field::content_type, view.content_type);
      if (view.allow_get) response_->set(http::field::allow, "GET");
      response_->body() = view.body;
    } else if (req.method() != http::verb::get) {
      response_->result(http::status::method_not_allowed);
      response_->set(http::field::allow, "GET");
      response_->set(http::field::content_type, "text/plain");
      response_->body() = "method not allowed: /metrics is read with GET\n";
    } else if (!(snap = snapshot_())) {
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
    stream_.expires_after(timeout_);
    http::async_write(stream_, *response_, [self = self<Session>()](const beast::error_code& wec, std::size_t) {
      if (wec || !self->response_->keep_alive() || self->server_stopped()) {
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
  SnapshotFn snapshot_;
  std::chrono::milliseconds timeout_;
};

MetricsServer::MetricsServer(asio::io_context& io, SnapshotFn snapshot, std::string listen,
                             MetricsServerOptions options)
    : listen_(std::move(listen)),
      snapshot_(std::move(snapshot)),
      options_(options),
      core_(io, "metrics " + listen_,
            [this](tcp::socket socket, std::size_t live) { return admit(std::move(socket), live); }) {}

MetricsServer::~MetricsServer() { (void)stop(); }

Status MetricsServer::start() {
  if (core_.listening()) return Ok{};
  auto endpoint = parse_listen(listen_);
  if (!endpoint.ok()) return endpoint.error();
  if (auto listening = core_.listen(*endpoint, {.reuse_address = true, .bind_umask = std::nullopt}); !listening.ok())
    return listening;
  spdlog::info("metrics listening on {}:{}", core_.local_endpoint()->address().to_string(), port());
  return Ok{};
}

// Over the cap the connection is closed unanswered: a scraper retries, and an open slot matters more
// than this request.
std::shared_ptr<control::ServedConnection> MetricsServer::admit(tcp::socket socket, std::size_t live) {
  if (live >= options_.max_clients) {
    boost::system::error_code ignored;
    socket.close(ignored);
    return nullptr;
  }
  return std::make_shared<Session>(std::move(socket), core_.registry(), snapshot_, options_.timeout);
}

Status MetricsServer::stop() {
  core_.stop();
  return Ok{};
}

std::string MetricsServer::address() const {
  const auto ep = core_.local_endpoint();
  if (!ep) return "";
  const std::string host = ep->address().to_string();
  return (ep->address().is_v6() ? "[" + host + "]" : host) + ":" + std::to_string(ep->port());
}

unsigned short MetricsServer::port() const {
  const auto ep = core_.local_endpoint();
  return ep ? ep->port() : 0;
}

}  // namespace smd
