package integration_test

import (
	"context"
	"testing"

	"github.com/modebox/modebox"
)

// TestBoundCallManyArgs: a bound function called with more arguments than
// the guest's stack holds is a catchable stack overflow. The guest's
// check wrapped around below address 0 (its stack is at the bottom of
// linear memory), so 65,535 arguments passed it and crashed the guest.
func TestBoundCallManyArgs(t *testing.T) {
	eng, err := modebox.New(modebox.EngineConfig{})
	if err != nil {
		t.Fatal(err)
	}
	defer eng.Close()
	for _, n := range []string{"65535", "100000", "1000000"} {
		res, err := eng.Run(context.Background(), "const a = new Array("+n+").fill(1)\nreturn Math.max.bind(null)(...a)", modebox.RunOptions{Lang: "js"})
		if err != nil || res.Error == nil || res.Error.Code != modebox.CodeStackOverflow {
			t.Fatalf("%s arguments: %v %+v", n, err, res.Error)
		}
		res, err = eng.Run(context.Background(), "const a = new Array("+n+").fill(1)\ntry { (function () {}).bind(null)(...a) } catch (e) { return e.message }", modebox.RunOptions{Lang: "js"})
		if err != nil || res.Error != nil || string(res.Value) != `"stack overflow"` {
			t.Fatalf("%s arguments, caught: %v %+v %s", n, err, res.Error, res.Value)
		}
	}
}
