package bench_test

import (
	"fmt"
	"time"

	"github.com/gwf-graphs/gwf/training/bench"
)

// Time one PPA GWD between two Barabási–Albert graphs of 100 nodes at the paper's settings.
func ExampleGWD() {
	k, err := bench.GWD(100, false, 100*time.Millisecond, 0)
	if err != nil {
		fmt.Println(err)
		return
	}
	fmt.Printf("%s: %.2f ms, %.0f allocations per call\n", k.Name, k.Millis, k.AllocsPerOp)
}
