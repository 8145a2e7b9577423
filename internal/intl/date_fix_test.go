package intl

import (
	"encoding/json"
	"fmt"
	"testing"
)

// dtfFormat formats ms with a DateTimeFormat as the guest asks for it;
// opts is the options' JSON, with the guest's $required and $defaults.
func dtfFormat(t *testing.T, locale, opts, method string, args ...float64) string {
	t.Helper()
	req := fmt.Sprintf(`["dtf",[%q],%s,%q`, locale, opts, method)
	for _, a := range args {
		req += fmt.Sprintf(",%v", a)
	}
	rep := string(Handle([]byte(req + "]")))
	switch rep[0] {
	case 's':
		return rep[1:]
	case 'j':
		return rep[1:]
	}
	t.Fatalf("%s: reply %q", req, rep)
	return ""
}

// Lone time fields and timeZoneName, as Node 22 formats them (the
// expected strings are Node's). ICU pads minutes and seconds as the
// pattern does: V8 asks the pattern generator to match the hour's length
// only, so minute "2-digit" alone is "4" and timeZoneName alone (whose
// defaults are "numeric") keeps the pattern's "04:05". A lone
// fractionalSecondDigits is the fraction, and a field the best pattern
// lacks is appended with the locale's append item, as ICU does.
func TestDateTimeLoneFields(t *testing.T) {
	at := float64(1704423845067) // 2024-01-05T03:04:05.067Z
	cases := []struct{ name, locale, opts, want string }{
		{"tz", "en-US", "{\"timeZoneName\":\"short\",\"$required\":\"any\",\"$defaults\":\"all\"}", "1/5/2024, 3:04:05 AM UTC"},
		{"tz", "en-US", "{\"timeZoneName\":\"short\",\"$required\":\"time\",\"$defaults\":\"time\"}", "3:04:05 AM UTC"},
		{"tz", "en-US", "{\"timeZoneName\":\"long\",\"$required\":\"any\",\"$defaults\":\"all\"}", "1/5/2024, 3:04:05 AM Coordinated Universal Time"},
		{"tz", "en-US", "{\"timeZoneName\":\"long\",\"$required\":\"time\",\"$defaults\":\"time\"}", "3:04:05 AM Coordinated Universal Time"},
		{"tz", "de-DE", "{\"timeZoneName\":\"short\",\"$required\":\"any\",\"$defaults\":\"all\"}", "5.1.2024, 3:04:05 UTC"},
		{"tz", "de-DE", "{\"timeZoneName\":\"short\",\"$required\":\"time\",\"$defaults\":\"time\"}", "3:04:05 UTC"},
		{"tz", "de-DE", "{\"timeZoneName\":\"long\",\"$required\":\"any\",\"$defaults\":\"all\"}", "5.1.2024, 3:04:05 Koordinierte Weltzeit"},
		{"tz", "de-DE", "{\"timeZoneName\":\"long\",\"$required\":\"time\",\"$defaults\":\"time\"}", "3:04:05 Koordinierte Weltzeit"},
		{"tz", "en-GB", "{\"timeZoneName\":\"short\",\"$required\":\"any\",\"$defaults\":\"all\"}", "05/01/2024, 3:04:05 UTC"},
		{"tz", "en-GB", "{\"timeZoneName\":\"short\",\"$required\":\"time\",\"$defaults\":\"time\"}", "3:04:05 UTC"},
		{"tz", "en-GB", "{\"timeZoneName\":\"long\",\"$required\":\"any\",\"$defaults\":\"all\"}", "05/01/2024, 3:04:05 Coordinated Universal Time"},
		{"tz", "en-GB", "{\"timeZoneName\":\"long\",\"$required\":\"time\",\"$defaults\":\"time\"}", "3:04:05 Coordinated Universal Time"},
		{"tz", "ja-JP", "{\"timeZoneName\":\"short\",\"$required\":\"any\",\"$defaults\":\"all\"}", "2024/1/5 3:04:05 UTC"},
		{"tz", "ja-JP", "{\"timeZoneName\":\"short\",\"$required\":\"time\",\"$defaults\":\"time\"}", "3:04:05 UTC"},
		{"tz", "ja-JP", "{\"timeZoneName\":\"long\",\"$required\":\"any\",\"$defaults\":\"all\"}", "2024/1/5 3時04分05秒 協定世界時"},
		{"tz", "ja-JP", "{\"timeZoneName\":\"long\",\"$required\":\"time\",\"$defaults\":\"time\"}", "3時04分05秒 協定世界時"},
		{"tz", "en-US", "{\"timeZoneName\":\"shortOffset\",\"$required\":\"any\",\"$defaults\":\"all\"}", "1/5/2024, 3:04:05 AM GMT+0"},
		{"tz", "en-US", "{\"minute\":\"numeric\",\"timeZoneName\":\"short\",\"$required\":\"any\",\"$defaults\":\"date\"}", "4 UTC"},
		{"tz", "zh", "{\"minute\":\"numeric\",\"timeZoneName\":\"short\",\"$required\":\"any\",\"$defaults\":\"date\"}", "UTC4"},
		{"fsd", "en-US", "{\"fractionalSecondDigits\":1,\"$required\":\"time\",\"$defaults\":\"time\"}", "0"},
		{"fsd", "en-US", "{\"fractionalSecondDigits\":2,\"$required\":\"time\",\"$defaults\":\"time\"}", "06"},
		{"fsd", "en-US", "{\"fractionalSecondDigits\":3,\"$required\":\"time\",\"$defaults\":\"time\"}", "067"},
		{"fsd", "de", "{\"fractionalSecondDigits\":1,\"$required\":\"time\",\"$defaults\":\"time\"}", "0"},
		{"fsd", "de", "{\"fractionalSecondDigits\":2,\"$required\":\"time\",\"$defaults\":\"time\"}", "06"},
		{"fsd", "de", "{\"fractionalSecondDigits\":3,\"$required\":\"time\",\"$defaults\":\"time\"}", "067"},
		{"fsd", "en-US", "{\"fractionalSecondDigits\":3,\"$required\":\"any\",\"$defaults\":\"all\"}", "067"},
		{"fsd", "en-US", "{\"second\":\"numeric\",\"fractionalSecondDigits\":2,\"$required\":\"any\",\"$defaults\":\"date\"}", "5.06"},
		{"fsd", "en-US", "{\"second\":\"2-digit\",\"fractionalSecondDigits\":2,\"$required\":\"any\",\"$defaults\":\"date\"}", "5.06"},
		{"fsd", "de-DE", "{\"minute\":\"numeric\",\"fractionalSecondDigits\":3,\"$required\":\"any\",\"$defaults\":\"date\"}", "04:05,067"},
		{"fsd", "en-US", "{\"hour\":\"numeric\",\"fractionalSecondDigits\":3,\"$required\":\"any\",\"$defaults\":\"date\"}", "3 AM ├F14: 067┤"},
		{"fsd", "en-US", "{\"dayPeriod\":\"short\",\"fractionalSecondDigits\":2,\"$required\":\"any\",\"$defaults\":\"date\"}", "06 ├AM/PM: in the morning┤"},
		{"2-digit", "en-US", "{\"minute\":\"2-digit\",\"$required\":\"any\",\"$defaults\":\"date\"}", "4"},
		{"2-digit", "de-DE", "{\"minute\":\"2-digit\",\"$required\":\"any\",\"$defaults\":\"date\"}", "4"},
		{"2-digit", "ja-JP", "{\"minute\":\"2-digit\",\"$required\":\"any\",\"$defaults\":\"date\"}", "4"},
		{"2-digit", "en-US", "{\"second\":\"2-digit\",\"$required\":\"any\",\"$defaults\":\"date\"}", "5"},
		{"2-digit", "de-DE", "{\"second\":\"2-digit\",\"$required\":\"any\",\"$defaults\":\"date\"}", "5"},
		{"2-digit", "ja-JP", "{\"second\":\"2-digit\",\"$required\":\"any\",\"$defaults\":\"date\"}", "5"},
		{"2-digit", "en-US", "{\"hour\":\"2-digit\",\"$required\":\"any\",\"$defaults\":\"date\"}", "03 AM"},
		{"2-digit", "de-DE", "{\"hour\":\"2-digit\",\"$required\":\"any\",\"$defaults\":\"date\"}", "03 Uhr"},
		{"2-digit", "ja-JP", "{\"hour\":\"2-digit\",\"$required\":\"any\",\"$defaults\":\"date\"}", "03時"},
		{"2-digit", "en-US", "{\"minute\":\"numeric\",\"second\":\"numeric\",\"$required\":\"any\",\"$defaults\":\"date\"}", "04:05"},
		{"2-digit", "de-DE", "{\"minute\":\"numeric\",\"second\":\"numeric\",\"$required\":\"any\",\"$defaults\":\"date\"}", "04:05"},
		{"2-digit", "ja-JP", "{\"minute\":\"numeric\",\"second\":\"numeric\",\"$required\":\"any\",\"$defaults\":\"date\"}", "04:05"},
		{"2-digit", "en-US", "{\"hour\":\"2-digit\",\"minute\":\"numeric\",\"$required\":\"any\",\"$defaults\":\"date\"}", "03:04 AM"},
		{"2-digit", "de-DE", "{\"hour\":\"2-digit\",\"minute\":\"numeric\",\"$required\":\"any\",\"$defaults\":\"date\"}", "03:04"},
		{"2-digit", "ja-JP", "{\"hour\":\"2-digit\",\"minute\":\"numeric\",\"$required\":\"any\",\"$defaults\":\"date\"}", "03:04"},
		{"2-digit", "en-US", "{\"hour\":\"numeric\",\"minute\":\"2-digit\",\"hour12\":false,\"$required\":\"any\",\"$defaults\":\"date\"}", "03:04"},
		{"2-digit", "de-DE", "{\"hour\":\"numeric\",\"minute\":\"2-digit\",\"hour12\":false,\"$required\":\"any\",\"$defaults\":\"date\"}", "3:04"},
		{"2-digit", "ja-JP", "{\"hour\":\"numeric\",\"minute\":\"2-digit\",\"hour12\":false,\"$required\":\"any\",\"$defaults\":\"date\"}", "3:04"},
	}
	for _, c := range cases {
		if got := dtfFormat(t, c.locale, c.opts, "format", at); got != c.want {
			t.Errorf("%s %s %s: got %q, want %q", c.name, c.locale, c.opts, got, c.want)
		}
	}
}

// zh-TW and zh-Hant as Node 22 formats them (the expected strings are
// Node's): a 12-hour clock (TW's preference, which FormatJS's data lacks)
// and ICU's glue of date and time, a thin space for the short style.
func TestDateTimeTraditionalChinese(t *testing.T) {
	at := float64(1732806000000) // 2024-11-28T15:00:00Z
	cases := []struct{ locale, opts, want string }{
		{"zh-TW", "{\"$required\":\"any\",\"$defaults\":\"all\"}", "2024/11/28\u2009下午3:00:00"},
		{"zh-TW", "{\"$required\":\"time\",\"$defaults\":\"time\"}", "下午3:00:00"},
		{"zh-TW", "{\"dateStyle\":\"medium\",\"timeStyle\":\"short\",\"$required\":\"any\",\"$defaults\":\"all\"}", "2024年11月28日 下午3:00"},
		{"zh-TW", "{\"dateStyle\":\"full\",\"timeStyle\":\"long\",\"$required\":\"any\",\"$defaults\":\"all\"}", "2024年11月28日 星期四 下午3:00:00 [UTC]"},
		{"zh-TW", "{\"dateStyle\":\"short\",\"timeStyle\":\"short\",\"$required\":\"any\",\"$defaults\":\"date\"}", "2024/11/28\u2009下午3:00"},
		{"zh-TW", "{\"hour\":\"numeric\",\"minute\":\"numeric\",\"$required\":\"any\",\"$defaults\":\"date\"}", "下午3:00"},
		{"zh-TW", "{\"hour12\":false,\"$required\":\"any\",\"$defaults\":\"all\"}", "2024/11/28\u200915:00:00"},
		{"zh-Hant", "{\"$required\":\"any\",\"$defaults\":\"all\"}", "2024/11/28\u2009下午3:00:00"},
		{"zh-Hant", "{\"$required\":\"time\",\"$defaults\":\"time\"}", "下午3:00:00"},
		{"zh-Hant", "{\"dateStyle\":\"medium\",\"timeStyle\":\"short\",\"$required\":\"any\",\"$defaults\":\"all\"}", "2024年11月28日 下午3:00"},
		{"zh-Hant", "{\"dateStyle\":\"full\",\"timeStyle\":\"long\",\"$required\":\"any\",\"$defaults\":\"all\"}", "2024年11月28日 星期四 下午3:00:00 [UTC]"},
		{"zh-Hant", "{\"dateStyle\":\"short\",\"timeStyle\":\"short\",\"$required\":\"any\",\"$defaults\":\"date\"}", "2024/11/28\u2009下午3:00"},
		{"zh-Hant", "{\"hour\":\"numeric\",\"minute\":\"numeric\",\"$required\":\"any\",\"$defaults\":\"date\"}", "下午3:00"},
		{"zh-Hant", "{\"hour12\":false,\"$required\":\"any\",\"$defaults\":\"all\"}", "2024/11/28\u200915:00:00"},
		{"zh", "{\"$required\":\"any\",\"$defaults\":\"all\"}", "2024/11/28 15:00:00"},
		{"zh", "{\"dateStyle\":\"medium\",\"timeStyle\":\"short\",\"$required\":\"any\",\"$defaults\":\"all\"}", "2024年11月28日 15:00"},
		{"zh-CN", "{\"$required\":\"any\",\"$defaults\":\"all\"}", "2024/11/28 15:00:00"},
		{"zh-CN", "{\"dateStyle\":\"medium\",\"timeStyle\":\"short\",\"$required\":\"any\",\"$defaults\":\"all\"}", "2024年11月28日 15:00"},
	}
	for _, c := range cases {
		if got := dtfFormat(t, c.locale, c.opts, "format", at); got != c.want {
			t.Errorf("%s %s: got %q, want %q", c.locale, c.opts, got, c.want)
		}
	}
	var ro struct{ HourCycle string }
	if err := json.Unmarshal([]byte(dtfFormat(t, "zh-TW", "{\"timeStyle\":\"short\"}", "resolvedOptions")), &ro); err != nil || ro.HourCycle != "h12" {
		t.Errorf("zh-TW hourCycle %q (%v), want h12", ro.HourCycle, err)
	}
}

// formatRange with dateStyle (or timeStyle) as Node 22 formats it (the
// expected strings are Node's): V8 gives ICU's DateIntervalFormat the
// style pattern's skeleton, so the interval formats share what the dates
// share ("Jan 10 – 20, 2024"). formatRangeToParts marks as shared what
// lies outside a date's span.
func TestDateTimeStyleRange(t *testing.T) {
	cases := []struct {
		locale, opts string
		a, b         float64
		want         string
	}{
		{"en-US", "{\"dateStyle\":\"medium\"}", 1704844800000, 1705708800000, "Jan 10 – 20, 2024"},
		{"en-US", "{\"dateStyle\":\"medium\"}", 1704844800000, 1710892800000, "Jan 10 – Mar 20, 2024"},
		{"en-US", "{\"dateStyle\":\"long\"}", 1704844800000, 1705708800000, "January 10 – 20, 2024"},
		{"en-US", "{\"dateStyle\":\"long\"}", 1704844800000, 1710892800000, "January 10 – March 20, 2024"},
		{"en-US", "{\"dateStyle\":\"long\"}", 1704844800000, 1742428800000, "January 10, 2024 – March 20, 2025"},
		{"en-US", "{\"dateStyle\":\"full\"}", 1704844800000, 1705708800000, "Wednesday, January 10 – Saturday, January 20, 2024"},
		{"en-US", "{\"dateStyle\":\"full\"}", 1704844800000, 1710892800000, "Wednesday, January 10 – Wednesday, March 20, 2024"},
		{"en-US", "{\"dateStyle\":\"short\"}", 1704844800000, 1705708800000, "1/10/24 – 1/20/24"},
		{"en-US", "{\"dateStyle\":\"short\"}", 1704844800000, 1710892800000, "1/10/24 – 3/20/24"},
		{"de-DE", "{\"dateStyle\":\"long\"}", 1704844800000, 1705708800000, "10.–20. Januar 2024"},
		{"de-DE", "{\"dateStyle\":\"long\"}", 1704844800000, 1710892800000, "10. Januar – 20. März 2024"},
		{"de-DE", "{\"dateStyle\":\"long\"}", 1704844800000, 1742428800000, "10. Januar 2024 – 20. März 2025"},
		{"de-DE", "{\"dateStyle\":\"medium\"}", 1704844800000, 1705708800000, "10.–20.01.2024"},
		{"de-DE", "{\"dateStyle\":\"medium\"}", 1704844800000, 1710892800000, "10.01. – 20.03.2024"},
		{"en-GB", "{\"dateStyle\":\"long\"}", 1704844800000, 1705708800000, "10 – 20 January 2024"},
		{"en-GB", "{\"dateStyle\":\"long\"}", 1704844800000, 1710892800000, "10 January – 20 March 2024"},
		{"en-GB", "{\"dateStyle\":\"long\"}", 1704844800000, 1742428800000, "10 January 2024 – 20 March 2025"},
		{"en-GB", "{\"dateStyle\":\"medium\"}", 1704844800000, 1705708800000, "10 – 20 Jan 2024"},
		{"en-GB", "{\"dateStyle\":\"medium\"}", 1704844800000, 1710892800000, "10 Jan – 20 Mar 2024"},
		{"fr-FR", "{\"dateStyle\":\"long\"}", 1704844800000, 1705708800000, "10–20 janvier 2024"},
		{"fr-FR", "{\"dateStyle\":\"long\"}", 1704844800000, 1710892800000, "10 janvier – 20 mars 2024"},
		{"fr-FR", "{\"dateStyle\":\"long\"}", 1704844800000, 1742428800000, "10 janvier 2024 – 20 mars 2025"},
		{"ja-JP", "{\"dateStyle\":\"long\"}", 1704844800000, 1705708800000, "2024/01/10～2024/01/20"},
		{"ja-JP", "{\"dateStyle\":\"long\"}", 1704844800000, 1710892800000, "2024/01/10～2024/03/20"},
		{"ja-JP", "{\"dateStyle\":\"long\"}", 1704844800000, 1742428800000, "2024/01/10～2025/03/20"},
		{"de-DE", "{\"timeStyle\":\"short\"}", 1704880800000, 1704900600000, "10:00–15:30 Uhr"},
	}
	for _, c := range cases {
		if got := dtfFormat(t, c.locale, c.opts, "formatRange", c.a, c.b); got != c.want {
			t.Errorf("%s %s %v %v: got %q, want %q", c.locale, c.opts, c.a, c.b, got, c.want)
		}
	}
	parts := []struct {
		locale, opts string
		a, b         float64
		want         string
	}{
		{"en-US", "{\"dateStyle\":\"medium\"}", 1704844800000, 1705708800000, `[{"type":"month","value":"Jan","source":"shared"},{"type":"literal","value":" ","source":"shared"},{"type":"day","value":"10","source":"startRange"},{"type":"literal","value":" – ","source":"shared"},{"type":"day","value":"20","source":"endRange"},{"type":"literal","value":", ","source":"shared"},{"type":"year","value":"2024","source":"shared"}]`},
		{"de-DE", "{\"dateStyle\":\"long\"}", 1704844800000, 1710892800000, `[{"type":"day","value":"10","source":"startRange"},{"type":"literal","value":". ","source":"startRange"},{"type":"month","value":"Januar","source":"startRange"},{"type":"literal","value":" – ","source":"shared"},{"type":"day","value":"20","source":"endRange"},{"type":"literal","value":". ","source":"endRange"},{"type":"month","value":"März","source":"endRange"},{"type":"literal","value":" ","source":"shared"},{"type":"year","value":"2024","source":"shared"}]`},
		{"en-US", "{\"dateStyle\":\"medium\"}", 1704844800000, 1704844800005, `[{"type":"month","value":"Jan","source":"shared"},{"type":"literal","value":" ","source":"shared"},{"type":"day","value":"10","source":"shared"},{"type":"literal","value":", ","source":"shared"},{"type":"year","value":"2024","source":"shared"}]`},
	}
	for _, c := range parts {
		if got := dtfFormat(t, c.locale, c.opts, "formatRangeToParts", c.a, c.b); got != c.want {
			t.Errorf("%s %s parts:\n got %s\nwant %s", c.locale, c.opts, got, c.want)
		}
	}
}
