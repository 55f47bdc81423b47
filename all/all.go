// Package all imports every linecomp codec for its registration side
// effect:
//
//	import _ "github.com/linecomp/linecomp/all"
package all

import (
	_ "github.com/linecomp/linecomp/bdi"
	_ "github.com/linecomp/linecomp/bpc"
	_ "github.com/linecomp/linecomp/caba"
	_ "github.com/linecomp/linecomp/cpack"
	_ "github.com/linecomp/linecomp/fpc"
	_ "github.com/linecomp/linecomp/magbdi"
	_ "github.com/linecomp/linecomp/multi"
	_ "github.com/linecomp/linecomp/sc"
)
