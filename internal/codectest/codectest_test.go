package codectest

import (
	"os"
	"os/exec"
	"path/filepath"
	"strings"
	"testing"
)

// Types for TestCheckOptions: options of the right shape, and three that
// could change a built codec. The fields are blank: only their types
// matter.
type (
	goodConfig struct{ _ int }
	goodCodec  struct {
		_ goodConfig // a copy: fine
		_ int
	}
	goodOption func(*goodConfig)

	openCodec  struct{ _ int }
	openOption func(*openCodec) // acts on the codec itself

	sharedCodec struct{ _ *goodConfig } // keeps the configuration options wrote

	Exported       struct{ _ int }
	exportedOption func(*Exported) // a user can make one and apply it
)

// TestCheckOptions: the shape sc, multi and every codec package use
// passes; an option on the codec, a codec keeping a pointer to the
// configuration and an exported configuration fail.
func TestCheckOptions(t *testing.T) {
	if err := CheckOptions[goodOption, *goodCodec](); err != nil {
		t.Errorf("good options: %v", err)
	}
	for name, err := range map[string]error{
		"option on the codec":      CheckOptions[openOption, *openCodec](),
		"codec keeps the config":   CheckOptions[goodOption, *sharedCodec](),
		"exported configuration":   CheckOptions[exportedOption, *goodCodec](),
		"option is not a func":     CheckOptions[int, *goodCodec](),
		"option of a value, not *": CheckOptions[func(goodConfig), *goodCodec](),
	} {
		if err == nil {
			t.Errorf("%s: no error", name)
		}
	}
}

// TestHelperCorpora is run by TestCorporaSetting in a child process (the
// corpora are loaded once per process) and does nothing otherwise.
func TestHelperCorpora(t *testing.T) {
	if os.Getenv("CODECTEST_HELPER") != "1" {
		t.Skip("run by TestCorporaSetting")
	}
	files := Corpora(t)
	t.Logf("read %d corpus files", len(files))
}

// TestCorporaSetting: a LINECOMP_CORPORA that names a missing or empty
// directory fails the corpus tests, with the path in the message; unset,
// with no ../shared/corpora beside the module root, they skip; -short
// skips them whatever the setting.
func TestCorporaSetting(t *testing.T) {
	if os.Getenv("CODECTEST_HELPER") == "1" {
		t.Skip("in the child")
	}
	exe, err := os.Executable()
	if err != nil {
		t.Fatal(err)
	}
	module := t.TempDir() // a module root with no ../shared/corpora
	if err := os.WriteFile(filepath.Join(module, "go.mod"), []byte("module x\n"), 0o644); err != nil {
		t.Fatal(err)
	}
	empty := t.TempDir()
	for _, tc := range []struct {
		name, corpora string
		short         bool
		fail          bool
		want          string
	}{
		{"mistyped", "/no/such/corpora", false, true, "LINECOMP_CORPORA=/no/such/corpora"},
		{"empty", empty, false, true, empty + " holds no corpus files"},
		{"unset, absent", "", false, false, "SKIP: TestHelperCorpora"},
		{"mistyped, -short", "/no/such/corpora", true, false, "-short: the sample only"},
	} {
		args := []string{"-test.run=^TestHelperCorpora$", "-test.v"}
		if tc.short {
			args = append(args, "-test.short")
		}
		cmd := exec.Command(exe, args...)
		cmd.Dir = module
		cmd.Env = append(os.Environ(), "CODECTEST_HELPER=1", "LINECOMP_CORPORA="+tc.corpora)
		out, err := cmd.CombinedOutput()
		if failed := err != nil; failed != tc.fail || !strings.Contains(string(out), tc.want) {
			t.Errorf("%s: failed %v (want %v), output:\n%s\nwant it to contain %q", tc.name, failed, tc.fail, out, tc.want)
		}
	}
}
