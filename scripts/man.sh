#!/usr/bin/env bash
# Writes veritrail(1), a man page made from the --help of every command (troff on stdout), for `make install`.
# It needs only the built binary: swift-argument-parser's generate-manual plugin does the same from the package,
# but builds a tool and the product again to do it.
set -euo pipefail
veritrail=${1:-.build/release/veritrail}
version=$("$veritrail" --version)

# The command paths: every word under SUBCOMMANDS, recursively.
commands() {
  local path=$1
  COLUMNS=200 "$veritrail" $path --help 2>/dev/null | awk '/^SUBCOMMANDS:/{s=1; next} s && /^  [a-z]/{print $1} s && /^$/{s=0}' |
    while read -r sub; do
      [ "$sub" = help ] && continue
      echo "$path $sub"
      commands "$path $sub"
    done
}

# Troff-safe text: backslashes doubled, a leading dot or quote escaped.
escape() { sed -e 's/\\/\\e/g' -e 's/^\./\\\&./' -e "s/^'/\\\\\&'/"; }

printf '.TH VERITRAIL 1 "" "%s" "User Commands"\n' "$version"
printf '.SH NAME\nveritrail \\- an event-sourced log of scans, customers, passcodes and goals\n'
printf '.SH SYNOPSIS\n.B veritrail\n.I command\n[options]\n'
printf '.SH DESCRIPTION\n.nf\n'
COLUMNS=80 "$veritrail" --help | escape
printf '.fi\n.SH COMMANDS\n'
commands "" | sed 's/^ //' | while read -r path; do
  printf '.SS "veritrail %s"\n.nf\n' "$path"
  COLUMNS=80 "$veritrail" $path --help | escape
  printf '.fi\n'
done
printf '.SH EXIT STATUS\n0 done, 64 usage, 65 input refused, 74 store failure, 77 not allowed.\n'
printf '.SH ENVIRONMENT\nVERITRAIL_STORE, VERITRAIL_USER, VERITRAIL_NOW, NO_COLOR.\n'
