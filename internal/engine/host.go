package engine

import (
	"context"

	"github.com/tetratelabs/wazero"
	"github.com/tetratelabs/wazero/api"
)

type runKey struct{}

func withRun(ctx context.Context, r *run) context.Context {
	return context.WithValue(ctx, runKey{}, r)
}

// defineHost instantiates the "env" module with the module's only two
// imports. Both find their run through the call's context.
func defineHost(ctx context.Context, rt wazero.Runtime) error {
	i32, f64 := api.ValueTypeI32, api.ValueTypeF64
	_, err := rt.NewHostModuleBuilder("env").
		NewFunctionBuilder().
		WithGoModuleFunction(api.GoModuleFunc(hostEvent), []api.ValueType{i32, i32, i32, i32}, []api.ValueType{i32}).
		WithParameterNames("kind", "id", "ptr", "len").
		Export("host_event").
		NewFunctionBuilder().
		WithGoModuleFunction(api.GoModuleFunc(hostClock), nil, []api.ValueType{f64}).
		Export("host_clock").
		Instantiate(ctx)
	return err
}

func hostEvent(ctx context.Context, mod api.Module, stack []uint64) {
	r, _ := ctx.Value(runKey{}).(*run)
	if r == nil {
		stack[0] = answerStop
		return
	}
	kind, id := int32(stack[0]), int32(stack[1])
	ptr, n := uint32(stack[2]), uint32(stack[3])
	var payload []byte
	if n > 0 {
		var ok bool
		payload, ok = mod.Memory().Read(ptr, n)
		if !ok {
			r.crash("event payload out of bounds")
			stack[0] = answerStop
			return
		}
	}
	stack[0] = uint64(uint32(r.event(mod, kind, id, payload)))
}

func hostClock(ctx context.Context, mod api.Module, stack []uint64) {
	r, _ := ctx.Value(runKey{}).(*run)
	if r == nil {
		stack[0] = api.EncodeF64(0)
		return
	}
	stack[0] = api.EncodeF64(r.clock())
}
