// MKeyTransport: puts the SM's M_Key into every SMP it forwards (IBA 14.2.4: once a port holds an M_Key
// with protection, Sets, and from level 2 on Gets, that do not carry it are discarded by the SMA).
// With per-port keys (security.m_key_per_port) the key depends on the port the directed route ends at, and
// a port whose key smd is not sure of is asked with each key it may hold, in turn: an SMA drops a request
// with a wrong key without an answer (14.2.4.1), so only a timeout says a key was wrong.
#pragma once

#include <cstdint>
#include <memory>
#include <utility>
#include <vector>

#include "mad/transport/transport.h"

namespace smd::mad {

/// Which M_Key a directed route's target port holds. Implemented by the SM (smd/sweep/m_key_book.h), which
/// knows the fabric; mad knows only paths.
class MKeyLookup {
 public:
  virtual ~MKeyLookup() = default;
  /// The keys to try for an SMP to the port at the end of `path`, most likely first; never empty (one 0
  /// entry: no key). Called on the io_context thread.
  virtual std::vector<std::uint64_t> keys_for(const DrPath& path) = 0;
  /// `key` was not the first candidate for `path` but a request carrying it was answered.
  virtual void key_answered(const DrPath& path, std::uint64_t key) = 0;
  /// No candidate for `path` was answered: the port's key is unknown to smd (or the port is gone).
  virtual void keys_exhausted(const DrPath& path, const std::vector<std::uint64_t>& tried) = 0;
};

/// A SmpTransport in front of another: requests that carry no M_Key of their own (0) get `m_key`, or, with
/// a lookup, the candidates of their target port in turn. Statistics and the window are the inner transport's.
class MKeyTransport final : public SmpTransport {
 public:
  explicit MKeyTransport(SmpTransport& inner, std::uint64_t m_key = 0) : inner_(inner), m_key_(m_key) {}

  /// The key for requests submitted from now on (0 = none), e.g. after a policy reload.
  void set_m_key(std::uint64_t m_key) { m_key_ = m_key; }
  std::uint64_t m_key() const { return m_key_; }
  /// Ask `lookup` for each directed-route request's keys (null: every request gets m_key()). Not owned; it
  /// must outlive the requests submitted while it is set.
  void set_lookup(MKeyLookup* lookup) { lookup_ = lookup; }

  void submit(SmpRequest req, SmpCallback done) override {
    if (req.m_key != 0 || req.dlid || lookup_ == nullptr) {
      if (req.m_key == 0) req.m_key = m_key_;
      inner_.submit(std::move(req), std::move(done));
      return;
    }
    std::vector<std::uint64_t> keys = lookup_->keys_for(req.path);
    send(std::make_shared<Attempt>(Attempt{std::move(req), std::move(done), std::move(keys), 0}));
  }
  std::size_t pending() const override { return inner_.pending(); }
  TransportStats stats() const override { return inner_.stats(); }

 private:
  struct Attempt {
    SmpRequest req;
    SmpCallback done;
    std::vector<std::uint64_t> keys;
    std::size_t next = 0;
  };

  // Send with keys[next]; on a timeout go on with the following key, else hand the reply on.
  void send(std::shared_ptr<Attempt> a) {
    SmpRequest req = a->req;
    req.m_key = a->keys.empty() ? 0 : a->keys[a->next];
    MKeyLookup* lookup = lookup_;
    inner_.submit(std::move(req), [this, a, lookup](const SmpReply& reply) {
      const bool last = a->keys.empty() || a->next + 1 >= a->keys.size();
      if (reply.outcome == SmpOutcome::kTimeout && !last) {
        ++a->next;
        send(a);
        return;
      }
      if (lookup != nullptr && !a->keys.empty()) {
        if (reply.outcome == SmpOutcome::kTimeout) {
          lookup->keys_exhausted(a->req.path, a->keys);
        } else if (reply.outcome != SmpOutcome::kTimeout && a->next > 0) {
          lookup->key_answered(a->req.path, a->keys[a->next]);
        }
      }
      a->done(reply);
    });
  }

  SmpTransport& inner_;
  std::uint64_t m_key_;
  MKeyLookup* lookup_ = nullptr;
};

}  // namespace smd::mad
