package study

import (
	"fmt"
	"math"
	"strings"
)

// SpeedupSVG draws a table that has workload, policy and speedup columns
// as grouped bars, one group per workload and one bar per policy, with a
// line at 1.0: the shape of the papers' speedup figures (LATTE-CC Fig. 11,
// CABA Fig. 11, Tavana Fig. 5). Cells that are not numbers are left out.
func SpeedupSVG(t Table) []byte {
	col := map[string]int{}
	for i, c := range t.Columns {
		col[c.Name] = i
	}
	wi, ok1 := col["workload"]
	pi, ok2 := col["policy"]
	si, ok3 := col["speedup"]
	if !ok2 {
		pi, ok2 = col["design"]
	}
	var b strings.Builder
	if !ok1 || !ok2 || !ok3 {
		b.WriteString(`<svg xmlns="http://www.w3.org/2000/svg" width="400" height="40"><text x="10" y="25">no speedup column to draw</text></svg>` + "\n")
		return []byte(b.String())
	}
	var workloads, policies []string
	seenW, seenP := map[string]bool{}, map[string]bool{}
	val := map[[2]string]float64{}
	top := 1.0
	for _, r := range t.Rows {
		w, _ := r[wi].(string)
		p, _ := r[pi].(string)
		s, ok := r[si].(float64)
		if !ok || math.IsNaN(s) || math.IsInf(s, 0) {
			continue
		}
		if !seenW[w] {
			seenW[w] = true
			workloads = append(workloads, w)
		}
		if !seenP[p] {
			seenP[p] = true
			policies = append(policies, p)
		}
		val[[2]string{w, p}] = s
		top = max(top, s)
	}
	top = math.Ceil(top*4) / 4
	const left, plotH, bar, gap, topY = 60, 260, 10, 24, 40
	groupW := len(policies)*bar + gap
	w := left + len(workloads)*groupW + 200
	h := topY + plotH + 140
	fmt.Fprintf(&b, `<svg xmlns="http://www.w3.org/2000/svg" width="%d" height="%d" font-family="sans-serif" font-size="11">`+"\n", w, h)
	fmt.Fprintf(&b, `<text x="%d" y="20" font-size="13">%s</text>`+"\n", left, xmlEscape(t.Title))
	y := func(v float64) float64 { return topY + plotH - v/top*plotH }
	for v := 0.0; v <= top+1e-9; v += 0.25 {
		fmt.Fprintf(&b, `<line x1="%d" y1="%.1f" x2="%d" y2="%.1f" stroke="#eee"/><text x="%d" y="%.1f" text-anchor="end">%.2f</text>`+"\n",
			left, y(v), left+len(workloads)*groupW, y(v), left-4, y(v)+4, v)
	}
	fmt.Fprintf(&b, `<line x1="%d" y1="%.1f" x2="%d" y2="%.1f" stroke="black" stroke-dasharray="4 3"/>`+"\n", left, y(1), left+len(workloads)*groupW, y(1))
	palette := []string{"#999999", "#4c9be8", "#e8884c", "#59b36b", "#b36bb3", "#d9534f", "#333333", "#8c6d31", "#17becf", "#bcbd22", "#7f7f7f", "#e377c2", "#1f77b4", "#ff7f0e"}
	for gi, wl := range workloads {
		x0 := left + gi*groupW + gap/2
		for k, p := range policies {
			v, ok := val[[2]string{wl, p}]
			if !ok {
				continue
			}
			fmt.Fprintf(&b, `<rect x="%d" y="%.1f" width="%d" height="%.1f" fill="%s"><title>%s %s %.3f</title></rect>`+"\n",
				x0+k*bar, y(v), bar-1, topY+plotH-y(v), palette[k%len(palette)], xmlEscape(wl), xmlEscape(p), v)
		}
		fmt.Fprintf(&b, `<text transform="translate(%d,%d) rotate(40)">%s</text>`+"\n", x0, topY+plotH+12, xmlEscape(shortName(wl)))
	}
	for k, p := range policies {
		lx := left + len(workloads)*groupW + 20
		fmt.Fprintf(&b, `<rect x="%d" y="%d" width="10" height="10" fill="%s"/><text x="%d" y="%d">%s</text>`+"\n",
			lx, topY+k*16, palette[k%len(palette)], lx+14, topY+k*16+9, xmlEscape(p))
	}
	fmt.Fprintf(&b, `<text x="%d" y="%d">speedup</text>`+"\n", 4, topY-8)
	b.WriteString("</svg>\n")
	return []byte(b.String())
}

// shortName is a workload's file name without directories.
func shortName(s string) string {
	if i := strings.LastIndexByte(s, '/'); i >= 0 {
		return s[i+1:]
	}
	return s
}

func xmlEscape(s string) string {
	return strings.NewReplacer("&", "&amp;", "<", "&lt;", ">", "&gt;", `"`, "&quot;").Replace(s)
}
