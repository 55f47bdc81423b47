package study

import (
	"encoding/csv"
	"encoding/json"
	"fmt"
	"io"
	"math"
	"strconv"
	"strings"
	"text/tabwriter"
)

// Column is one column of a Table.
type Column struct {
	Name string
	// Digits is how many decimals a float64 shows in text; CSV and JSON
	// carry every digit.
	Digits int
}

// Table is one of a study's tables. A cell is a string, an int, a uint64,
// a float64 or nil (no value: "n/a").
type Table struct {
	Name    string // e.g. "latte", "latte-classes"
	Title   string // one line saying what it is
	Columns []Column
	Rows    [][]any
	Notes   []string // printed under the text form
}

// Write renders the table as "text" (aligned columns, the title above and
// the notes below), "csv" (a header row, then every row) or "json" (an
// array of objects keyed by column name).
func (t *Table) Write(w io.Writer, format string) error {
	switch format {
	case "csv":
		cw := csv.NewWriter(w)
		cw.Write(t.header())
		for _, r := range t.Rows {
			cw.Write(t.cells(r, -1))
		}
		cw.Flush()
		return cw.Error()
	case "json":
		out := make([]map[string]any, 0, len(t.Rows))
		for _, r := range t.Rows {
			obj := map[string]any{}
			for i, c := range t.Columns {
				v := r[i]
				if f, ok := v.(float64); ok && (math.IsNaN(f) || math.IsInf(f, 0)) {
					v = nil
				}
				obj[c.Name] = v
			}
			out = append(out, obj)
		}
		enc := json.NewEncoder(w)
		enc.SetIndent("", "  ")
		return enc.Encode(out)
	case "text":
		if t.Title != "" {
			fmt.Fprintln(w, t.Title)
		}
		tw := tabwriter.NewWriter(w, 0, 0, 2, ' ', 0)
		fmt.Fprintln(tw, strings.Join(t.header(), "\t"))
		for _, r := range t.Rows {
			fmt.Fprintln(tw, strings.Join(t.cells(r, 0), "\t"))
		}
		if err := tw.Flush(); err != nil {
			return err
		}
		for _, n := range t.Notes {
			fmt.Fprintln(w, n)
		}
		return nil
	}
	return fmt.Errorf("%w: format %q: want text, csv or json", ErrParam, format)
}

func (t *Table) header() []string {
	h := make([]string, len(t.Columns))
	for i, c := range t.Columns {
		h[i] = c.Name
	}
	return h
}

// cells formats a row; digits < 0 gives every float's shortest exact form,
// otherwise each column's Digits.
func (t *Table) cells(r []any, digits int) []string {
	out := make([]string, len(r))
	for i, v := range r {
		switch v := v.(type) {
		case nil:
			out[i] = "n/a"
		case string:
			out[i] = v
		case int:
			out[i] = strconv.Itoa(v)
		case uint64:
			out[i] = strconv.FormatUint(v, 10)
		case float64:
			switch {
			case math.IsNaN(v) || math.IsInf(v, 0):
				out[i] = "n/a"
			case digits < 0:
				out[i] = strconv.FormatFloat(v, 'g', -1, 64)
			default:
				out[i] = strconv.FormatFloat(v, 'f', t.Columns[i].Digits, 64)
			}
		default:
			out[i] = fmt.Sprint(v)
		}
	}
	return out
}

// WriteTables writes tables one after another: in text with a blank line
// between them; in CSV and JSON only the first (the per-row results),
// since a CSV file or a JSON document holds one table.
func WriteTables(w io.Writer, tables []Table, format string) error {
	for i := range tables {
		if format != "text" && i > 0 {
			break
		}
		if i > 0 {
			fmt.Fprintln(w)
		}
		if err := tables[i].Write(w, format); err != nil {
			return err
		}
	}
	return nil
}
