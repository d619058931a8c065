#!/usr/bin/env bash
# Install everything smd needs to build, test and benchmark on Debian 12 or 13 (run as root; the package
# names are the same in both releases).
# prometheus (and its promtool): ibsim.grafana_dashboard_test scrapes smd with it and checks the endpoint's text;
# about 8 s to download and install here.
# chromium, chromium-driver, python3-selenium: ibsim.fabric_view_browser_test drives the fabric view in headless
# chromium (and bench/fabric_view.sh times its page load); 47 s wall, 32 CPU s to download and install here
# (2026-12-07, apt lists already fresh, 2 shared cores).
# dpkg-dev (dpkg-shlibdeps), file (CPack's DEB generator; a minimal Debian 13 lacks it), adduser and systemd
# (systemd-analyze): the package.deb test builds, installs and verifies the Debian package.
set -euo pipefail
export DEBIAN_FRONTEND=noninteractive
SUDO=""
if [[ $(id -u) -ne 0 ]]; then SUDO="sudo"; fi
${SUDO} apt-get update -qq
${SUDO} apt-get install -y -qq --no-install-recommends \
  build-essential cmake pkg-config python3 python3-yaml procps iproute2 iputils-ping \
  libibumad-dev libibmad-dev libboost-dev libspdlog-dev libyaml-cpp-dev libgtest-dev libgmock-dev \
  libcli11-dev nlohmann-json3-dev libsystemd-dev nettle-dev \
  ibsim-utils libumad2sim0 infiniband-diags opensm \
  frr frr-pythontools prometheus chromium chromium-driver python3-selenium \
  dpkg-dev file adduser systemd >/dev/null
echo "install-deps: done"
