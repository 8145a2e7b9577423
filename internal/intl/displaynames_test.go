package intl

import "testing"

// DisplayNames through Handle: a name, JSON null for a missing name with
// fallback "none", the code with fallback "code", RangeError for a code
// that is not one.
func TestDisplayNamesReply(t *testing.T) {
	cases := map[string]string{
		`["dn",["en"],{"type":"region"},"of","GB"]`:                                   "sUnited Kingdom",
		`["dn",["en"],{"type":"region","style":"short"},"of","GB"]`:                   "sUK",
		`["dn",["de"],{"type":"language"},"of","en-GB"]`:                              "sEnglisch (Vereinigtes Königreich)",
		`["dn",["en"],{"type":"language","languageDisplay":"standard"},"of","en-GB"]`: "sEnglish (United Kingdom)",
		`["dn",["en"],{"type":"language","fallback":"none"},"of","xx-YY"]`:            "jnull",
		`["dn",["en"],{"type":"language"},"of","xx-YY"]`:                              "sxx (YY)",
		`["dn",["en"],{"type":"currency"},"of","eur"]`:                                "sEuro",
		`["dn",["en"],{"type":"currency"},"of","EURO"]`:                               `e{"e":"RangeError","m":"invalid_argument"}`,
		`["dn",["en"],{"type":"language"},"of","en-u-ca-buddhist"]`:                   `e{"e":"RangeError","m":"invalid_argument"}`,
		`["dn",["en"],{},"of","GB"]`:                                                  `e{"e":"TypeError","m":"invalid_argument"}`,
	}
	for req, want := range cases {
		if got := string(Handle([]byte(req))); got != want {
			t.Errorf("%s: got %q, want %q", req, got, want)
		}
	}
}
