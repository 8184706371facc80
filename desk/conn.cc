// The order desk's connections (desk.h): one client connection (plain TCP
// or TLS over it), its requests read one after another with their limits
// and deadlines, answered in order; the GA's live feed; the acceptor that
// admits them.
#include <type_traits>

#include "desk/internal.h"
#include "ledger/ledger.h"
#include "schema/codec.h"
#include "schema/event_generated.h"

namespace adjutant::desk {

// One client connection: requests read one after another (keep-alive),
// each answered in order; the GA's feed turns it into an event stream.
// `Stream` is a plain TCP stream or, with --tls-cert, TLS over one (the
// pattern of Beast's advanced_server_flex example); the connection's code is
// the same for both.
template <class Stream>
class Conn : public ConnBase, public std::enable_shared_from_this<Conn<Stream>> {
  static constexpr bool kTls = !std::is_same_v<Stream, beast::tcp_stream>;
  using std::enable_shared_from_this<Conn<Stream>>::shared_from_this;

 public:
  // `tls`: the TLS context, for a TLS stream only.
  template <class... Tls>
  Conn(tcp::socket socket, std::string client, Desk::Impl& impl, Tls&... tls)
      : stream_(std::move(socket), tls...), impl_(impl), client_(std::move(client)) {}
  ~Conn() override { impl_.DropConnection(client_); }

  void Start() {
    net::dispatch(stream_.get_executor(), [self = shared_from_this()] {
      if constexpr (kTls) {
        // The handshake has the header's deadline: a client that never
        // finishes it is cut off like one that never finishes a header.
        self->Lowest().expires_after(std::chrono::seconds(self->impl_.settings.header_timeout_s));
        self->stream_.async_handshake(net::ssl::stream_base::server, [self](beast::error_code ec) {
          if (ec) return self->CloseSocket();  // plain HTTP to the TLS port, say: nothing is answered
          self->handshaken_ = true;
          self->Read();
        });
      } else {
        self->Read();
      }
    });
  }
  void CloseIfIdle() override {
    net::post(stream_.get_executor(), [self = shared_from_this()] {
      if (!self->busy_) {
        beast::error_code ec;
        self->Lowest().socket().shutdown(tcp::socket::shutdown_both, ec);
        self->Lowest().close();
      }
    });
  }

 private:
  beast::tcp_stream& Lowest() { return beast::get_lowest_layer(stream_); }

  void Read() {
    if (impl_.stopping) return Close();
    busy_ = false;
    parser_.emplace();
    parser_->header_limit(static_cast<uint32_t>(impl_.settings.max_header_bytes));
    parser_->body_limit(impl_.settings.max_body_bytes);
    if (first_ || buffer_.size() > 0) return ReadHeader();
    // A kept-alive connection waits idle_timeout_s for its next request's
    // first byte; from then on the whole header has header_timeout_s, as the
    // first request's has (a header dribbled a byte at a time is cut off).
    Lowest().expires_after(std::chrono::seconds(impl_.settings.idle_timeout_s));
    stream_.async_read_some(buffer_.prepare(4096), [self = shared_from_this()](beast::error_code ec, std::size_t n) {
      if (ec) return self->Close();
      self->buffer_.commit(n);
      self->ReadHeader();
    });
  }

  void ReadHeader() {
    Lowest().expires_after(std::chrono::seconds(impl_.settings.header_timeout_s));
    http::async_read_header(stream_, buffer_, *parser_, beast::bind_front_handler(&Conn::OnHeader, shared_from_this()));
  }

  void OnHeader(beast::error_code ec, std::size_t) {
    if (ec) return OnReadError(ec);
    busy_ = true;
    first_ = false;
    began_ = Clock::now();
    const auto& m = parser_->get();
    log_method_ = m.method();
    const std::string target(m.target());
    log_path_ = target.substr(0, target.find('?'));  // never the query string
    log_who_ = log_game_ = "-";
    Lowest().expires_after(std::chrono::seconds(impl_.settings.header_timeout_s));
    http::async_read(stream_, buffer_, *parser_, beast::bind_front_handler(&Conn::OnRead, shared_from_this()));
  }

  void OnReadError(beast::error_code ec) {
    if (ec == http::error::body_limit) {
      return Send(Error(http::status::payload_too_large, "the body is over " + std::to_string(impl_.settings.max_body_bytes) +
                                                             " bytes"), true);
    }
    if (ec == http::error::header_limit) {
      return Send(Error(http::status::request_header_fields_too_large, "the header is over " +
                                                                           std::to_string(impl_.settings.max_header_bytes) +
                                                                           " bytes"), true);
    }
    if (ec == beast::error::timeout && busy_) return Send(Error(http::status::request_timeout, "the request came too slowly"), true);
    Close();
  }

  void OnRead(beast::error_code ec, std::size_t) {
    if (ec) return OnReadError(ec);
    auto& m = parser_->get();
    keep_alive_ = m.keep_alive() && !impl_.stopping;
    version_ = m.version();
    const std::string client = impl_.ClientAddress(client_, m);  // behind a trusted proxy: the forwarded client
    log_client_ = client;
    if (!impl_.RateOk(client)) {
      Response r = Error(http::status::too_many_requests, "more than " + std::to_string(impl_.settings.requests_per_minute) +
                                                              " requests a minute from this address");
      r.headers.push_back({"Retry-After", "60"});
      return Send(std::move(r), false);
    }
    Request rq;
    rq.method = m.method();
    rq.target = std::string(m.target());
    const size_t qm = rq.target.find('?');
    rq.path = rq.target.substr(0, qm);
    rq.query = qm == std::string::npos ? "" : rq.target.substr(qm + 1);
    rq.body = std::move(m.body());
    rq.authorization = std::string(m[http::field::authorization]);
    rq.idempotency_key = std::string(m["Idempotency-Key"]);
    rq.last_event_id = std::string(m["Last-Event-ID"]);
    rq.client = client;  // behind a trusted proxy: the forwarded client
    if (impl_.access) {
      // Who asked, for the access log: the session's person (or GA), the game.
      if (auto who = impl_.SessionOf(rq)) {
        log_who_ = who->ga ? "GA" : who->person;
        if (!who->game.empty()) log_game_ = who->game;
      }
      const auto parts = Split(rq.path);
      if (parts.size() >= 3 && parts[0] == "api" && parts[1] == "games") log_game_ = parts[2];
    }
    Lowest().expires_never();  // the handler may take a while (a turn's adjudication)
    if (rq.method == http::verb::get && IsFeed(rq)) return StartFeed(rq);
    auto self = shared_from_this();
    // The I/O loop stays alive until this request is answered, even while
    // the desk stops (an acknowledged order is always answered).
    auto work = std::make_shared<net::executor_work_guard<net::io_context::executor_type>>(impl_.ioc.get_executor());
    impl_.Handle(std::move(rq), [self, work](Response r) {
      net::post(self->stream_.get_executor(), [self, work, r = std::move(r)]() mutable {
        self->Send(std::move(r), false);
        work->reset();
      });
    });
  }

  // On every answer: the page's policy, never framed, no referrer, no
  // sniffing; with TLS, browsers are told to come back over TLS only.
  std::vector<std::pair<std::string, std::string>> SecurityHeaders() const {
    std::vector<std::pair<std::string, std::string>> h = {{"Content-Security-Policy", impl_.policy},
                                                          {"X-Frame-Options", "DENY"},
                                                          {"Referrer-Policy", "no-referrer"},
                                                          {"X-Content-Type-Options", "nosniff"}};
    if (kTls) h.push_back({"Strict-Transport-Security", "max-age=31536000"});
    return h;
  }

  void Send(Response r, bool close) {
    auto res = std::make_shared<http::response<http::string_body>>(r.status, version_ ? version_ : 11);
    res->set(http::field::server, "adjutant-desk");
    res->set(http::field::content_type, r.type);
    res->set(http::field::cache_control, "no-store");
    for (const auto& [k, v] : SecurityHeaders()) res->set(k, v);
    for (const auto& [k, v] : r.headers) res->set(k, v);
    res->keep_alive(keep_alive_ && !close && !impl_.stopping);
    res->body() = std::move(r.body);
    res->prepare_payload();
    Lowest().expires_after(std::chrono::seconds(impl_.settings.header_timeout_s));
    http::async_write(stream_, *res, [self = shared_from_this(), res](beast::error_code ec, std::size_t) {
      self->impl_.Log(self->log_client_.empty() ? self->client_ : self->log_client_, self->log_who_, self->log_game_, self->log_method_, self->log_path_,
                      res->result_int(), res->body().size(), self->began_);
      if (ec || !res->keep_alive()) return self->Close();
      self->Read();
    });
  }

  // Closes the connection (with TLS, after its close_notify, under the
  // header's deadline).
  void Close() {
    if (closing_) return;
    closing_ = true;
    if constexpr (kTls) {
      if (handshaken_) {
        Lowest().expires_after(std::chrono::seconds(impl_.settings.header_timeout_s));
        stream_.async_shutdown([self = shared_from_this()](beast::error_code) { self->CloseSocket(); });
        return;
      }
    }
    CloseSocket();
  }
  void CloseSocket() {
    beast::error_code ec;
    Lowest().socket().shutdown(tcp::socket::shutdown_send, ec);
    Lowest().close();
  }

  // ---- the GA's live feed: GET /api/games/GAME/feed (server-sent events) -------
  // From seq 1, after ?after=SEQ (or Last-Event-ID), or with ?after=head from
  // the branch's head when the feed begins (the page's status panel).
  bool IsFeed(const Request& rq) const {
    auto p = Split(rq.path);
    return p.size() == 4 && p[0] == "api" && p[1] == "games" && p[3] == "feed";
  }

  void StartFeed(const Request& rq) {
    auto s = impl_.SessionOf(rq);
    if (!s) return Send(Error(http::status::unauthorized, "not logged in, or the session has expired"), false);
    if (!s->ga) return Send(Error(http::status::forbidden, "the GA's only"), false);
    feed_game_ = Split(rq.path)[2];
    if (!ledger::CheckName("game", feed_game_).ok()) return Send(Error(http::status::not_found, "no such game"), false);
    auto q = Query(rq.query);
    feed_next_ = 1;
    const std::string from = !rq.last_event_id.empty() ? rq.last_event_id : q.count("after") ? q.at("after") : "";
    if (from == "head") {
      feed_next_ = 0;  // from the branch's head: read on the first poll (on the pool)
    } else if (!from.empty()) {
      try {
        feed_next_ = std::stoull(from) + 1;
      } catch (...) {
        return Send(Error(http::status::bad_request, "after: not a sequence number"), false);
      }
    }
    feed_session_.authorization = rq.authorization;  // checked again on every poll
    std::string h = "HTTP/1.1 200 OK\r\nContent-Type: text/event-stream\r\nCache-Control: no-store\r\nConnection: keep-alive\r\n"
                    "Server: adjutant-desk\r\n";
    for (const auto& [k, v] : SecurityHeaders()) h += k + ": " + v + "\r\n";
    auto head = std::make_shared<std::string>(h + "\r\n");
    net::async_write(stream_, net::buffer(*head), [self = shared_from_this(), head](beast::error_code ec, std::size_t) {
      self->impl_.Log(self->log_client_.empty() ? self->client_ : self->log_client_, self->log_who_, self->log_game_, self->log_method_, self->log_path_, 200, 0,
                      self->began_);
      if (ec) return self->Close();
      self->feed_timer_.emplace(self->stream_.get_executor());
      self->Poll();
    });
  }

  void Poll() {
    if (impl_.stopping) return Close();
    // The session again, on every poll: logged out, expired or revoked, the feed ends.
    if (auto s = impl_.SessionOf(feed_session_); !s || !s->ga) return Close();
    // Read what is new on the worker pool; write it from here.
    auto self = shared_from_this();
    net::post(impl_.pool, [self] {
      std::string chunk;
      uint64_t next = self->feed_next_;
      auto branch = self->impl_.db.Current(self->feed_game_);
      if (branch.ok() && next == 0) {  // ?after=head: only what comes after this first poll
        auto head = self->impl_.db.HeadOf(self->feed_game_, *branch);
        next = head.ok() ? head->seq + 1 : 1;
      }
      if (branch.ok()) {
        (void)self->impl_.db.Read(self->feed_game_, *branch, next, UINT64_MAX, [&](const ledger::EventView& e) {
          auto j = schema::ToJson("Event", e.bytes.data());
          chunk += "id: " + std::to_string(e.seq) + "\ndata: " + (j.ok() ? *j : "{}") + "\n\n";
          next = e.seq + 1;
          return chunk.size() > 256 * 1024 ? Status::Corruption("enough for one write") : Status::Ok();
        });
      }
      if (chunk.empty()) chunk = ": waiting\n\n";  // a comment: keeps proxies and clients awake
      net::post(self->stream_.get_executor(), [self, chunk = std::make_shared<std::string>(std::move(chunk)), next] {
        self->feed_next_ = next;
        net::async_write(self->stream_, net::buffer(*chunk), [self, chunk](beast::error_code ec, std::size_t) {
          if (ec) return self->Close();
          self->feed_timer_->expires_after(std::chrono::milliseconds(250));
          self->feed_timer_->async_wait([self](beast::error_code ec2) {
            if (ec2) return self->Close();
            self->Poll();
          });
        });
      });
    });
  }

  Stream stream_;
  Desk::Impl& impl_;
  beast::flat_buffer buffer_;
  std::optional<http::request_parser<http::string_body>> parser_;
  std::string client_;
  std::string log_client_;  // the client the access log names: the forwarded one behind a trusted proxy
  bool keep_alive_ = true, busy_ = false, first_ = true, closing_ = false, handshaken_ = false;
  unsigned version_ = 11;
  std::string feed_game_;
  Request feed_session_;  // the feed's Authorization, for SessionOf
  uint64_t feed_next_ = 1;
  std::optional<net::steady_timer> feed_timer_;
  // The access log's line for the request in hand.
  Clock::time_point began_ = Clock::now();
  http::verb log_method_ = http::verb::unknown;
  std::string log_path_ = "-", log_who_ = "-", log_game_ = "-";
};

void Accept(Desk::Impl& impl, std::shared_ptr<std::vector<std::weak_ptr<ConnBase>>> conns) {
  impl.acceptor.async_accept(net::make_strand(impl.ioc), [&impl, conns](beast::error_code ec, tcp::socket socket) {
    if (impl.stopping) return;
    if (!ec) {
      beast::error_code aec;
      const auto ep = socket.remote_endpoint(aec);
      const std::string client = aec ? "?" : ep.address().to_string();
      const auto admit = impl.AddConnection(client);
      if (admit != Desk::Impl::Admit::kOk) {
        // Over a limit: a short answer (in plain HTTP only: a TLS client
        // could not read it), then closed; the access log has a line.
        impl.Log(client, "-", "-", http::verb::unknown, "-", 503, 0, Clock::now());
        if (!impl.tls) {
          const std::string body = admit == Desk::Impl::Admit::kTooMany
                                       ? "{\"error\": \"too many connections open\"}\n"
                                       : "{\"error\": \"too many connections open from your address (limit " +
                                             std::to_string(impl.settings.max_connections_per_address) + ")\"}\n";
          const std::string busy =
              "HTTP/1.1 503 Service Unavailable\r\nContent-Type: application/json\r\nConnection: close\r\n"
              "Retry-After: 5\r\nContent-Length: " + std::to_string(body.size()) + "\r\n\r\n" + body;
          beast::error_code wec;
          net::write(socket, net::buffer(busy), wec);
        }
        beast::error_code cec;
        socket.close(cec);
      } else {
        std::shared_ptr<ConnBase> c;
        if (impl.tls) {
          auto t = std::make_shared<Conn<beast::ssl_stream<beast::tcp_stream>>>(std::move(socket), client, impl, *impl.tls);
          t->Start();
          c = t;
        } else {
          auto t = std::make_shared<Conn<beast::tcp_stream>>(std::move(socket), client, impl);
          t->Start();
          c = t;
        }
        std::erase_if(*conns, [](const auto& w) { return w.expired(); });
        conns->push_back(c);
      }
    }
    Accept(impl, conns);
  });
}

}  // namespace adjutant::desk
