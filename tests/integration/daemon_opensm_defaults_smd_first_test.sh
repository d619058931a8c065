#!/usr/bin/env bash
# smd and OpenSM on their default policies, smd first: exactly one master (opensm_defaults_body.sh).
FIRST=smd
. "$(dirname "$0")/opensm_defaults_body.sh"
