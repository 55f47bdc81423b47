// Command clbuild compiles one of the suite's OpenCL C sources into the
// GCN3 code object committed next to it; each kernel package runs it from
// a go:generate line:
//
//	go run ../internal/clbuild kernels.cl
//
// It writes kernels.hsaco beside the source with Debian's clang-14 and
// lld-14 (apt-get install clang-14 lld-14), for gfx803 (MGPUSim's R9 Nano)
// and code object version 2, the only version MGPUSim v4.2.0 loads for
// gfx803. The flags are fixed here so that every package builds the same
// way and the output is byte-identical from one build to the next (CI
// rebuilds every object and compares it with the committed one). The
// source is named by a relative path so that no absolute path can reach
// the object.
package main

import (
	"fmt"
	"os"
	"os/exec"
	"path/filepath"
	"strings"
)

// Flags are the compiler flags of every object.
var Flags = []string{
	"-x", "cl", "-cl-std=CL1.2",
	"-target", "amdgcn-amd-amdhsa", "-mcpu=gfx803", "-mcode-object-version=2",
	"-O2", "-nogpulib",
}

func main() {
	if len(os.Args) != 2 || filepath.IsAbs(os.Args[1]) || !strings.HasSuffix(os.Args[1], ".cl") {
		fmt.Fprintln(os.Stderr, "usage: clbuild SOURCE.cl (relative to the package directory)")
		os.Exit(2)
	}
	src := os.Args[1]
	out := strings.TrimSuffix(src, ".cl") + ".hsaco"
	clang := os.Getenv("CLANG")
	if clang == "" {
		clang = "clang-14"
	}
	args := append(append([]string{}, Flags...), "-o", out, src)
	cmd := exec.Command(clang, args...)
	cmd.Stdout, cmd.Stderr = os.Stdout, os.Stderr
	if err := cmd.Run(); err != nil {
		fmt.Fprintf(os.Stderr, "clbuild: %s %s: %v (install Debian's clang-14 and lld-14)\n",
			clang, strings.Join(args, " "), err)
		os.Exit(1)
	}
}
