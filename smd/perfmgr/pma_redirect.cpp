#include "smd/perfmgr/pma_redirect.h"

#include <algorithm>
#include <cstdio>
#include <string>

namespace smd {

PmaRoute gsi_route(Lid lid) {
  PmaRoute r;
  r.lid = lid;
  return r;
}

Result<PmaRoute> redirect_route(const mad::PmaClassPortInfo& cpi, const PmaRoute& from) {
  const bool has_gid = std::any_of(cpi.redirect_gid.begin(), cpi.redirect_gid.end(), [](auto b) { return b != 0; });
  if (cpi.redirect_lid == 0 && has_gid) {
    return make_error(ErrorCode::kInvalidInput, "RedirectGID without RedirectLID: GID-routed redirection is not supported");
  }
  if (cpi.redirect_qp == 0) return make_error(ErrorCode::kInvalidInput, "RedirectQP 0: QP0 takes only SMPs");
  if ((cpi.redirect_pkey & 0x7FFF) != 0x7FFF) {
    char pkey[8];
    std::snprintf(pkey, sizeof pkey, "0x%04x", cpi.redirect_pkey);
    return make_error(ErrorCode::kInvalidInput, std::string("RedirectP_Key ") + pkey +
                                                    " is not the default partition (only P_Key index 0 is sent)");
  }
  PmaRoute to;
  to.lid = cpi.redirect_lid != 0 ? cpi.redirect_lid : from.lid;
  to.qpn = cpi.redirect_qp;
  to.qkey = cpi.redirect_qkey;
  to.pkey = cpi.redirect_pkey;
  if (to == from) return make_error(ErrorCode::kInvalidInput, "redirected to the route the MAD already took");
  return to;
}

}  // namespace smd
