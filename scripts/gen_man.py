#!/usr/bin/env python3
"""Writes the man pages of `veritrail`, one per command, from the binary's own description of its command line.

    gen_man.py VERITRAIL_BINARY OUTPUT_DIRECTORY

`make install` runs it on the release binary. It replaces swift-argument-parser's generate-manual plugin, which
dropped every non-ASCII character, wrote only ">0" under EXIT STATUS, and rebuilt the whole package in release
mode with the plugin's own build parameters (so that the next `swift build -c release` rebuilt it all again).
Each page has NAME, SYNOPSIS, DESCRIPTION, OPTIONS (or COMMANDS), EXIT STATUS with the codes of cli.md §6,
ENVIRONMENT and SEE ALSO. Non-ASCII characters are written as groff's \\[uXXXX], which man shows whatever the
locale (in the characters themselves on a UTF-8 terminal).
"""
import json, os, subprocess, sys

EXIT_STATUS = [
    ("0", "done."),
    ("64", "the command line is wrong (usage); checked before anything else, so it wins over 65."),
    ("65", "the input is refused: a rule of the event catalogue, a bad file, an unknown or deleted user (as a viewer "
           "too) or scan, log verify finding a broken chain."),
    ("74", "the store can not be opened, read or written (a store that does not exist, for every command but init "
           "and import)."),
    ("77", "not allowed: wrong role, wrong passcode, locked out, not unlocked."),
]

ENVIRONMENT = [
    ("VERITRAIL_STORE", "The store directory when --store is not given (default ./.veritrail)."),
    ("VERITRAIL_USER", "Who is acting or viewing when --as is not given."),
    ("VERITRAIL_NOW", "The clock when --now is not given, and the time stamped on the events a command writes (for "
                      "demos and tests). A clock before events of the log hides them; a human answer says how many."),
    ("NO_COLOR", "Set to a non-empty value, no colour (no-color.org); --color always overrides it."),
    ("PAGER", "The pager of long human output on a terminal (default less -FRX); empty or cat prints straight."),
    ("COLUMNS", "The width of help and tables when it can not be read from the terminal."),
    ("TMPDIR", "Where input read from a pipe is kept while it is read (default /tmp)."),
]


def esc(text):
    """Text for a roff line: backslashes and dashes escaped, non-ASCII as \\[uXXXX]."""
    out = []
    for ch in text:
        if ch == "\\":
            out.append("\\e")
        elif ch == "-":
            out.append("\\-")
        elif ord(ch) > 126:
            out.append("\\[u%04X]" % ord(ch))
        else:
            out.append(ch)
    line = "".join(out)
    return "\\&" + line if line[:1] in (".", "'") else line


def paragraphs(text):
    """Roff for a discussion: a paragraph per blank-line block, each of its lines kept a line (.br), indented
    lines (examples) as they are (.nf)."""
    out = []
    for block in text.split("\n\n"):
        out.append(".PP")
        filled = True
        first = True
        for line in block.split("\n"):
            if line.startswith("  "):
                if filled:
                    out.append(".nf")
                    filled = False
                out.append(esc(line))
            else:
                if not filled:
                    out.append(".fi")
                    filled = True
                elif not first:
                    out.append(".br")
                out.append(esc(line))
            first = False
        if not filled:
            out.append(".fi")
    return out


def option_names(argument):
    names = []
    for n in argument.get("names", []):
        names.append(("-" if n["kind"] == "short" else "--") + n["name"])
    return names


def synopsis(path, command):
    parts = []
    for a in command.get("arguments", []):
        if not a.get("shouldDisplay", True) or a.get("valueName") in ("help", "version"):
            continue
        if a["kind"] == "positional":
            item = "<%s>" % a["valueName"] + ("..." if a.get("isRepeating") else "")
        else:
            name = option_names(a)[0] if option_names(a) else ""
            item = name + (" <%s>" % a["valueName"] if a["kind"] == "option" else "")
        parts.append(item if not a.get("isOptional") else "[%s]" % item)
    if command.get("subcommands"):
        parts.append("<subcommand>")
    return " ".join(path) + (" " + " ".join(parts) if parts else "")


def page(path, command):
    name = " ".join(path)
    lines = ['.TH "%s" "1" "" "veritrail" "Veritrail Manual"' % esc("-".join(path).upper()),
             ".SH NAME", "%s \\- %s" % (esc(name), esc(command.get("abstract", ""))),
             ".SH SYNOPSIS", esc(synopsis(path, command)), ".SH DESCRIPTION", esc(command.get("abstract", ""))]
    if command.get("discussion"):
        lines += paragraphs(command["discussion"])
    subcommands = [s for s in command.get("subcommands", []) if s["commandName"] != "help"]
    if subcommands:
        lines.append(".SH COMMANDS")
        for s in subcommands:
            lines += [".TP", "\\fB%s\\fR" % esc(s["commandName"]), esc(s.get("abstract", "")),
                      "See \\fB%s\\fR(1)." % esc("-".join(path + [s["commandName"]]))]
    arguments = [a for a in command.get("arguments", []) if a.get("shouldDisplay", True)]
    if arguments:
        lines.append(".SH OPTIONS")
        for a in arguments:
            if a["kind"] == "positional":
                head = "\\fI<%s>\\fR" % esc(a["valueName"])
            else:
                head = ", ".join("\\fB%s\\fR" % esc(n) for n in option_names(a))
                if a["kind"] == "option":
                    head += " \\fI<%s>\\fR" % esc(a["valueName"])
            text = a.get("abstract", "")
            if a.get("defaultValue") and "default" not in text:
                text += " (default: %s)" % a["defaultValue"]
            lines += [".TP", head, esc(text)]
    lines.append(".SH EXIT STATUS")
    for code, meaning in EXIT_STATUS:
        lines += [".TP", "\\fB%s\\fR" % code, esc(meaning)]
    lines.append(".SH ENVIRONMENT")
    for var, meaning in ENVIRONMENT:
        lines += [".TP", "\\fB%s\\fR" % var, esc(meaning)]
    lines += [".SH SEE ALSO"]
    related = ["veritrail"] if len(path) > 1 else []
    related += ["-".join(path + [s["commandName"]]) for s in subcommands]
    lines.append(", ".join("\\fB%s\\fR(1)" % esc(r) for r in related) if related else "\\fBveritrail help\\fR COMMAND")
    return "\n".join(lines) + "\n"


def walk(path, command, out):
    out.append((path, command))
    for s in command.get("subcommands", []):
        if s["commandName"] != "help":
            walk(path + [s["commandName"]], s, out)


def main():
    binary, directory = sys.argv[1], sys.argv[2]
    dump = json.loads(subprocess.run([binary, "--experimental-dump-help"], check=True, capture_output=True).stdout)
    os.makedirs(directory, exist_ok=True)
    commands = []
    walk(["veritrail"], dump["command"], commands)
    for path, command in commands:
        with open(os.path.join(directory, ".".join(path) + ".1"), "w", encoding="utf-8") as f:
            f.write(page(path, command))
    print("wrote %d man pages to %s" % (len(commands), directory))


if __name__ == "__main__":
    main()
