#!/usr/bin/env bash
# package.deb: builds the Debian package from this build tree (cpack, systemd/packaging.cmake) into a temp
# folder and checks it with dpkg-deb: the files, their modes, the conffile, the maintainer scripts, the
# unit's paths. Then, as root with a usable dpkg and no smd package of the operator's installed: dpkg -i,
# the group, check-config on the installed policy, systemd-analyze verify on the installed unit, the man
# pages, a reinstall that keeps an edited conffile, dpkg --purge. A trap purges on any failure and removes
# the group smd when the test created it. Exit 77 (ctest SKIP_RETURN_CODE) when the install half is
# skipped, after the first half passed.
set -euo pipefail
: "${SMD_BUILD_DIR:?}" "${SMD_SOURCE_DIR:?}"
CPACK=${SMD_CPACK:-cpack}
readonly SKIP=77

work=$(mktemp -d)
installed_by_us=0
group_created_by_us=0
cleanup() {
  if [[ ${installed_by_us} -eq 1 ]]; then
    echo "package.deb: purging smd after a failure"
    dpkg --purge smd >/dev/null 2>&1 || true
  fi
  if [[ ${group_created_by_us} -eq 1 ]] && getent group smd >/dev/null; then
    groupdel smd || true
  fi
  rm -rf "${work}"
}
trap cleanup EXIT

fail() {
  echo "package.deb: FAIL: $*" >&2
  exit 1
}

# --- 1. build the package -------------------------------------------------------------------------------
if ! "${CPACK}" --config "${SMD_BUILD_DIR}/CPackConfig.cmake" -G DEB -B "${work}/out" >"${work}/cpack.log" 2>&1; then
  cat "${work}/cpack.log" >&2
  fail "cpack failed"
fi
debs=("${work}"/out/smd_*.deb)
[[ ${#debs[@]} -eq 1 && -f ${debs[0]} ]] || fail "expected one smd_*.deb in ${work}/out: ${debs[*]}"
deb=${debs[0]}
echo "package.deb: built $(basename "${deb}") ($(stat -c %s "${deb}") bytes)"

# --- 2. what it holds -----------------------------------------------------------------------------------
dpkg-deb -c "${deb}" >"${work}/contents"
# "mode owner/group size date time ./path": the mode and path of each file we ship.
expect_file() {
  local mode=$1 path=$2
  grep -qE "^${mode} root/root +[0-9]+ [0-9-]+ [0-9:]+ \.${path}\$" "${work}/contents" ||
    fail "package lacks ${path} with mode ${mode}: $(grep -F "${path}" "${work}/contents" || echo absent)"
}
expect_file -rwxr-xr-x /usr/bin/smd
expect_file -rwxr-xr-x /usr/bin/smctl
expect_file -rwxr-xr-x /usr/bin/smd-fabric
expect_file -rw-r--r-- /etc/smd/smd.yaml
expect_file -rw-r--r-- /usr/lib/systemd/system/smd.service
expect_file -rw-r--r-- /usr/lib/systemd/system/smd@.service
expect_file -rw-r--r-- /usr/lib/systemd/system/smd-all.service
expect_file -rwxr-xr-x /usr/lib/smd/smd-instances
expect_file -rw-r--r-- /etc/default/smd
expect_file -rw-r--r-- /etc/logrotate.d/smd
expect_file -rw-r--r-- /usr/share/man/man8/smd.8.gz
expect_file -rw-r--r-- /usr/share/man/man8/smctl.8.gz
expect_file -rw-r--r-- /usr/share/man/man5/smd.yaml.5.gz
expect_file -rw-r--r-- /usr/share/doc/smd/README.md
expect_file -rw-r--r-- /usr/share/doc/smd/docs/operations.md
expect_file -rw-r--r-- /usr/share/doc/smd/docs/features.md
expect_file -rw-r--r-- /usr/share/doc/smd/docs/opensm-options.md
expect_file -rw-r--r-- /usr/share/doc/smd/copyright
expect_file -rw-r--r-- /usr/share/smd/grafana/smd.json
expect_file -rw-r--r-- /usr/share/bash-completion/completions/smd
expect_file -rw-r--r-- /usr/share/bash-completion/completions/smctl
# Nothing under /usr/local or /usr/etc: the staging prefix is /usr whatever this build was configured with.
if grep -E '\./usr/(local|etc)/' "${work}/contents"; then fail "files outside the package layout"; fi

dpkg-deb -e "${deb}" "${work}/control"
[[ "$(cat "${work}/control/conffiles")" == $'/etc/smd/smd.yaml\n/etc/default/smd\n/etc/logrotate.d/smd' ]] ||
  fail "conffiles is not exactly /etc/smd/smd.yaml, /etc/default/smd and /etc/logrotate.d/smd: $(cat "${work}/control/conffiles")"
# The logrotate rule reopens smd's log through SIGUSR1, and logrotate itself reads it.
grep -q "systemctl kill -s USR1 smd.service" "${work}/root/etc/logrotate.d/smd" 2>/dev/null ||
  dpkg-deb --fsys-tarfile "${deb}" | tar -xOf - ./etc/logrotate.d/smd | grep -q "systemctl kill -s USR1 smd.service" ||
  fail "etc/logrotate.d/smd does not send SIGUSR1"
for script in postinst prerm postrm; do
  [[ -x ${work}/control/${script} ]] || fail "no executable ${script}"
  sh -n "${work}/control/${script}" || fail "${script} is not valid sh"
done
grep -q 'addgroup --system' "${work}/control/postinst" || fail "postinst does not create the system group"
grep -q '/run/systemd/system' "${work}/control/postinst" || fail "postinst reloads systemd unconditionally"
# Comments may name enabling; no command may do it.
if grep -v '^ *#' "${work}/control/postinst" | grep -qE 'systemctl +(enable|start|restart)|deb-systemd-invoke'; then
  fail "postinst enables or starts the service"
fi
depends=$(dpkg-deb -f "${deb}" Depends)
for lib in libibumad3 libsystemd0 libyaml-cpp libstdc++6 adduser; do
  [[ ${depends} == *"${lib}"* ]] || fail "Depends lacks ${lib}: ${depends}"
done
[[ -n "$(dpkg-deb -f "${deb}" Maintainer)" && -n "$(dpkg-deb -f "${deb}" Description)" ]] ||
  fail "no Maintainer or Description"

dpkg-deb -x "${deb}" "${work}/root"
unit=${work}/root/usr/lib/systemd/system/smd.service
grep -qx 'ExecStart=/usr/bin/smd --config /etc/smd/smd.yaml $SMD_OPTIONS' "${unit}" || fail "ExecStart: $(grep ExecStart= "${unit}")"
grep -qx 'EnvironmentFile=-/etc/smd/smd.env' "${unit}" || fail "smd.service does not read /etc/smd/smd.env"
grep -qx 'ExecStartPre=/usr/bin/smd check-config /etc/smd/smd.yaml' "${unit}" ||
  fail "ExecStartPre: $(grep ExecStartPre= "${unit}")"
grep -qx 'Documentation=file:///usr/share/doc/smd/README.md' "${unit}" || fail "Documentation: $(grep Documentation= "${unit}")"
grep -qx 'SupplementaryGroups=smd' "${unit}" || fail "the unit does not run smd in group smd"
# The per-port template: the instance name goes to smd, which derives the rest (smd/sm/instance_policy.h).
template=${work}/root/usr/lib/systemd/system/smd@.service
grep -qx 'ExecStart=/usr/bin/smd --config /etc/smd/smd.yaml --instance %i $SMD_OPTIONS' "${template}" ||
  fail "smd@.service ExecStart: $(grep ExecStart= "${template}")"
grep -qx 'StateDirectory=smd/%i' "${template}" || fail "smd@.service has no StateDirectory=smd/%i"
grep -qx 'RuntimeDirectory=smd/%i' "${template}" || fail "smd@.service has no RuntimeDirectory=smd/%i"
grep -qx 'ExecStart=/usr/lib/smd/smd-instances start' "${work}/root/usr/lib/systemd/system/smd-all.service" ||
  fail "smd-all.service ExecStart: $(grep ExecStart= "${work}/root/usr/lib/systemd/system/smd-all.service")"
grep -qx 'EnvironmentFile=-/etc/default/smd' "${work}/root/usr/lib/systemd/system/smd-all.service" ||
  fail "smd-all.service does not read /etc/default/smd"
cmp -s "${work}/root/etc/smd/smd.yaml" "${SMD_SOURCE_DIR}/config/smd.yaml" || fail "etc/smd/smd.yaml is not config/smd.yaml"
for page in man8/smd.8 man8/smctl.8 man5/smd.yaml.5; do
  gzip -t "${work}/root/usr/share/man/${page}.gz" || fail "${page}.gz is not gzip"
  zcat "${work}/root/usr/share/man/${page}.gz" | cmp -s - "${SMD_SOURCE_DIR}/docs/man/${page#*/}" ||
    fail "${page}.gz is not docs/man/${page#*/}"
done
echo "package.deb: contents, conffiles, maintainer scripts and unit paths are right"

# --- 3. install, check, purge (root only, never over an operator's smd) ---------------------------------
if [[ $(id -u) -ne 0 ]]; then
  echo "package.deb: SKIP the install half: not root"
  exit "${SKIP}"
fi
if ! command -v dpkg >/dev/null || [[ ! -w /var/lib/dpkg ]]; then
  echo "package.deb: SKIP the install half: no usable dpkg"
  exit "${SKIP}"
fi
status=$(dpkg-query -W -f='${db:Status-Status}' smd 2>/dev/null || true)
if [[ -n ${status} && ${status} != not-installed ]]; then
  echo "package.deb: SKIP the install half: a package smd is already on this machine (status ${status});" \
    "it is the operator's, so this test neither replaces nor purges it"
  exit "${SKIP}"
fi
getent group smd >/dev/null || group_created_by_us=1

installed_by_us=1
dpkg -i "${deb}" >"${work}/dpkg-i.log" 2>&1 || { cat "${work}/dpkg-i.log" >&2; fail "dpkg -i"; }
getent group smd >/dev/null || fail "postinst did not create the group smd"
[[ -x /usr/bin/smd && -x /usr/bin/smctl && -x /usr/bin/smd-fabric ]] || fail "binaries not in /usr/bin"
/usr/bin/smctl --help >/dev/null || fail "smctl --help"
/usr/bin/smd check-config /etc/smd/smd.yaml >"${work}/check-config.log" 2>&1 ||
  { cat "${work}/check-config.log" >&2; fail "smd check-config /etc/smd/smd.yaml"; }
installed_unit=/usr/lib/systemd/system/smd.service
[[ -f ${installed_unit} ]] || fail "no ${installed_unit}"
# The umbrella's helper reads PORTS: the shipped default is ALL; a GUID list is echoed back, a bad word refused.
[[ "$(PORTS="0x0002c90300a1b2c3 0x1" /usr/lib/smd/smd-instances list)" == $'0x0002c90300a1b2c3\n0x1' ]] ||
  fail "smd-instances list does not echo PORTS"
if PORTS="../x" /usr/lib/smd/smd-instances list >/dev/null 2>&1; then fail "smd-instances accepted PORTS=../x"; fi
grep -qx 'PORTS=ALL' /etc/default/smd || fail "/etc/default/smd does not default to PORTS=ALL"
if command -v systemd-analyze >/dev/null; then
  # It checks the units' syntax and that ExecStart's binaries exist, without a running systemd. The
  # template is verified as one instance of it.
  mkdir -p "${work}/units"
  cp /usr/lib/systemd/system/smd@.service "${work}/units/smd@0x0002c90300a1b2c3.service"
  for u in "${installed_unit}" /usr/lib/systemd/system/smd-all.service "${work}/units/smd@0x0002c90300a1b2c3.service"; do
    systemd-analyze verify "${u}" >"${work}/verify.log" 2>&1 ||
      { cat "${work}/verify.log" >&2; fail "systemd-analyze verify ${u}"; }
  done
  echo "package.deb: systemd-analyze verify passed (smd, smd-all, smd@)"
else
  echo "package.deb: no systemd-analyze (package systemd): unit not verified"
fi
[[ ! -e /etc/systemd/system/multi-user.target.wants/smd.service ]] || fail "the package enabled smd.service"
dpkg-query -W -f='${Conffiles}\n' smd | grep -q '^ /etc/smd/smd.yaml [0-9a-f]\{32\}$' ||
  fail "dpkg does not track /etc/smd/smd.yaml as a conffile"
# Images that drop documentation (path-exclude in dpkg.cfg.d) install no man pages; say so rather than fail.
if grep -qsE '^path-exclude=?/usr/share/man' /etc/dpkg/dpkg.cfg.d/*; then
  echo "package.deb: dpkg excludes /usr/share/man here: man pages not checked after install"
else
  for page in smd smctl; do
    [[ -f /usr/share/man/man8/${page}.8.gz ]] || fail "/usr/share/man/man8/${page}.8.gz not installed"
    if command -v man >/dev/null; then
      [[ "$(man -w "${page}")" == /usr/share/man/man8/${page}.8.gz ]] || fail "man -w ${page}: $(man -w "${page}" 2>&1)"
    fi
  done
fi

# An operator's edit of the conffile survives a reinstall, and postinst runs again with the group there.
echo "# edited by package.deb" >>/etc/smd/smd.yaml
dpkg -i "${deb}" >"${work}/dpkg-i2.log" 2>&1 || { cat "${work}/dpkg-i2.log" >&2; fail "second dpkg -i"; }
grep -qx '# edited by package.deb' /etc/smd/smd.yaml || fail "reinstall replaced the edited conffile"

dpkg --purge smd >"${work}/purge.log" 2>&1 || { cat "${work}/purge.log" >&2; fail "dpkg --purge smd"; }
installed_by_us=0
for gone in /usr/bin/smd /usr/bin/smctl /usr/bin/smd-fabric /etc/smd/smd.yaml /etc/default/smd "${installed_unit}" \
  /usr/lib/systemd/system/smd@.service /usr/lib/systemd/system/smd-all.service /usr/lib/smd/smd-instances; do
  [[ ! -e ${gone} ]] || fail "${gone} is still there after the purge"
done
echo "package.deb: installed, checked and purged"
