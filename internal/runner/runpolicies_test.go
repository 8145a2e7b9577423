package runner

import (
	"context"
	"encoding/json"
	"errors"
	"strings"
	"testing"

	"github.com/modebox/modebox/internal/errs"
	"github.com/modebox/modebox/internal/policy"
	"github.com/modebox/modebox/internal/toolbox"
	"github.com/modebox/modebox/internal/tsx"
)

// A run's policy pattern that matches no tool is refused before the run,
// as the engine's are: a misspelt "deny" must not leave the tool allowed.
func TestRunPoliciesMatchingNothingRefused(t *testing.T) {
	ran := false
	tools := []toolbox.Tool{{Namespace: "bank", Name: "pay", Handler: func(context.Context, json.RawMessage) (any, error) { ran = true; return 1, nil }}}
	r := newRunner(t, tools, nil, false)
	for pat, want := range map[string]string{"bank.Pay": `matches no tool of "bank"`, "pay": `did you mean "bank.pay"`, "tools.bank.pay": `write "bank.pay"`} {
		_, err := r.Run(context.Background(), Request{Code: `await tools.bank.pay({})`, Lang: tsx.JS, Policies: map[string]policy.Policy{pat: policy.Deny}})
		var ce *errs.Config
		if !errors.As(err, &ce) || !strings.Contains(err.Error(), "RunOptions.Policies") || !strings.Contains(err.Error(), want) {
			t.Errorf("%q: got %v, want a config error saying %s", pat, err, want)
		}
	}
	if ran {
		t.Fatal("the tool ran")
	}
	if _, err := r.Run(context.Background(), Request{Code: `return 1`, Lang: tsx.JS, Policies: map[string]policy.Policy{"bank.pay": policy.Deny}}); err != nil {
		t.Fatal(err)
	}
}
