#!/usr/bin/env bash
# Completes a command line in a real shell with veritrail's generated completion script, as <Tab> would.
#
#   complete_in.sh bash|zsh|fish VERITRAIL_BINARY WORKDIR 'veritrail import Ev'
#
# bash: the script's function called with COMP_WORDS, prints the candidates one a line. zsh and fish: the line
# typed in an interactive shell in a pseudo-terminal (zsh's zpty, python's pty), <Tab> pressed, and the line as
# completed printed. The end-to-end tests (CompletionTests) run it.
set -euo pipefail
shell=$1 binary=$2 workdir=$3 line=$4
scripts=$(mktemp -d)
trap 'rm -rf "$scripts"' EXIT
export PATH="$(dirname "$binary"):$PATH"
cd "$workdir"
case $shell in
bash)
  "$binary" --generate-completion-script bash > "$scripts/veritrail.bash"
  LINE=$line bash -c '
    source "$1"
    read -ra COMP_WORDS <<< "$LINE"
    [[ $LINE == *" " ]] && COMP_WORDS+=("")
    COMP_CWORD=$((${#COMP_WORDS[@]} - 1)); COMP_LINE=$LINE; COMP_POINT=${#LINE}; COMPREPLY=()
    _veritrail veritrail "${COMP_WORDS[-1]}" "${COMP_WORDS[-2]}"
    printf "%s\n" "${COMPREPLY[@]}"' _ "$scripts/veritrail.bash" ;;
fish)
  # An interactive fish in a pseudo-terminal: the script's custom completions read the command line, which a
  # non-interactive `complete -C` does not have.
  "$binary" --generate-completion-script fish > "$scripts/veritrail.fish"
  python3 - "$scripts/veritrail.fish" "$line" <<'PY'
import fcntl, os, pty, re, select, struct, subprocess, sys, termios, time
script, line = sys.argv[1], sys.argv[2]
master, slave = pty.openpty()
fcntl.ioctl(slave, termios.TIOCSWINSZ, struct.pack("HHHH", 40, 200, 0, 0))
fish = subprocess.Popen(["fish", "-i", "--no-config", "-C", "source %s; function fish_prompt; echo '> '; end" % script],
                        stdin=slave, stdout=slave, stderr=slave, start_new_session=True,
                        preexec_fn=lambda: fcntl.ioctl(0, termios.TIOCSCTTY, 0))
os.close(slave)
out = b""
def pump(seconds):
    global out
    end = time.time() + seconds
    while time.time() < end:
        ready, _, _ = select.select([master], [], [], 0.1)
        if ready:
            try:
                out += os.read(master, 65536)
            except OSError:
                return
pump(1)
os.write(master, line.encode() + b"\t"); pump(1.2)
os.write(master, b"\x01echo COMPLETED: \r"); pump(0.8)
os.write(master, b"exit\r"); pump(0.5)
fish.kill()
text = re.sub(rb"\x1b\[[0-9;?]*[a-zA-Z]|\x1b\][^\x07]*\x07|\x1b[=>()][0-9A-B]?", b"", out).decode(errors="replace")
done = [l for l in text.replace("\r", "\n").split("\n") if l.startswith("COMPLETED: ")]
print(done[-1][len("COMPLETED: "):].rstrip() if done else "")
PY
  ;;
zsh)
  "$binary" --generate-completion-script zsh > "$scripts/_veritrail"
  zsh -f -c '
    zmodload zsh/zpty
    zpty z zsh -f -i
    zpty -w z "PS1=\"> \"; fpath=($1 \$fpath); autoload -U compinit; compinit -u -D"
    sleep 0.5
    zpty -w -n z "$2"$'"'"'\t'"'"'
    sleep 1
    zpty -w -n z $'"'"'\x01echo COMPLETED: \n'"'"'
    sleep 0.5
    out=""
    while zpty -rt z more; do out+=$more; done
    zpty -d z
    print -r -- "$out" | tr -d "\r" | grep -a "^COMPLETED: " | tail -1 | sed "s/^COMPLETED: //"' _ "$scripts" "$line" ;;
esac
