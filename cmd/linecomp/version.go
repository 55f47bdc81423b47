package main

import (
	"fmt"
	"runtime"
	"runtime/debug"
	"strings"

	"github.com/linecomp/linecomp/internal/cpu"
)

var versionCommand = &command{
	name:    "version",
	args:    "",
	summary: "the module version, Go version, platform and SIMD kernel level",
	run:     runVersion,
}

const versionHelp = `
Prints the module version and commit this binary was built from, the Go
version, the platform, the build tags and the SIMD kernel level the codecs
run at on this CPU.`

func runVersion(e *env, c *command, args []string) error {
	fs := newFlags(e, c, versionHelp)
	rest, err := fs.parse(args)
	if err != nil {
		return err
	}
	if err := noArgs("version", rest); err != nil {
		return err
	}
	module, vcs, tags := "github.com/linecomp/linecomp", "", ""
	version := "unknown"
	if bi, ok := debug.ReadBuildInfo(); ok {
		if bi.Main.Path != "" {
			module = bi.Main.Path
		}
		if bi.Main.Version != "" {
			version = bi.Main.Version // "(devel)" when built inside the module
		}
		settings := map[string]string{}
		for _, s := range bi.Settings {
			settings[s.Key] = s.Value
		}
		if rev := settings["vcs.revision"]; rev != "" {
			vcs = rev
			if t := settings["vcs.time"]; t != "" {
				vcs += " " + t
			}
			if settings["vcs.modified"] == "true" {
				vcs += " (modified)"
			}
		}
		tags = settings["-tags"]
	}
	fmt.Fprintf(e.stdout, "linecomp %s (%s)\n", version, module)
	if vcs != "" {
		fmt.Fprintf(e.stdout, "commit: %s\n", vcs)
	}
	fmt.Fprintf(e.stdout, "go: %s %s/%s\n", runtime.Version(), runtime.GOOS, runtime.GOARCH)
	if tags != "" {
		fmt.Fprintf(e.stdout, "build tags: %s\n", tags)
	}
	var levels []string
	for _, l := range cpu.Levels() {
		levels = append(levels, l.String())
	}
	fmt.Fprintf(e.stdout, "kernels: %s (this CPU and build support %s)\n", cpu.Best, strings.Join(levels, ", "))
	if name := cpu.Name(); name != "" {
		fmt.Fprintf(e.stdout, "cpu: %s\n", name)
	}
	return nil
}
