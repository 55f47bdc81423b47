package main

import (
	"fmt"
	"io"
	"time"
)

// progress is a status line on a terminal's standard error, rewritten in
// place at most every few hundred milliseconds, so that a long run shows
// that it is moving and where it is. A nil *progress shows nothing, which is
// what a command gets when standard error is not a terminal.
type progress struct {
	w     io.Writer
	every time.Duration
	next  time.Time // no update before this time
	shown bool      // a status line is on the screen
	now   func() time.Time
}

func newProgress(w io.Writer) *progress {
	p := &progress{w: w, every: 250 * time.Millisecond, now: time.Now}
	p.next = p.now().Add(p.every) // runs shorter than this show nothing
	return p
}

// show replaces the status line, unless the last update is too recent.
func (p *progress) show(format string, args ...any) {
	if p == nil {
		return
	}
	now := p.now()
	if now.Before(p.next) {
		return
	}
	p.next = now.Add(p.every)
	// \r returns to the start of the line, ESC[K erases what a longer
	// earlier status left on it.
	fmt.Fprintf(p.w, "\r"+format+"\x1b[K", args...)
	p.shown = true
}

// clear erases the status line, before other output to the terminal.
func (p *progress) clear() {
	if p == nil || !p.shown {
		return
	}
	fmt.Fprint(p.w, "\r\x1b[K")
	p.shown = false
}
