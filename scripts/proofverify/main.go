// Command proofverify checks Veritrail's checkpoints and proofs with the Go team's own packages, which
// nobody on the Veritrail team wrote: golang.org/x/mod/sumdb/note (signed notes, Ed25519) and
// golang.org/x/mod/sumdb/tlog (RFC 6962 trees: CheckRecord for inclusion, CheckTree for consistency).
//
// Build it with Debian's golang-go and golang-golang-x-mod-dev:
//
//	GOPATH=/usr/share/gocode GO111MODULE=off go build -o proofverify ./scripts/proofverify
//
// Usage (VKEY is the output of `veritrail log key`; every other argument is a file):
//
//	proofverify checkpoint VKEY CHECKPOINT          # `log checkpoint`: the signature holds
//	proofverify inclusion VKEY PROOF LEAF           # `log prove`: LEAF (the event's canonical form) is in the tree
//	proofverify consistency VKEY OLDCHECKPOINT BODY # `log consistency`: the tree of BODY extends OLDCHECKPOINT's
//
// It prints "ok" and exits 0 when the check holds, prints the reason and exits 1 when it does not, and
// exits 2 on bad usage.
package main

import (
	"bytes"
	"encoding/base64"
	"errors"
	"fmt"
	"os"
	"strconv"
	"strings"

	"golang.org/x/mod/sumdb/note"
	"golang.org/x/mod/sumdb/tlog"
)

type checkpoint struct {
	origin string
	size   int64
	root   tlog.Hash
}

// openCheckpoint verifies a signed note under vkey and parses its C2SP tlog-checkpoint text.
func openCheckpoint(vkey string, signed []byte) (checkpoint, error) {
	verifier, err := note.NewVerifier(vkey)
	if err != nil {
		return checkpoint{}, fmt.Errorf("bad verifier key: %v", err)
	}
	n, err := note.Open(signed, note.VerifierList(verifier))
	if err != nil {
		return checkpoint{}, fmt.Errorf("checkpoint signature: %v", err)
	}
	lines := strings.Split(n.Text, "\n")
	if len(lines) != 4 || lines[3] != "" {
		return checkpoint{}, errors.New("checkpoint text is not three lines")
	}
	if lines[0] != verifier.Name() {
		return checkpoint{}, fmt.Errorf("checkpoint origin %q is not the key's name %q", lines[0], verifier.Name())
	}
	size, err := strconv.ParseInt(lines[1], 10, 64)
	if err != nil || size < 0 || strconv.FormatInt(size, 10) != lines[1] {
		return checkpoint{}, errors.New("checkpoint size is not a decimal number")
	}
	root, err := parseHash(lines[2])
	if err != nil {
		return checkpoint{}, fmt.Errorf("checkpoint root: %v", err)
	}
	return checkpoint{lines[0], size, root}, nil
}

func parseHash(s string) (tlog.Hash, error) {
	var h tlog.Hash
	b, err := base64.StdEncoding.Strict().DecodeString(s)
	if err != nil || len(b) != len(h) {
		return h, fmt.Errorf("%q is not a base64 SHA-256 hash", s)
	}
	copy(h[:], b)
	return h, nil
}

// splitBody splits a proof into its header lines, its hashes, and the signed checkpoint after the blank line.
func splitBody(body []byte, header int) ([]string, []tlog.Hash, []byte, error) {
	i := bytes.Index(body, []byte("\n\n"))
	if i < 0 {
		return nil, nil, nil, errors.New("no blank line before the checkpoint")
	}
	lines := strings.Split(string(body[:i]), "\n")
	if len(lines) < header {
		return nil, nil, nil, errors.New("missing header lines")
	}
	var hashes []tlog.Hash
	for _, l := range lines[header:] {
		h, err := parseHash(l)
		if err != nil {
			return nil, nil, nil, err
		}
		hashes = append(hashes, h)
	}
	return lines[:header], hashes, body[i+2:], nil
}

func inclusion(vkey string, proof, leaf []byte) error {
	header, path, signed, err := splitBody(proof, 2)
	if err != nil {
		return err
	}
	if header[0] != "c2sp.org/tlog-proof@v1" || !strings.HasPrefix(header[1], "index ") {
		return errors.New("not a c2sp.org/tlog-proof@v1 with an index line")
	}
	index, err := strconv.ParseInt(strings.TrimPrefix(header[1], "index "), 10, 64)
	if err != nil {
		return errors.New("bad index line")
	}
	cp, err := openCheckpoint(vkey, signed)
	if err != nil {
		return err
	}
	if index < 0 || index >= cp.size {
		return fmt.Errorf("index %d outside a tree of %d", index, cp.size)
	}
	return tlog.CheckRecord(tlog.RecordProof(path), cp.size, cp.root, index, tlog.RecordHash(leaf))
}

func consistency(vkey string, oldSigned, body []byte) error {
	old, err := openCheckpoint(vkey, oldSigned)
	if err != nil {
		return fmt.Errorf("old %v", err)
	}
	header, path, signed, err := splitBody(body, 1)
	if err != nil {
		return err
	}
	if header[0] != "old "+strconv.FormatInt(old.size, 10) {
		return fmt.Errorf("the body's %q does not name the old checkpoint's size %d", header[0], old.size)
	}
	cp, err := openCheckpoint(vkey, signed)
	if err != nil {
		return err
	}
	if old.size > cp.size {
		return errors.New("the old tree is larger than the new")
	}
	if old.size == 0 || old.size == cp.size {
		// tlog.CheckTree wants 1 ≤ old < new; RFC 6962's proof is empty here and the roots say it all.
		if len(path) != 0 {
			return errors.New("a proof from an empty or equal tree must be empty")
		}
		if old.size == cp.size && old.root != cp.root {
			return errors.New("two trees of one size with different roots")
		}
		return nil
	}
	return tlog.CheckTree(tlog.TreeProof(path), cp.size, cp.root, old.size, old.root)
}

func main() {
	if len(os.Args) < 4 {
		fmt.Fprintln(os.Stderr, "usage: proofverify checkpoint|inclusion|consistency VKEY FILE [FILE]")
		os.Exit(2)
	}
	read := func(path string) []byte {
		b, err := os.ReadFile(path)
		if err != nil {
			fmt.Fprintln(os.Stderr, err)
			os.Exit(2)
		}
		return b
	}
	vkey := os.Args[2]
	var err error
	switch {
	case os.Args[1] == "checkpoint" && len(os.Args) == 4:
		_, err = openCheckpoint(vkey, read(os.Args[3]))
	case os.Args[1] == "inclusion" && len(os.Args) == 5:
		err = inclusion(vkey, read(os.Args[3]), read(os.Args[4]))
	case os.Args[1] == "consistency" && len(os.Args) == 5:
		err = consistency(vkey, read(os.Args[3]), read(os.Args[4]))
	default:
		fmt.Fprintln(os.Stderr, "usage: proofverify checkpoint|inclusion|consistency VKEY FILE [FILE]")
		os.Exit(2)
	}
	if err != nil {
		fmt.Println("refused:", err)
		os.Exit(1)
	}
	fmt.Println("ok")
}
