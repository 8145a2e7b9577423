package intl

import "encoding/json"

type dateData struct{}

type dateTimeFormat struct{}

func newDateTimeFormat(locales []string, o options) (*dateTimeFormat, error) {
	return nil, typeErr("DateTimeFormat: not yet")
}

func (f *dateTimeFormat) call(rest []json.RawMessage) (any, error) { return nil, nil }
