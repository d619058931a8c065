#!/usr/bin/env bash
# smd and OpenSM on their default policies, OpenSM first: exactly one master (opensm_defaults_body.sh).
FIRST=opensm
. "$(dirname "$0")/opensm_defaults_body.sh"
