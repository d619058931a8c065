// SMP header (IBA 13.4.2, 14.2.1): decode_smp_header() accepts only SMP classes and directed routes of
// at most 63 hops; the response smd builds to an accepted request decodes as its GetResp (same TID,
// attribute and path, D bit set); and a request encoded from a fuzzed directed path decodes back.
#include <vector>

#include "fuzz_util.h"
#include "mad/codec/smp.h"

extern "C" int LLVMFuzzerTestOneInput(const std::uint8_t* data, std::size_t size) {
  using namespace smd;
  const auto mad_bytes = fuzz::first_bytes<mad::kMadSize>(data, size);
  const std::span<const std::uint8_t, mad::kMadSize> mad_in(mad_bytes);
  const auto h = mad::decode_smp_header(mad_in);
  const bool smp_class = mad_bytes[1] == mad::kClassSmiLid || mad_bytes[1] == mad::kClassSmiDirect;
  if (h) {
    fuzz::check(smp_class, "only SMP classes decode");
    fuzz::check(h->hop_count <= mad::kMaxHops, "a decoded directed route has at most 63 hops");
    fuzz::check((h->status & 0x8000) == 0 || h->mgmt_class == mad::kClassSmiLid, "DR status has no D bit");
    fuzz::check(h->tid == mad::mad_tid(mad_in), "TID read once");
    std::array<std::uint8_t, mad::kMadSize> resp{};
    mad::make_smp_response(mad_in, static_cast<std::uint16_t>(size & 0x7FFF), mad::smp_data(mad_in), resp);
    const auto r = mad::decode_smp_header(resp);
    fuzz::check(r.has_value(), "the response to a valid request decodes");
    fuzz::check(r->method == static_cast<std::uint8_t>(mad::Method::kGetResp), "response method is GetResp");
    fuzz::check(r->tid == h->tid && r->attr_id == h->attr_id && r->attr_mod == h->attr_mod, "response echoes");
    fuzz::check(r->hop_count == h->hop_count, "response keeps the route");
    fuzz::check(r->mgmt_class != mad::kClassSmiDirect || r->direction_inbound, "DR response has the D bit");
    fuzz::check(mad::smp_data(resp) == mad::smp_data(mad_in), "response carries the data");
  } else {
    fuzz::check(!smp_class || (mad_bytes[1] == mad::kClassSmiDirect && mad_bytes[7] > mad::kMaxHops),
                "an SMP is refused only for a route above 63 hops");
  }

  // Encode: a directed path from the input (DrPath keeps at most 63 hops).
  std::vector<std::uint8_t> hops(data, data + std::min<std::size_t>(size, 80));
  mad::SmpRequest req;
  req.path = mad::DrPath(hops);
  req.attr_id = mad::attr::kPortInfo;
  req.attr_mod = static_cast<std::uint32_t>(size);
  std::array<std::uint8_t, mad::kMadSize> enc{};
  mad::encode_smp(req, 0x1234567890ULL, enc);
  const auto e = mad::decode_smp_header(enc);
  fuzz::check(e.has_value() && e->mgmt_class == mad::kClassSmiDirect, "an encoded DR request decodes");
  fuzz::check(e->hop_count == std::min<std::size_t>(hops.size(), mad::kMaxHops), "hop count is the path length");
  fuzz::check(e->tid == 0x1234567890ULL && e->attr_mod == req.attr_mod, "TID and modifier encoded");
  return 0;
}
