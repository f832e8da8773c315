// Command tileverify checks a running `veritrail serve` as a standard tlog client does, with the Go team's
// golang.org/x/mod/sumdb/tlog and note packages: it reads the signed checkpoint (/checkpoint, checked
// against the verifier key), then proves, from the public hash tiles alone (tlog.TileHashReader, which
// checks every tile it reads against the checkpoint's root), that each event of the entry bundles is in
// the tree (tlog.ProveRecord, CheckRecord), and that the tree extends the tree of every older size it is
// given (tlog.ProveTree, CheckTree) — without trusting the server's proof routes.
//
// Build it with Debian's golang-go and golang-golang-x-mod-dev:
//
//	GOPATH=/usr/share/gocode GO111MODULE=off go build -o tileverify ./scripts/tileverify
//
// Usage: tileverify URL ADMIN_TOKEN [OLD_SIZE...]
//
// It prints "ok N" (the tree size checked) and exits 0, or the reason and exits 1.
package main

import (
	"bytes"
	"encoding/base64"
	"errors"
	"fmt"
	"io"
	"net/http"
	"os"
	"strconv"
	"strings"

	"golang.org/x/mod/sumdb/note"
	"golang.org/x/mod/sumdb/tlog"
)

type server struct {
	url, token string
}

func (s server) get(path string, auth bool) ([]byte, error) {
	req, err := http.NewRequest("GET", s.url+path, nil)
	if err != nil {
		return nil, err
	}
	if auth {
		req.Header.Set("Authorization", "Bearer "+s.token)
	}
	resp, err := http.DefaultClient.Do(req)
	if err != nil {
		return nil, err
	}
	defer resp.Body.Close()
	body, err := io.ReadAll(resp.Body)
	if err != nil {
		return nil, err
	}
	if resp.StatusCode != 200 {
		return nil, fmt.Errorf("GET %s: %s: %s", path, resp.Status, body)
	}
	return body, nil
}

// tiles reads hash tiles over HTTP: Go names them tile/H/L/N, tlog-tiles without the height.
type tiles struct{ s server }

func (t tiles) Height() int { return 8 }

func (t tiles) ReadTiles(ts []tlog.Tile) ([][]byte, error) {
	out := make([][]byte, len(ts))
	for i, tile := range ts {
		path := "/tile/" + strings.TrimPrefix(tile.Path(), "tile/8/")
		data, err := t.s.get(path, false)
		if err != nil {
			return nil, err
		}
		out[i] = data
	}
	return out, nil
}

func (t tiles) SaveTiles([]tlog.Tile, [][]byte) {}

// checkpoint opens a signed note with the key and reads its size and root.
func checkpoint(text []byte, verifier note.Verifier) (int64, tlog.Hash, error) {
	n, err := note.Open(text, note.VerifierList(verifier))
	if err != nil {
		return 0, tlog.Hash{}, err
	}
	lines := strings.Split(n.Text, "\n")
	if len(lines) != 4 || lines[3] != "" {
		return 0, tlog.Hash{}, errors.New("a checkpoint body is three lines")
	}
	size, err := strconv.ParseInt(lines[1], 10, 64)
	if err != nil {
		return 0, tlog.Hash{}, err
	}
	raw, err := base64.StdEncoding.DecodeString(lines[2])
	if err != nil || len(raw) != 32 {
		return 0, tlog.Hash{}, errors.New("the root is not 32 bytes of base64")
	}
	var root tlog.Hash
	copy(root[:], raw)
	return size, root, nil
}

func run(args []string) error {
	if len(args) < 2 {
		return errors.New("usage: tileverify URL ADMIN_TOKEN [OLD_SIZE...]")
	}
	s := server{url: strings.TrimSuffix(args[0], "/"), token: args[1]}
	key, err := s.get("/v1/log/key", false)
	if err != nil {
		return err
	}
	verifier, err := note.NewVerifier(strings.TrimSpace(string(key)))
	if err != nil {
		return err
	}
	text, err := s.get("/checkpoint", false)
	if err != nil {
		return err
	}
	size, root, err := checkpoint(text, verifier)
	if err != nil {
		return err
	}
	reader := tlog.TileHashReader(tlog.Tree{N: size, Hash: root}, tiles{s})
	// Every event, from the entry bundles (admins), is proved in the tree from the tiles.
	for bundle := int64(0); bundle*256 < size; bundle++ {
		width := size - bundle*256
		path := "/tile/entries/" + strings.TrimPrefix(tlog.Tile{H: 8, L: 0, N: bundle, W: 256}.Path(), "tile/8/0/")
		if width < 256 {
			path = "/tile/entries/" + strings.TrimPrefix(tlog.Tile{H: 8, L: 0, N: bundle, W: int(width)}.Path(), "tile/8/0/")
		} else {
			width = 256
		}
		data, err := s.get(path, true)
		if err != nil {
			return err
		}
		for i := int64(0); i < width; i++ {
			if len(data) < 2 {
				return fmt.Errorf("entry bundle %d ends early", bundle)
			}
			length := int(data[0])<<8 | int(data[1])
			if len(data) < 2+length {
				return fmt.Errorf("entry bundle %d ends early", bundle)
			}
			entry := data[2 : 2+length]
			data = data[2+length:]
			n := bundle*256 + i
			proof, err := tlog.ProveRecord(size, n, reader)
			if err != nil {
				return fmt.Errorf("record %d: %v", n, err)
			}
			if err := tlog.CheckRecord(proof, size, root, n, tlog.RecordHash(entry)); err != nil {
				return fmt.Errorf("record %d: %v", n, err)
			}
		}
		if len(bytes.TrimSpace(data)) != 0 {
			return fmt.Errorf("entry bundle %d has bytes after its %d entries", bundle, width)
		}
	}
	// The tree extends each older tree, whose root comes from its own signed checkpoint.
	for _, arg := range args[2:] {
		old, err := strconv.ParseInt(arg, 10, 64)
		if err != nil {
			return err
		}
		oldText, err := s.get("/v1/log/checkpoint?size="+arg, false)
		if err != nil {
			return err
		}
		oldSize, oldRoot, err := checkpoint(oldText, verifier)
		if err != nil || oldSize != old {
			return fmt.Errorf("checkpoint of size %d: %v", old, err)
		}
		proof, err := tlog.ProveTree(size, old, reader)
		if err != nil {
			return fmt.Errorf("consistency %d→%d: %v", old, size, err)
		}
		if err := tlog.CheckTree(proof, size, root, old, oldRoot); err != nil {
			return fmt.Errorf("consistency %d→%d: %v", old, size, err)
		}
	}
	fmt.Println("ok", size)
	return nil
}

func main() {
	if err := run(os.Args[1:]); err != nil {
		fmt.Println(err)
		os.Exit(1)
	}
}
