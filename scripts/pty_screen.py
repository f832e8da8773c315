#!/usr/bin/env python3
"""Runs a command in a pseudo-terminal of a given size and prints, as JSON, what a person would see.

    pty_screen.py [--cols N] [--rows N] [--input TEXT] [--stdout-pipe] -- COMMAND ARGS...

The command's stdin, stdout and stderr are the terminal (with --stdout-pipe, stdout is a pipe and only stderr
is the terminal, as in `veritrail import F | cat`). The output is played on a small VT100 screen (printable
characters with their display width, auto-wrap at the last column, CR, LF, BS, TAB, erase in line, colours
ignored), so that a progress bar that is never cleared or a row wider than the terminal shows as it would.
Prints {"exit": CODE, "rows": [screen rows, trailing blanks cut], "raw": OUTPUT, "stdout": PIPED STDOUT}.
The end-to-end tests (Tests/VeritrailTests) drive the binary through it.
"""
import fcntl, json, os, pty, select, struct, subprocess, sys, termios, unicodedata


def width(ch):
    if unicodedata.combining(ch) or ch in "\u200b\u200d\ufe0f":
        return 0
    return 2 if unicodedata.east_asian_width(ch) in ("W", "F") else 1


class Screen:
    def __init__(self, cols):
        self.cols, self.rows, self.row, self.col, self.pending_wrap = cols, [[]], 0, 0, False

    def line(self):
        while len(self.rows) <= self.row:
            self.rows.append([])
        r = self.rows[self.row]
        while len(r) < self.cols:
            r.append(" ")
        return r

    def put(self, ch):
        w = width(ch)
        if w == 0:
            if self.col > 0:
                r = self.line(); r[self.col - 1] += ch
            return
        if self.pending_wrap or self.col + w > self.cols:
            self.row += 1; self.col = 0; self.pending_wrap = False
        r = self.line()
        r[self.col] = ch
        if w == 2 and self.col + 1 < self.cols:
            r[self.col + 1] = ""
        self.col += w
        if self.col >= self.cols:
            self.col = self.cols - 1; self.pending_wrap = True

    def play(self, text):
        i = 0
        while i < len(text):
            ch = text[i]
            if ch == "\x1b":
                j = i + 1
                if j < len(text) and text[j] == "[":
                    j += 1
                    while j < len(text) and not ("@" <= text[j] <= "~"):
                        j += 1
                    final, params = (text[j] if j < len(text) else ""), text[i + 2:j]
                    if final == "K":
                        r = self.line()
                        start = 0 if params == "2" else self.col
                        end = self.col + 1 if params == "1" else self.cols
                        for k in range(start, min(end, self.cols)):
                            r[k] = " "
                        self.pending_wrap = False
                    elif final == "J" and params == "2":
                        self.rows, self.row, self.col = [[]], 0, 0
                    i = j + 1
                else:
                    i = j + 1
                continue
            if ch == "\r":
                self.col = 0; self.pending_wrap = False
            elif ch == "\n":
                self.row += 1; self.pending_wrap = False; self.line()
            elif ch == "\b":
                self.col = max(0, self.col - 1); self.pending_wrap = False
            elif ch == "\t":
                self.col = min(self.cols - 1, (self.col // 8 + 1) * 8)
            elif ch >= " ":
                self.put(ch)
            i += 1

    def text_rows(self):
        out = ["".join(r).rstrip() for r in self.rows]
        while out and not out[-1]:
            out.pop()
        return out


def main():
    args = sys.argv[1:]
    cols, rows, stdin_text, stdout_pipe = 80, 50, None, False
    while args and args[0] != "--":
        if args[0] == "--cols": cols = int(args[1]); args = args[2:]
        elif args[0] == "--rows": rows = int(args[1]); args = args[2:]
        elif args[0] == "--input": stdin_text = args[1]; args = args[2:]
        elif args[0] == "--stdout-pipe": stdout_pipe = True; args = args[1:]
        else: sys.exit("unknown option " + args[0])
    command = args[1:]
    master, slave = pty.openpty()
    fcntl.ioctl(slave, termios.TIOCSWINSZ, struct.pack("HHHH", rows, cols, 0, 0))
    env = dict(os.environ, TERM=os.environ.get("TERM_FOR_PTY", "xterm-256color"), COLUMNS=str(cols), LINES=str(rows))
    proc = subprocess.Popen(command, stdin=slave, stdout=subprocess.PIPE if stdout_pipe else slave, stderr=slave,
                            env=env, start_new_session=True,
                            preexec_fn=lambda: fcntl.ioctl(0, termios.TIOCSCTTY, 0))
    os.close(slave)
    if stdin_text is not None:
        os.write(master, stdin_text.encode())
    raw, piped = b"", b""
    streams = [master] + ([proc.stdout.fileno()] if stdout_pipe else [])
    while streams:
        ready, _, _ = select.select(streams, [], [], 30)
        if not ready:
            proc.kill(); break
        for fd in ready:
            try:
                chunk = os.read(fd, 65536)
            except OSError:
                chunk = b""
            if not chunk:
                streams.remove(fd); continue
            if fd == master: raw += chunk
            else: piped += chunk
    code = proc.wait()
    screen = Screen(cols)
    text = raw.decode("utf-8", "replace")
    screen.play(text)
    json.dump({"exit": code, "rows": screen.text_rows(), "raw": text, "stdout": piped.decode("utf-8", "replace")},
              sys.stdout, ensure_ascii=False)


if __name__ == "__main__":
    main()
