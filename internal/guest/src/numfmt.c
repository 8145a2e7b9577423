/*
 * modebox: number formatting and parsing without long doubles.
 *
 * Included into quickjs.c (by patches/quickjs-y2-numbers.patch). wasi-libc
 * prints and parses doubles through software 128-bit long doubles (a few
 * microseconds a number), which QuickJS used for every non-integer
 * Number#toString (several printf/strtod pairs) and every parse.
 *
 * mb_shortest is the Schubfach algorithm (Raffaello Giulietti, "The
 * Schubfach way to render doubles", 2020), written here from the paper:
 * the shortest decimal that rounds back to the double, the closest to it
 * when several are as short, the even one of a tie. That is exactly
 * ECMA-262's Number::toString choice (and Go's strconv 'e' -1).
 *
 * mb_strtod_fast is Clinger's fast path: a decimal of at most 19
 * significant digits whose value w is at most 2^53, times or divided by
 * 10^e with e <= 22, is one correctly rounded IEEE operation on two exact
 * doubles. Everything else is left to strtod.
 */
#include "pow10.h"

typedef unsigned __int128 mb_u128;

static inline uint64_t mb_mulhi(uint64_t a, uint64_t b)
{
    return (uint64_t)(((mb_u128)a * b) >> 64);
}

/* floor(e log10(2)), floor(log10(3/4 2^e)), floor(e log2(10)) for the
   exponent ranges of doubles (the paper's section 8) */
static inline int mb_flog10pow2(int e)
{
    return (int)(((int64_t)e * 661971961083LL) >> 41);
}

static inline int mb_flog10_3q_pow2(int e)
{
    return (int)(((int64_t)e * 661971961083LL - 274743187321LL) >> 41);
}

static inline int mb_flog2pow10(int e)
{
    return (int)(((int64_t)e * 913124641741LL) >> 38);
}

#define MB_MASK63 0x7fffffffffffffffULL

/* g cp / 2^127 rounded to odd (g = g1 2^63 + g0): the scaled value with a
   sticky bit, so that comparisons with the bounds are exact */
static inline uint64_t mb_rop(uint64_t g1, uint64_t g0, uint64_t cp)
{
    uint64_t x1 = mb_mulhi(g0, cp);
    uint64_t y0 = g1 * cp;
    uint64_t y1 = mb_mulhi(g1, cp);
    uint64_t z = (y0 >> 1) + x1;
    uint64_t vbp = y1 + (z >> 63);
    return vbp | (((z & MB_MASK63) + MB_MASK63) >> 63);
}

/* the shortest decimal f 10^e for c 2^q (c > 0) */
static void mb_schubfach(uint64_t c, int q, int dk, uint64_t *pf, int *pe)
{
    const uint64_t c_min = 1ULL << 52;
    uint64_t out = c & 1; /* odd c: the bounds do not round to it */
    uint64_t cb = c << 2, cbr = cb + 2, cbl;
    uint64_t g1, g0, vb, vbl, vbr, s, t;
    int k, h;

    if (c != c_min || q == -1074) {
        cbl = cb - 2;
        k = mb_flog10pow2(q);
    } else {
        cbl = cb - 1; /* the lower neighbour is closer */
        k = mb_flog10_3q_pow2(q);
    }
    h = q + mb_flog2pow10(-k) + 2;
    g1 = mb_pow10_g[k - MB_POW10_KMIN][0];
    g0 = mb_pow10_g[k - MB_POW10_KMIN][1];
    vb = mb_rop(g1, g0, cb << h);
    vbl = mb_rop(g1, g0, cbl << h);
    vbr = mb_rop(g1, g0, cbr << h);
    s = vb >> 2;
    if (s >= 10) {
        /* one digit less: the multiples of ten around s (the paper asks
           s >= 100 for Java's rule of at least two digits; ECMA-262
           wants the shortest, one digit included) */
        uint64_t sp10 = 10 * (s / 10), tp10 = sp10 + 10;
        int upin = vbl + out <= sp10 << 2;
        int wpin = (tp10 << 2) + out <= vbr;
        if (upin != wpin) {
            *pf = upin ? sp10 : tp10;
            *pe = k + dk;
            return;
        }
    }
    t = s + 1;
    {
        int uin = vbl + out <= s << 2;
        int win = (t << 2) + out <= vbr;
        if (uin != win) {
            *pf = uin ? s : t;
            *pe = k + dk;
            return;
        }
    }
    {
        /* both round to the double: the closer one, the even one of a tie */
        int64_t cmp = (int64_t)(vb - ((s + t) << 1));
        *pf = cmp < 0 || (cmp == 0 && (s & 1) == 0) ? s : t;
        *pe = k + dk;
    }
}

/* The shortest round-trip digits of d (finite; the sign is ignored):
   writes them to buf (no trailing zeros, NUL-terminated), sets *decpt so
   that |d| = 0.DIGITS x 10^decpt, and returns the number of digits. */
static int mb_shortest(double d, char *buf, int *decpt)
{
    union { double d; uint64_t u; } bits;
    uint64_t t, c, f;
    int bq, q, e, n, i;
    char tmp[24];

    bits.d = d;
    t = bits.u & ((1ULL << 52) - 1);
    bq = (int)((bits.u >> 52) & 0x7ff);
    if (bq == 0 && t == 0) {
        buf[0] = '0';
        buf[1] = '\0';
        *decpt = 1;
        return 1;
    }
    if (bq != 0) {
        c = (1ULL << 52) | t;
        q = bq - 1075;
        if (q < 0 && q > -53 && ((c >> -q) << -q) == c) {
            f = c >> -q; /* an integer: its own digits */
            e = 0;
        } else {
            mb_schubfach(c, q, 0, &f, &e);
        }
    } else if (t < 3) {
        /* the tiniest subnormals: the table has no k for them, so work
           on 10 c with one digit less of exponent (the paper's C_TINY) */
        mb_schubfach(10 * t, -1074, -1, &f, &e);
    } else {
        mb_schubfach(t, -1074, 0, &f, &e);
    }
    /* digits of f, trailing zeros dropped into the exponent */
    n = 0;
    do {
        tmp[n++] = (char)('0' + f % 10);
        f /= 10;
    } while (f);
    i = 0;
    while (i < n - 1 && tmp[i] == '0') {
        i++;
        e++;
    }
    {
        int len = n - i, j;
        for (j = 0; j < len; j++)
            buf[j] = tmp[n - 1 - j];
        buf[len] = '\0';
        *decpt = len + e;
        return len;
    }
}

static const double mb_exact_pow10[] = {
    1e0, 1e1, 1e2, 1e3, 1e4, 1e5, 1e6, 1e7, 1e8, 1e9, 1e10, 1e11,
    1e12, 1e13, 1e14, 1e15, 1e16, 1e17, 1e18, 1e19, 1e20, 1e21, 1e22,
};

/* Parse p (what js_strtod gets: [-]digits[.digits][(e|E)[+-]digits],
   NUL-terminated) when Clinger's fast path is exact: returns 1 and sets
   *out, else 0 and the caller uses strtod. */
static int mb_strtod_fast(const char *p, double *out)
{
    uint64_t w = 0;
    int neg = 0, nd = 0, e10 = 0, seen = 0;
    double d;

    if (*p == '-') {
        neg = 1;
        p++;
    } else if (*p == '+') {
        p++;
    }
    for (; *p >= '0' && *p <= '9'; p++) {
        seen = 1;
        if (w == 0 && *p == '0')
            continue; /* leading zeros */
        if (++nd > 19)
            return 0;
        w = w * 10 + (uint64_t)(*p - '0');
    }
    if (*p == '.') {
        p++;
        for (; *p >= '0' && *p <= '9'; p++) {
            seen = 1;
            e10--;
            if (w == 0 && *p == '0')
                continue;
            if (++nd > 19)
                return 0;
            w = w * 10 + (uint64_t)(*p - '0');
        }
    }
    if (!seen)
        return 0;
    if (*p == 'e' || *p == 'E') {
        int eneg = 0, x = 0, any = 0;
        p++;
        if (*p == '-') {
            eneg = 1;
            p++;
        } else if (*p == '+') {
            p++;
        }
        for (; *p >= '0' && *p <= '9'; p++) {
            any = 1;
            if (x < 100000)
                x = x * 10 + (*p - '0');
        }
        if (!any)
            return 0;
        e10 += eneg ? -x : x;
    }
    if (*p != '\0')
        return 0;
    if (w == 0) {
        *out = neg ? -0.0 : 0.0;
        return 1;
    }
    if (w > (1ULL << 53) || e10 < -22 || e10 > 22)
        return 0;
    d = (double)w; /* exact */
    if (e10 >= 0)
        d *= mb_exact_pow10[e10];
    else
        d /= mb_exact_pow10[-e10];
    *out = neg ? -d : d;
    return 1;
}
