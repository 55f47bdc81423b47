package linecomp_test

import (
	"go/ast"
	"go/parser"
	"go/token"
	"io/fs"
	"os"
	"path"
	"path/filepath"
	"slices"
	"strconv"
	"strings"
	"testing"
)

// The import rules of the layers (DESIGN.md "Layers"), in the manner of the
// standard library's go/build/deps_test.go: every package of the module is
// in one class, and a class names what its non-test files may import. A
// new package must be classified here; a forbidden import fails with the
// file that makes it. Files of every build tag are read (a file for arm64
// counts as much as one for amd64).
//
// Each class is a list of allowed module packages ("" is the root; a
// trailing "/*" allows the packages below a directory); the standard
// library is allowed everywhere, other modules only where listed.
var depClasses = []struct {
	name    string
	pkgs    []string // module-relative package paths of the class
	allowed []string
}{
	{"the contract", []string{""}, []string{"internal/*"}},
	{"codecs", []string{"bdi", "fpc", "cpack", "bpc", "sc", "magbdi", "caba"},
		[]string{"", "internal/bitstream", "internal/cpu", "internal/lines"}},
	// multi's Tavana member sets are made of these three codec packages.
	{"multi", []string{"multi"}, []string{"", "internal/*", "bdi", "cpack", "fpc"}},
	{"registration", []string{"all"}, []string{"bdi", "fpc", "cpack", "bpc", "sc", "magbdi", "caba", "multi"}},
	// Models take any codec through the root contract; a model never
	// depends on a policy (it takes an interface).
	{"models", []string{"sim/cache", "sim/mem", "sim/link", "sim/gpu"},
		[]string{"", "internal/bound", "sim/*", "trace", "trace/warp"}},
	{"policies", []string{"policy/latte", "policy/vote"}, []string{"", "internal/bound", "sim/*"}},
	{"traces", []string{"trace", "trace/warp", "trace/internal/tracefile"}, []string{"trace", "trace/internal/*"}},
	{"sample", []string{"sample"}, nil},
	{"harness", []string{"linecomptest"}, []string{"", "internal/race"}},
	{"internal", []string{"internal/bitstream", "internal/bound", "internal/cpu", "internal/guard", "internal/lines",
		"internal/race", "internal/ref"}, []string{"", "internal/*", "github.com/klauspost/cpuid/v2"}},
	{"internal test support", []string{"internal/codectest"}, []string{"", "internal/*", "linecomptest", "sample"}},
	// The studies build paper machines from concrete codecs (LATTE-CC's
	// BDI at its own latencies, CABA's assist-warp costs, Tavana's member
	// set), so they sit above codecs, models and policies, and below the
	// commands.
	{"studies", []string{"study"}, []string{"", "all", "bdi", "caba", "multi", "sim/*", "policy/*", "trace", "trace/warp", "sample"}},
	{"the command", []string{"cmd/linecomp"}, []string{"*", "golang.org/x/sys/unix"}},
}

// otherModules are the directories of the nested modules: they depend on
// the root through its public API only.
var otherModules = []string{"capi", "mgpusim", "_asm"}

const modulePath = "github.com/linecomp/linecomp"

func TestImportRules(t *testing.T) {
	imports := map[string]map[string]string{} // package dir → import → a file making it
	testImports := map[string]map[string]string{}
	for _, f := range goFiles(t, parser.ImportsOnly) {
		m := imports
		if strings.HasSuffix(f.path, "_test.go") {
			m = testImports
		}
		if m[f.dir] == nil {
			m[f.dir] = map[string]string{}
		}
		for _, is := range f.ast.Imports {
			ip, _ := strconv.Unquote(is.Path.Value)
			m[f.dir][ip] = f.path
		}
	}
	if len(imports) < 20 {
		t.Fatalf("found only %d package directories: not run from the module root?", len(imports))
	}
	for dir, ims := range imports {
		if nested(dir) != "" {
			continue
		}
		class := -1
		for i, c := range depClasses {
			if slices.Contains(c.pkgs, dir) {
				class = i
			}
		}
		if class < 0 {
			t.Errorf("package %q is in no class of deps_test.go: classify it", path.Join(modulePath, dir))
			continue
		}
		c := depClasses[class]
		for ip, file := range ims {
			if !allowedImport(c.allowed, ip) {
				t.Errorf("%s (%s) imports %s, which its class does not allow", file, c.name, ip)
			}
		}
	}
	for _, m := range []map[string]map[string]string{imports, testImports} {
		for dir, ims := range m {
			for ip, file := range ims {
				rel, inModule := moduleRel(ip)
				switch {
				case inModule && (rel == "cmd" || strings.HasPrefix(rel, "cmd/")):
					t.Errorf("%s imports %s: nothing imports a command", file, ip)
				case inModule && nested(dir) != "" && nested(rel) == "" && (rel == "internal" || strings.HasPrefix(rel, "internal/") || strings.Contains(rel, "/internal/")):
					// Go's internal rule goes by path, and the nested
					// modules' paths lie under the root's: keep them out.
					t.Errorf("%s (module %s) imports the root's %s: internal stays internal", file, nested(dir), ip)
				case !inModule && nested(dir) == "" && !std(ip) && !rootDependency(ip):
					t.Errorf("%s imports %s: the root module depends on the standard library, cpuid, x/sys and go-cmp only", file, ip)
				}
			}
		}
	}
}

// allowedImport reports whether a class allowing allowed may import ip.
func allowedImport(allowed []string, ip string) bool {
	if std(ip) {
		return true
	}
	rel, inModule := moduleRel(ip)
	for _, a := range allowed {
		switch {
		case a == "*" && inModule:
			return rel != "cmd" && !strings.HasPrefix(rel, "cmd/")
		case !inModule && a == ip:
			return true
		case inModule && a == rel:
			return true
		case inModule && strings.HasSuffix(a, "/*") && strings.HasPrefix(rel, strings.TrimSuffix(a, "*")):
			return true
		}
	}
	return false
}

// moduleRel returns ip relative to the module root, and whether it is in
// the module (or a nested one).
func moduleRel(ip string) (string, bool) {
	if ip == modulePath {
		return "", true
	}
	rel, ok := strings.CutPrefix(ip, modulePath+"/")
	return rel, ok
}

// nested returns the nested module that holds the module-relative dir, or "".
func nested(dir string) string {
	for _, m := range otherModules {
		if dir == m || strings.HasPrefix(dir, m+"/") {
			return m
		}
	}
	return ""
}

// std reports whether ip is in the standard library: its first element
// has no dot.
func std(ip string) bool {
	first, _, _ := strings.Cut(ip, "/")
	return !strings.Contains(first, ".")
}

func rootDependency(ip string) bool {
	return ip == "github.com/klauspost/cpuid/v2" || ip == "golang.org/x/sys" || strings.HasPrefix(ip, "golang.org/x/sys/") ||
		ip == "github.com/google/go-cmp/cmp" || strings.HasPrefix(ip, "github.com/google/go-cmp/")
}

// TestImportRulesCatch: the rules reject what they are for.
func TestImportRulesCatch(t *testing.T) {
	models := depClasses[slices.IndexFunc(depClasses, func(c struct {
		name    string
		pkgs    []string
		allowed []string
	}) bool {
		return c.name == "models"
	})].allowed
	for _, ip := range []string{modulePath + "/bdi", modulePath + "/all", modulePath + "/multi", modulePath + "/policy/latte",
		modulePath + "/cmd/linecomp", "github.com/sarchlab/akita/v4/sim"} {
		if allowedImport(models, ip) {
			t.Errorf("a model may import %s", ip)
		}
	}
	for _, ip := range []string{modulePath, modulePath + "/sim/cache", modulePath + "/trace/warp", "fmt"} {
		if !allowedImport(models, ip) {
			t.Errorf("a model may not import %s", ip)
		}
	}
	if allowedImport([]string{"*"}, modulePath+"/cmd/linecomp") {
		t.Error("the command's class may import a command")
	}
	if _, err := os.Stat("deps_test.go"); err != nil {
		t.Fatalf("not run from the module root: %v", err)
	}
}

// TestPortableFilesNameNoAssembly: a file built everywhere never names an
// assembly function (one declared without a body, in a *_amd64.go file):
// it reaches kernels through hooks that report whether one ran, which the
// files for other builds implement as "none", so that no build needs a
// stub that panics if called (and none has one).
func TestPortableFilesNameNoAssembly(t *testing.T) {
	asm := map[string]map[string]bool{} // package dir → assembly function names
	var portable []goFile
	for _, f := range goFiles(t, parser.ParseComments) {
		if nested(f.dir) != "" {
			continue
		}
		if strings.HasSuffix(f.path, "_amd64.go") || strings.HasSuffix(f.path, "_amd64_test.go") {
			for _, decl := range f.ast.Decls {
				if fd, ok := decl.(*ast.FuncDecl); ok && fd.Body == nil {
					if asm[f.dir] == nil {
						asm[f.dir] = map[string]bool{}
					}
					asm[f.dir][fd.Name.Name] = true
				}
			}
			continue
		}
		if !constrained(f.ast) {
			portable = append(portable, f)
			continue
		}
		for _, decl := range f.ast.Decls { // a hook for other builds answers "none"
			if fd, ok := decl.(*ast.FuncDecl); ok && fd.Body != nil && len(fd.Body.List) == 1 {
				if es, ok := fd.Body.List[0].(*ast.ExprStmt); ok {
					if call, ok := es.X.(*ast.CallExpr); ok {
						if id, ok := call.Fun.(*ast.Ident); ok && id.Name == "panic" {
							t.Errorf("%s: %s is a stub that panics", f.path, fd.Name.Name)
						}
					}
				}
			}
		}
	}
	if len(asm) < 5 {
		t.Fatalf("assembly functions found in only %d packages", len(asm))
	}
	for _, f := range portable {
		names := asm[f.dir]
		ast.Inspect(f.ast, func(n ast.Node) bool {
			if id, ok := n.(*ast.Ident); ok && names[id.Name] {
				t.Errorf("%s names the assembly function %s", f.path, id.Name)
			}
			return true
		})
	}
}

// goFile is a parsed Go file of the repository: its slash path, and its
// directory relative to the module root ("" for the root).
type goFile struct {
	path, dir string
	ast       *ast.File
}

// goFiles parses every Go file below the module root, nested modules
// included, but not hidden directories or testdata.
func goFiles(t *testing.T, mode parser.Mode) []goFile {
	t.Helper()
	var files []goFile
	err := filepath.WalkDir(".", func(p string, d fs.DirEntry, err error) error {
		if err != nil {
			return err
		}
		if d.IsDir() {
			if p != "." && (strings.HasPrefix(d.Name(), ".") || d.Name() == "testdata") {
				return filepath.SkipDir
			}
			return nil
		}
		if !strings.HasSuffix(p, ".go") {
			return nil
		}
		f, err := parser.ParseFile(token.NewFileSet(), p, nil, mode)
		if err != nil {
			return err
		}
		dir := filepath.ToSlash(filepath.Dir(p))
		if dir == "." {
			dir = ""
		}
		files = append(files, goFile{filepath.ToSlash(p), dir, f})
		return nil
	})
	if err != nil {
		t.Fatal(err)
	}
	return files
}

// constrained reports whether f has a //go:build line: it is built for
// some configurations only (a portable file has none).
func constrained(f *ast.File) bool {
	for _, g := range f.Comments {
		if g.Pos() >= f.Package {
			break
		}
		for _, c := range g.List {
			if strings.HasPrefix(c.Text, "//go:build ") {
				return true
			}
		}
	}
	return false
}
