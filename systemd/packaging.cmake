# The Debian package of smd (`cmake --build build --target package`, or `cd build && cpack -G DEB`):
# smd, smctl and smd-fabric in /usr/bin, /etc/smd/smd.yaml, /etc/default/smd and /etc/logrotate.d/smd as
# conffiles, the units
# smd.service, smd@.service and smd-all.service in /usr/lib/systemd/system, their helper
# /usr/lib/smd/smd-instances, man pages smd(8), smctl(8) and smd.yaml(5), README, license and the
# operator's guides (docs/operations.md, docs/features.md, docs/opensm-options.md) in /usr/share/doc/smd.
# Included from the top-level CMakeLists.txt (CPack writes CPackConfig.cmake into the top build folder).
# The maintainer scripts are systemd/debian/: postinst creates the system group smd (members may use
# smctl) and reloads systemd; nothing enables or starts the service.

set(CPACK_GENERATOR DEB)
set(CPACK_PACKAGE_NAME smd)
set(CPACK_PACKAGE_VERSION ${PROJECT_VERSION})
set(CPACK_PACKAGE_VENDOR smd)
set(CPACK_PACKAGE_CONTACT "smd maintainers <smd@localhost>")
set(CPACK_PACKAGE_DESCRIPTION_SUMMARY "InfiniBand subnet manager")
# The extended description under the summary line (CPack indents it as control files want).
set(CPACK_DEBIAN_PACKAGE_DESCRIPTION "smd brings an InfiniBand subnet up and keeps it routed: directed-route sweeps, LID
assignment, verified routing (ftree, updn, minhop, sssp, dfsssp) programmed as LFT
diffs, SMInfo election beside OpenSM, a Subnet Administrator, partitions, multicast
and QoS. smctl queries the running daemon; smd-fabric writes test fabrics for ibsim.")
set(CPACK_DEBIAN_PACKAGE_SECTION net)
set(CPACK_DEBIAN_PACKAGE_PRIORITY optional)
# smd_<version>_<arch>.deb, the name Debian tools expect.
set(CPACK_DEBIAN_FILE_NAME DEB-DEFAULT)

# Stage with DESTDIR and CMAKE_INSTALL_PREFIX=/usr (CPACK_INSTALL_PREFIX is the prefix a DESTDIR install
# runs with), so install_unit.cmake sees the prefix /usr and puts the policy in /etc, whatever prefix this
# build tree was configured with.
set(CPACK_SET_DESTDIR ON)
set(CPACK_INSTALL_PREFIX /usr)
set(CPACK_PACKAGING_INSTALL_PREFIX /usr)
set(CPACK_STRIP_FILES ON)

# Depends: the shared libraries the binaries link, as dpkg-shlibdeps finds them (libibumad3, libsystemd0,
# libyaml-cpp0.7, libstdc++6, ...); adduser for postinst's addgroup.
set(CPACK_DEBIAN_PACKAGE_SHLIBDEPS ON)
set(CPACK_DEBIAN_PACKAGE_DEPENDS adduser)
# The unit wants rdma-load-modules@infiniband.service (rdma-core); smd-fabric's netfiles are for ibsim.
set(CPACK_DEBIAN_PACKAGE_RECOMMENDS rdma-core)
set(CPACK_DEBIAN_PACKAGE_SUGGESTS "infiniband-diags, ibsim-utils")

# conffiles: dpkg keeps an operator's edits of /etc/smd/smd.yaml and /etc/default/smd (PORTS) across upgrades
# and removes them only on purge.
set(CPACK_DEBIAN_PACKAGE_CONTROL_EXTRA
    ${CMAKE_CURRENT_LIST_DIR}/debian/conffiles ${CMAKE_CURRENT_LIST_DIR}/debian/postinst
    ${CMAKE_CURRENT_LIST_DIR}/debian/prerm ${CMAKE_CURRENT_LIST_DIR}/debian/postrm)
# 0755 for the scripts and 0644 for conffiles in control.tar, whatever the checkout's modes are.
set(CPACK_DEBIAN_PACKAGE_CONTROL_STRICT_PERMISSION ON)

include(CPack)
