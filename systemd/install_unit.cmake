# Runs at install time (`cmake --install`, `cpack`), not at configure time: the unit and the policy
# follow the prefix actually installed to, so a package staged with DESTDIR and CMAKE_INSTALL_PREFIX=/usr
# names /usr/bin/smd and /etc/smd/smd.yaml even when the build tree was configured for /usr/local.
#
# Input (set by the install(CODE) of systemd/CMakeLists.txt): SMD_UNIT_TEMPLATE (smd.service.in),
# SMD_POLICY_FILE (config/smd.yaml), SMD_UNIT_WORK_DIR (a build-tree folder for the configured unit),
# SMD_UNIT_SOURCE_DIR (systemd/: smd@.service.in, smd-all.service.in, smd-instances, default/smd,
# logrotate/smd).

# The absolute directories of GNUInstallDirs for `prefix`, computed the way GNUInstallDirs computes its
# CMAKE_INSTALL_FULL_* (only SYSCONFDIR is special: /etc for the prefixes / and /usr, /etc/opt/... for
# /opt/...). Sets smd_bindir, smd_sysconfdir, smd_datadir, smd_unitdir, smd_helperdir in the caller's scope.
function(smd_install_dirs prefix)
  string(REGEX REPLACE "/+$" "" p "${prefix}")  # "/" becomes "", "/usr/" becomes "/usr"
  if(p STREQUAL "" OR p STREQUAL "/usr")
    set(etc "/etc")
  elseif(p MATCHES "^/opt/")
    set(etc "/etc${p}")
  else()
    set(etc "${p}/etc")
  endif()
  set(smd_bindir "${p}/bin" PARENT_SCOPE)
  set(smd_sysconfdir "${etc}" PARENT_SCOPE)
  set(smd_datadir "${p}/share" PARENT_SCOPE)
  set(smd_unitdir "${p}/lib/systemd/system" PARENT_SCOPE)
  set(smd_helperdir "${p}/lib/smd" PARENT_SCOPE)
endfunction()

# Configures smd.service for the install prefix and installs it with the policy. file(INSTALL) puts
# $DESTDIR in front of each destination, as install() does.
function(smd_install_unit)
  smd_install_dirs("${CMAKE_INSTALL_PREFIX}")
  # The names smd.service.in uses.
  set(CMAKE_INSTALL_FULL_BINDIR "${smd_bindir}")
  set(CMAKE_INSTALL_FULL_SYSCONFDIR "${smd_sysconfdir}")
  set(CMAKE_INSTALL_FULL_DATADIR "${smd_datadir}")
  configure_file("${SMD_UNIT_TEMPLATE}" "${SMD_UNIT_WORK_DIR}/smd.service" @ONLY)
  # The per-port template and its umbrella; the umbrella runs the helper from lib/smd (Debian's place for
  # a package's private programs).
  set(SMD_INSTANCES_SCRIPT "${smd_helperdir}/smd-instances")
  configure_file("${SMD_UNIT_SOURCE_DIR}/smd@.service.in" "${SMD_UNIT_WORK_DIR}/smd@.service" @ONLY)
  configure_file("${SMD_UNIT_SOURCE_DIR}/smd-all.service.in" "${SMD_UNIT_WORK_DIR}/smd-all.service" @ONLY)
  file(INSTALL "${SMD_UNIT_WORK_DIR}/smd.service" "${SMD_UNIT_WORK_DIR}/smd@.service"
       "${SMD_UNIT_WORK_DIR}/smd-all.service" DESTINATION "${smd_unitdir}")
  file(INSTALL "${SMD_UNIT_SOURCE_DIR}/smd-instances" DESTINATION "${smd_helperdir}"
       PERMISSIONS OWNER_READ OWNER_WRITE OWNER_EXECUTE GROUP_READ GROUP_EXECUTE WORLD_READ WORLD_EXECUTE)
  file(INSTALL "${SMD_UNIT_SOURCE_DIR}/default/smd" DESTINATION "${smd_sysconfdir}/default"
       PERMISSIONS OWNER_READ OWNER_WRITE GROUP_READ WORLD_READ)
  # logrotate's rule for log.file in /var/log/smd (it sends SIGUSR1: smd reopens the file).
  file(INSTALL "${SMD_UNIT_SOURCE_DIR}/logrotate/smd" DESTINATION "${smd_sysconfdir}/logrotate.d"
       PERMISSIONS OWNER_READ OWNER_WRITE GROUP_READ WORLD_READ)
  # The daemon refuses a policy writable by group or others: 0644, whatever the checkout's umask was.
  file(INSTALL "${SMD_POLICY_FILE}" DESTINATION "${smd_sysconfdir}/smd"
       PERMISSIONS OWNER_READ OWNER_WRITE GROUP_READ WORLD_READ)
endfunction()

smd_install_unit()
