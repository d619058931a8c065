# bash completion for smd(8) and smctl(8): subcommands, options and the words their values take.
# Installed as /usr/share/bash-completion/completions/smd and .../smctl (bash-completion loads a command's
# file on first use); tests/integration/check_completion.py checks it against both programs' --help.

# The words each command accepts; a subcommand's entry lists its options and the fixed words it takes.
_smd_engines="dfsssp ftree minhop sssp updn"
_smd_levels="trace debug info warn error critical off"

# _smd_complete_words WORDS: COMPREPLY from WORDS matching the current word.
_smd_complete_words() {
  local cur=${COMP_WORDS[COMP_CWORD]}
  mapfile -t COMPREPLY < <(compgen -W "$1" -- "${cur}")
}

# _smd_complete_files: COMPREPLY from the file names matching the current word.
_smd_complete_files() {
  local cur=${COMP_WORDS[COMP_CWORD]}
  mapfile -t COMPREPLY < <(compgen -f -- "${cur}")
  compopt -o filenames 2>/dev/null || true
}

_smctl() {
  local cur=${COMP_WORDS[COMP_CWORD]} prev=${COMP_WORDS[COMP_CWORD - 1]}
  local global="--socket --instance --json --timeout --list-commands --help --version"
  local commands="status nodes lfts route sweep reroute report sa partitions groups counters ports port export
                  dump log-level sweeps perfmgr drain undrain what-if"
  case ${prev} in
    --socket | -o | --output) _smd_complete_files; return ;;
    --instance | --timeout | --reason) COMPREPLY=(); return ;;
  esac
  # The subcommand: the first word that is not an option or an option's value.
  local i command="" sub=""
  for ((i = 1; i < COMP_CWORD; i++)); do
    case ${COMP_WORDS[i]} in
      --socket | --instance | --timeout) ((i++)) ;;
      -*) ;;
      *) if [[ -z ${command} ]]; then command=${COMP_WORDS[i]}; elif [[ -z ${sub} ]]; then sub=${COMP_WORDS[i]}; fi ;;
    esac
  done
  if [[ -z ${command} ]]; then
    if [[ ${cur} == -* ]]; then _smd_complete_words "${global}"; else _smd_complete_words "${commands}"; fi
    return
  fi
  local words="--help"
  case ${command} in
    counters) words+=" --errors" ;;
    ports) words+=" --unhealthy" ;;
    port) [[ -z ${sub} ]] && words+=" clear" ;;
    export) [[ -z ${sub} ]] && words+=" roce" ;;
    sweep) words+=" --light" ;;
    dump) words+=" -o --output"; [[ -z ${sub} ]] && words+=" lfts subnet mcfdbs sl2vl" ;;
    log-level) [[ -z ${sub} ]] && words+=" ${_smd_levels}" ;;
    sweeps) words+=" --reason"; [[ -z ${sub} ]] && words+=" on off" ;;
    perfmgr) [[ -z ${sub} ]] && words+=" clear pass" ;;
    drain) words+=" --force" ;;
    undrain) words+=" --all" ;;
    what-if) [[ -z ${sub} ]] && words+=" drain" ;;
  esac
  _smd_complete_words "${words}"
}

_smd() {
  local cur=${COMP_WORDS[COMP_CWORD]} prev=${COMP_WORDS[COMP_CWORD - 1]}
  local global="-c -F --config --once --log-level --instance --metrics-listen -p --priority -g --guid -R
                --routing-engine --routing_engine --help --version"
  local commands="config plan check-config import-partitions import-qos-policy import-opensm-conf"
  case ${prev} in
    -c | -F | --config | --topology | --lft-dump | --opensm-lfts | --partitions | --qos-policy | --guid2lid | --ar-plan | --roce-plan | --svg | --report | --pairs | --job | -o | --output)
      _smd_complete_files; return ;;
    --frr-dir) mapfile -t COMPREPLY < <(compgen -d -- "${cur}"); return ;;
    --log-level) _smd_complete_words "${_smd_levels}"; return ;;
    -R | --routing-engine | --routing_engine)
      # A chain: complete the name after the last comma.
      local done_part="" last=${cur}
      [[ ${cur} == *,* ]] && done_part=${cur%,*}, && last=${cur##*,}
      mapfile -t COMPREPLY < <(compgen -P "${done_part}" -W "${_smd_engines}" -- "${last}")
      return ;;
    --collectives)
      # A list: complete the collective after the last comma.
      local so_far="" word=${cur}
      [[ ${cur} == *,* ]] && so_far=${cur%,*}, && word=${cur##*,}
      mapfile -t COMPREPLY < <(compgen -P "${so_far}" -W "ring tree allgather reducescatter alltoall moe:8 pipeline none" -- "${word}")
      return ;;
    --placement) _smd_complete_words "contiguous: fragmented: random:"; return ;;
    --format) _smd_complete_words "text json"; return ;;
    -p | --priority) _smd_complete_words "$(echo {0..15})"; return ;;
    -g | --guid | --instance | --metrics-listen | --seeds | --linear-fdb-cap | --max-shifts | --vl-cap | --qps | --drain | --fail)
      COMPREPLY=(); return ;;
  esac
  local i command=""
  for ((i = 1; i < COMP_CWORD; i++)); do
    case ${COMP_WORDS[i]} in
      -c | -F | --config | --log-level | --instance | --metrics-listen | -p | --priority | -g | --guid | -R | \
        --routing-engine | --routing_engine) ((i++)) ;;
      -*) ;;
      *) [[ -z ${command} ]] && command=${COMP_WORDS[i]} ;;
    esac
  done
  case ${command} in
    "")
      if [[ ${cur} == -* ]]; then _smd_complete_words "${global}"; else _smd_complete_words "${commands}"; fi ;;
    config) _smd_complete_words "--effective --json ${global}" ;;
    plan)
      _smd_complete_words "--topology --config --format --seeds --linear-fdb-cap --max-shifts --lft-dump --opensm-lfts --guid2lid
        --drain --adaptive --ar-plan --vl-cap --roce-plan --frr-dir --compare --svg --report --pairs --qps --collectives --job --placement --jobs-at-once --fail --help" ;;
    check-config)
      if [[ ${cur} == -* ]]; then _smd_complete_words "--skip-permissions --help"; else _smd_complete_files; fi ;;
    import-partitions)
      if [[ ${cur} == -* ]]; then _smd_complete_words "-o --output --help"; else _smd_complete_files; fi ;;
    import-qos-policy)
      if [[ ${cur} == -* ]]; then _smd_complete_words "--partitions -o --output --help"; else _smd_complete_files; fi ;;
    import-opensm-conf)
      if [[ ${cur} == -* ]]; then
        _smd_complete_words "--partitions --qos-policy -o --output --options-table --help"
      else
        _smd_complete_files
      fi ;;
  esac
}

complete -F _smctl smctl
complete -F _smd smd
