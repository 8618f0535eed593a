package main

import (
	"errors"
	"flag"
	"fmt"
	"io"
	"strings"
)

// helpText is a command's help, printed on stdout by `boardd NAME -h`
// (or --help, or `boardd help NAME`) with exit status 0. A usage error
// prints the usage lines and a pointer to the help on stderr, exit status 2.
type helpText struct {
	name     string      // the command: "run"
	usage    []string    // the command lines after "boardd ": "run [flags]"
	about    string      // what it does, in paragraphs separated by blank lines
	groups   []flagGroup // its flags, grouped; a flag in no group is listed last
	examples []string    // command lines, each with an optional "# comment"
	exit     string      // what the exit statuses mean, if more than 0 and 2
}

// flagGroup is a titled group of flags in a command's help.
type flagGroup struct {
	title string
	names []string
}

// helpColumns is the width help text is wrapped at.
const helpColumns = 80

// summary returns the command's one-line description, as `boardd -h` lists
// it.
func summary(name string) string {
	for _, c := range commands() {
		if c.name == name {
			return c.summary
		}
	}
	return ""
}

// write prints the whole help; fs holds the command's flags (nil: none).
func (h *helpText) write(w io.Writer, fs *flag.FlagSet) {
	wrap(w, "", "    ", fmt.Sprintf("boardd %s: %s", h.name, summary(h.name)))
	fmt.Fprintln(w)
	for i, u := range h.usage {
		prefix := "usage: "
		if i > 0 {
			prefix = "       "
		}
		fmt.Fprintf(w, "%sboardd %s\n", prefix, u)
	}
	if h.about != "" {
		for _, para := range strings.Split(h.about, "\n\n") {
			fmt.Fprintln(w)
			wrap(w, "", "", para)
		}
	}
	if fs != nil {
		listed := map[string]bool{}
		for _, g := range h.groups {
			var fl []*flag.Flag
			for _, name := range g.names {
				if f := fs.Lookup(name); f != nil && !listed[name] {
					fl = append(fl, f)
					listed[name] = true
				}
			}
			writeFlags(w, g.title, fl)
		}
		var rest []*flag.Flag
		fs.VisitAll(func(f *flag.Flag) {
			if !listed[f.Name] {
				rest = append(rest, f)
			}
		})
		writeFlags(w, "Other flags", rest)
	}
	if len(h.examples) > 0 {
		fmt.Fprintln(w, "\nExamples:")
		for _, e := range h.examples {
			fmt.Fprintf(w, "  %s\n", e)
		}
	}
	if h.exit != "" {
		fmt.Fprintln(w)
		wrap(w, "", "", h.exit)
	}
}

// writeFlags prints one group of flags as PrintDefaults would, with two
// dashes, the usage wrapped under each flag.
func writeFlags(w io.Writer, title string, fl []*flag.Flag) {
	if len(fl) == 0 {
		return
	}
	fmt.Fprintf(w, "\n%s:\n", title)
	for _, f := range fl {
		name, usage := flag.UnquoteUsage(f)
		line := "  --" + f.Name
		if name != "" {
			line += " " + name
		}
		fmt.Fprintln(w, line)
		if f.DefValue != "" && f.DefValue != "false" && f.DefValue != "0" && f.DefValue != "0s" {
			usage += fmt.Sprintf(" (default %s)", f.DefValue)
		}
		wrap(w, "      ", "      ", usage)
	}
}

// wrap prints text wrapped at helpColumns, the first line after first and
// the others after rest.
func wrap(w io.Writer, first, rest, text string) {
	line, empty := first, true
	for _, word := range strings.Fields(text) {
		if !empty && len(line)+1+len(word) > helpColumns {
			fmt.Fprintln(w, line)
			line, empty = rest, true
		}
		if !empty {
			line += " "
		}
		line += word
		empty = false
	}
	fmt.Fprintln(w, line)
}

// flags returns an empty flag set for the command that prints nothing of
// its own: parse says what is wrong, and help prints the flags.
func (h *helpText) flags() *flag.FlagSet {
	fs := flag.NewFlagSet(h.name, flag.ContinueOnError)
	fs.SetOutput(io.Discard)
	fs.Usage = func() {}
	return fs
}

// parse parses args into fs. It returns ok when the command should go on;
// otherwise the exit status: 0 after printing the help (-h, --help) on
// stdout, 2 after a usage error on stderr.
func (h *helpText) parse(env *environment, fs *flag.FlagSet, args []string) (code int, ok bool) {
	err := fs.Parse(args)
	switch {
	case err == nil:
		return 0, true
	case errors.Is(err, flag.ErrHelp):
		h.write(env.stdout, fs)
		return 0, false
	}
	return h.fail(env, "%v", err), false
}

// fail reports a usage error on stderr and returns exit status 2.
func (h *helpText) fail(env *environment, format string, args ...any) int {
	fmt.Fprintf(env.stderr, "boardd %s: %s\n", h.name, fmt.Sprintf(format, args...))
	for i, u := range h.usage {
		prefix := "usage: "
		if i > 0 {
			prefix = "       "
		}
		fmt.Fprintf(env.stderr, "%sboardd %s\n", prefix, u)
	}
	fmt.Fprintf(env.stderr, "Run 'boardd %s -h' for help.\n", h.name)
	return 2
}

// noArgs fails unless fs took every argument.
func (h *helpText) noArgs(env *environment, fs *flag.FlagSet) (code int, ok bool) {
	if fs.NArg() > 0 {
		return h.fail(env, "unexpected argument %q", fs.Arg(0)), false
	}
	return 0, true
}

// isHelp reports whether arg asks for help.
func isHelp(arg string) bool {
	return arg == "-h" || arg == "-help" || arg == "--help" || arg == "help"
}
