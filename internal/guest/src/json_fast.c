/*
 * modebox: a fast path for JSON.stringify of plain data.
 *
 * Included into quickjs.c (by patches/quickjs-y1-fast-json.patch) just
 * before JS_JSONStringify, so it uses QuickJS's internals directly.
 *
 * QuickJS's own JSON.stringify follows the specification step by step:
 * for every object it builds an array of its keys, looks up toJSON,
 * converts each array index to a string, keeps a stack array for the cycle
 * check and allocates the quoted form of every key and string. Under wasm
 * that is about five times the native cost. For plain data none of it
 * can have an effect, so this walk writes the text directly.
 *
 * The walk runs no user code at all: it reads only plain objects (class
 * Object, prototype Object.prototype or null), dense arrays (prototype
 * Array.prototype), strings, numbers, booleans and null, and only data
 * properties, with no toJSON anywhere on the way. On anything else (a
 * getter, a Proxy, a Map, a BigInt, a function, a toJSON, an array index
 * key, a sparse array, nesting deeper than JF_MAX_DEPTH, a replacer, a
 * space that is an object) it gives up before doing anything observable,
 * and the caller runs the specification's algorithm from the start. The
 * text is the one that algorithm gives: same key order, same escapes
 * (lone surrogates as \udxxx), same number text (JS_ToString), same gap.
 *
 * The same walk writes a host call's arguments (JS_ModeboxStringifyPlainUTF8)
 * straight into a byte buffer as UTF-8, what JS_ToCStringLen would make of
 * the string: no string is made, allocated or copied for the call.
 */

#define JF_MAX_DEPTH 64

/* results of a walk step */
#define JF_OK 0
#define JF_ERR (-1)  /* an exception is pending (out of memory) */
#define JF_BAIL 1    /* not plain data: use the full algorithm */

/* UTF-8 bytes being written: buf holds len of size bytes; buf is the
   caller's initial buffer until it grows into one from js_malloc. */
typedef struct {
    uint8_t *buf;
    size_t len, size;
    uint8_t *initial;
} JFBytes;

typedef struct {
    JSContext *ctx;
    StringBuffer *b; /* the text as a string (JSON.stringify), or */
    JFBytes *u;      /* the text as UTF-8 bytes (a host call's arguments) */
    JSString *gap; /* NULL when there is no gap */
    int gap_len;
    JSObject *obj_proto, *arr_proto;
} JSONFast;

static const char jf_hex[] = "0123456789abcdef";

/* jf_room when u has less than n bytes free: grow it. */
static no_inline int jf_grow(JSContext *ctx, JFBytes *u, size_t n)
{
    size_t size;
    uint8_t *p;
    if (n > JS_STRING_LEN_MAX - u->len) {
        JS_ThrowInternalError(ctx, "string too long");
        return -1;
    }
    size = u->len + n;
    if (size < u->size * 2)
        size = u->size * 2;
    p = js_malloc(ctx, size);
    if (!p)
        return -1;
    memcpy(p, u->buf, u->len);
    if (u->buf != u->initial)
        js_free(ctx, u->buf);
    u->buf = p;
    u->size = size;
    return 0;
}

/* Room for n more bytes in u. */
static force_inline int jf_room(JSContext *ctx, JFBytes *u, size_t n)
{
    if (likely(u->size - u->len >= n))
        return 0;
    return jf_grow(ctx, u, n);
}

/* ASCII text */
static int jf_write_ascii(JSONFast *jf, const char *s, size_t n)
{
    JFBytes *u = jf->u;
    if (!u)
        return string_buffer_write8(jf->b, (const uint8_t *)s, n);
    if (jf_room(jf->ctx, u, n))
        return -1;
    memcpy(u->buf + u->len, s, n);
    u->len += n;
    return 0;
}

static force_inline int jf_putc(JSONFast *jf, char c)
{
    JFBytes *u = jf->u;
    if (!u)
        return string_buffer_putc8(jf->b, (uint8_t)c);
    if (unlikely(u->len == u->size) && jf_grow(jf->ctx, u, 1))
        return -1;
    u->buf[u->len++] = (uint8_t)c;
    return 0;
}

static int jf_puts(JSONFast *jf, const char *s)
{
    return jf_write_ascii(jf, s, strlen(s));
}

/* Latin-1 characters */
static int jf_write8(JSONFast *jf, const uint8_t *s, uint32_t n)
{
    JFBytes *u = jf->u;
    uint32_t i, wide = 0;
    uint8_t *q;
    if (!u)
        return string_buffer_write8(jf->b, s, n);
    for (i = 0; i < n; i++)
        wide += s[i] >> 7;
    if (jf_room(jf->ctx, u, (size_t)n + wide))
        return -1;
    q = u->buf + u->len;
    if (!wide) {
        memcpy(q, s, n);
        u->len += n;
        return 0;
    }
    for (i = 0; i < n; i++) {
        uint8_t c = s[i];
        if (c < 0x80) {
            *q++ = c;
        } else {
            *q++ = (c >> 6) | 0xc0;
            *q++ = (c & 0x3f) | 0x80;
        }
    }
    u->len = q - u->buf;
    return 0;
}

/* UTF-16 code units (a surrogate pair becomes one character, a lone
   surrogate three bytes, as JS_ToCStringLen writes them; jf_quote gives
   only pairs) */
static int jf_write16(JSONFast *jf, const uint16_t *s, uint32_t n)
{
    JFBytes *u = jf->u;
    uint32_t i, c;
    size_t need = 0;
    uint8_t *q;
    if (!u)
        return string_buffer_write16(jf->b, s, n);
    for (i = 0; i < n; i++) {
        c = s[i];
        if (c < 0x80)
            need += 1;
        else if (c < 0x800)
            need += 2;
        else if (c >= 0xd800 && c < 0xdc00 && i + 1 < n &&
                 s[i + 1] >= 0xdc00 && s[i + 1] < 0xe000)
            need += 4, i++;
        else
            need += 3;
    }
    if (jf_room(jf->ctx, u, need))
        return -1;
    q = u->buf + u->len;
    for (i = 0; i < n; i++) {
        c = s[i];
        if (c < 0x80) {
            *q++ = c;
            continue;
        }
        if (c >= 0xd800 && c < 0xdc00 && i + 1 < n &&
            s[i + 1] >= 0xdc00 && s[i + 1] < 0xe000) {
            c = (((c & 0x3ff) << 10) | (s[i + 1] & 0x3ff)) + 0x10000;
            i++;
        }
        q += unicode_to_utf8(q, c);
    }
    u->len = q - u->buf;
    return 0;
}

static int jf_escape(JSONFast *jf, uint32_t c)
{
    char e[6];
    switch (c) {
    case '\t': c = 't'; goto two;
    case '\r': c = 'r'; goto two;
    case '\n': c = 'n'; goto two;
    case '\b': c = 'b'; goto two;
    case '\f': c = 'f'; goto two;
    case '"':
    case '\\':
    two:
        e[0] = '\\';
        e[1] = (char)c;
        return jf_write_ascii(jf, e, 2);
    default:
        e[0] = '\\';
        e[1] = 'u';
        e[2] = jf_hex[(c >> 12) & 15];
        e[3] = jf_hex[(c >> 8) & 15];
        e[4] = jf_hex[(c >> 4) & 15];
        e[5] = jf_hex[c & 15];
        return jf_write_ascii(jf, e, 6);
    }
}

/* The quoted form of p, as JS_ToQuotedString writes it. */
static int jf_quote(JSONFast *jf, const JSString *p)
{
    uint32_t i, start, len = p->len;

    if (jf_putc(jf, '"'))
        return -1;
    if (!p->is_wide_char) {
        const uint8_t *s = p->u.str8;
        for (i = start = 0; i < len; i++) {
            uint32_t c = s[i];
            if (c >= 0x20 && c != '"' && c != '\\')
                continue;
            if (i > start && jf_write8(jf, s + start, i - start))
                return -1;
            if (jf_escape(jf, c))
                return -1;
            start = i + 1;
        }
        if (i > start && jf_write8(jf, s + start, i - start))
            return -1;
    } else {
        const uint16_t *s = p->u.str16;
        for (i = start = 0; i < len; i++) {
            uint32_t c = s[i];
            if (c >= 0x20 && c != '"' && c != '\\' && (c < 0xd800 || c >= 0xe000))
                continue;
            if (c >= 0xd800 && c < 0xdc00 && i + 1 < len &&
                s[i + 1] >= 0xdc00 && s[i + 1] < 0xe000) {
                i++; /* a surrogate pair is kept as it is */
                continue;
            }
            if (i > start && jf_write16(jf, s + start, i - start))
                return -1;
            if (jf_escape(jf, c))
                return -1;
            start = i + 1;
        }
        if (i > start && jf_write16(jf, s + start, i - start))
            return -1;
    }
    return jf_putc(jf, '"');
}

static no_inline int jf_newline_gap(JSONFast *jf, int depth)
{
    int i;
    if (string_buffer_putc8(jf->b, '\n')) /* a gap only in a string */
        return -1;
    for (i = 0; i < depth; i++) {
        if (string_buffer_concat(jf->b, jf->gap, 0, jf->gap_len))
            return -1;
    }
    return 0;
}

/* A newline and depth gaps, when there is a gap. */
static force_inline int jf_newline(JSONFast *jf, int depth)
{
    if (likely(!jf->gap))
        return 0;
    return jf_newline_gap(jf, depth);
}

static int jf_int(JSONFast *jf, int32_t v)
{
    char buf[16];
    int n = 0, i;
    uint32_t u = v < 0 ? -(uint32_t)v : (uint32_t)v;
    char tmp[12];
    int k = 0;
    do {
        tmp[k++] = (char)('0' + u % 10);
        u /= 10;
    } while (u);
    if (v < 0)
        buf[n++] = '-';
    for (i = k - 1; i >= 0; i--)
        buf[n++] = tmp[i];
    return jf_write_ascii(jf, buf, n);
}

/* 1 when an own toJSON of p could be found (present in any form) */
static int jf_has_tojson(JSObject *p)
{
    JSProperty *pr;
    return find_own_property(&pr, p, JS_ATOM_toJSON) != NULL;
}

/* What JSON does with v inside an object (skip the property) or an array
   (write null): 1 for undefined and symbols. Functions are not plain data
   (their toJSON is looked up), so they make the walk give up. */
static int jf_skipped(JSValueConst v)
{
    int tag = JS_VALUE_GET_NORM_TAG(v);
    return tag == JS_TAG_UNDEFINED || tag == JS_TAG_SYMBOL;
}

static int jf_value(JSONFast *jf, JSValueConst v, int depth);

static int jf_array(JSONFast *jf, JSObject *p, int depth)
{
    JSValueConst lenv;
    uint32_t i, len;
    int r;

    if (!p->fast_array || p->shape->proto != jf->arr_proto || jf_has_tojson(p))
        return JF_BAIL;
    lenv = p->prop[0].u.value;
    if (JS_VALUE_GET_NORM_TAG(lenv) != JS_TAG_INT ||
        (uint32_t)JS_VALUE_GET_INT(lenv) != p->u.array.count)
        return JF_BAIL; /* holes past the elements read the prototype */
    len = p->u.array.count;
    if (jf_putc(jf, '['))
        return JF_ERR;
    for (i = 0; i < len; i++) {
        JSValueConst e;
        if (i > 0 && jf_putc(jf, ','))
            return JF_ERR;
        if (jf_newline(jf, depth + 1))
            return JF_ERR;
        /* re-read each time: the array cannot change (no user code runs),
           but keep the bound check next to the read */
        if (!p->fast_array || i >= p->u.array.count)
            return JF_BAIL;
        e = p->u.array.u.values[i];
        if (jf_skipped(e)) {
            if (jf_puts(jf, "null"))
                return JF_ERR;
            continue;
        }
        r = jf_value(jf, e, depth + 1);
        if (r != JF_OK)
            return r;
    }
    if (len > 0 && jf_newline(jf, depth))
        return JF_ERR;
    if (jf_putc(jf, ']'))
        return JF_ERR;
    return JF_OK;
}

/* 0 when atom cannot be an array index: neither an integer atom nor a
   string that starts with a digit (the test before JS_AtomIsArrayIndex,
   which parses the string). */
static force_inline int jf_maybe_index(JSRuntime *rt, JSAtom atom)
{
    JSAtomStruct *a;
    uint32_t c;
    if (__JS_AtomIsTaggedInt(atom))
        return 1;
    a = rt->atom_array[atom];
    if (a->len == 0)
        return 0;
    c = a->is_wide_char ? a->u.str16[0] : a->u.str8[0];
    return c >= '0' && c <= '9';
}

static int jf_object(JSONFast *jf, JSObject *p, int depth)
{
    JSRuntime *rt = jf->ctx->rt;
    JSShape *sh = p->shape;
    JSShapeProperty *prs;
    uint32_t i, n;
    int r, has_content = 0;

    if ((sh->proto != NULL && sh->proto != jf->obj_proto) || jf_has_tojson(p))
        return JF_BAIL;
    /* first pass: only data properties, no array index keys (which JSON
       would order first); nothing is written yet */
    n = sh->prop_count;
    for (i = 0, prs = get_shape_prop(sh); i < n; i++, prs++) {
        JSAtom atom = prs->atom;
        uint32_t idx;
        if (atom == JS_ATOM_NULL || !(prs->flags & JS_PROP_ENUMERABLE))
            continue;
        if ((prs->flags & JS_PROP_TMASK) != JS_PROP_NORMAL)
            return JF_BAIL;
        if (jf_maybe_index(rt, atom) && JS_AtomIsArrayIndex(jf->ctx, &idx, atom))
            return JF_BAIL;
    }
    if (jf_putc(jf, '{'))
        return JF_ERR;
    for (i = 0, prs = get_shape_prop(sh); i < n; i++, prs++) {
        JSAtom atom = prs->atom;
        JSValueConst v;
        JSAtomStruct *a;
        if (atom == JS_ATOM_NULL || !(prs->flags & JS_PROP_ENUMERABLE))
            continue;
        a = rt->atom_array[atom];
        if (a->atom_type != JS_ATOM_TYPE_STRING)
            continue; /* symbols are not keys in JSON */
        v = p->prop[i].u.value;
        if (jf_skipped(v))
            continue;
        if (has_content && jf_putc(jf, ','))
            return JF_ERR;
        if (jf_newline(jf, depth + 1) || jf_quote(jf, a) ||
            jf_putc(jf, ':') ||
            (jf->gap && string_buffer_putc8(jf->b, ' ')))
            return JF_ERR;
        r = jf_value(jf, v, depth + 1);
        if (r != JF_OK)
            return r;
        has_content = 1;
    }
    if (has_content && jf_newline(jf, depth))
        return JF_ERR;
    if (jf_putc(jf, '}'))
        return JF_ERR;
    return JF_OK;
}

/* Write v (not undefined nor a symbol). */
static int jf_value(JSONFast *jf, JSValueConst v, int depth)
{
    switch (JS_VALUE_GET_NORM_TAG(v)) {
    case JS_TAG_INT:
        return jf_int(jf, JS_VALUE_GET_INT(v)) ? JF_ERR : JF_OK;
    case JS_TAG_BOOL:
        return jf_puts(jf, JS_VALUE_GET_BOOL(v) ? "true" : "false") ? JF_ERR : JF_OK;
    case JS_TAG_NULL:
        return jf_puts(jf, "null") ? JF_ERR : JF_OK;
    case JS_TAG_STRING:
        return jf_quote(jf, JS_VALUE_GET_STRING(v)) ? JF_ERR : JF_OK;
    case JS_TAG_OBJECT: {
        JSObject *p = JS_VALUE_GET_OBJ(v);
        if (depth >= JF_MAX_DEPTH)
            return JF_BAIL; /* maybe a cycle: the full algorithm reports it */
        if (p->class_id == JS_CLASS_OBJECT)
            return jf_object(jf, p, depth);
        if (p->class_id == JS_CLASS_ARRAY)
            return jf_array(jf, p, depth);
        return JF_BAIL;
    }
    case JS_TAG_FLOAT64: {
        double d = JS_VALUE_GET_FLOAT64(v);
        if (!isfinite(d))
            return jf_puts(jf, "null") ? JF_ERR : JF_OK;
        if (jf->u) { /* JS_ToString's text, as js_dtoa makes it */
            char buf[JS_DTOA_BUF_SIZE];
            js_dtoa1(buf, d, 10, 0, JS_DTOA_VAR_FORMAT);
            return jf_puts(jf, buf) ? JF_ERR : JF_OK;
        }
        return string_buffer_concat_value(jf->b, v) ? JF_ERR : JF_OK;
    }
    default:
        return JF_BAIL; /* BigInt, BigFloat, ...: toJSON is looked up */
    }
}

/* Start a walk: 0 when toJSON on Object.prototype or Array.prototype, or
   Array.prototype moved under another prototype, means user code could
   run. */
static int jf_begin(JSContext *ctx, JSONFast *jf)
{
    JSObject *op, *ap;
    op = JS_VALUE_GET_OBJ(ctx->class_proto[JS_CLASS_OBJECT]);
    ap = JS_VALUE_GET_OBJ(ctx->class_proto[JS_CLASS_ARRAY]);
    if (jf_has_tojson(op) || jf_has_tojson(ap) || ap->shape->proto != op)
        return 0;
    jf->ctx = ctx;
    jf->b = NULL;
    jf->u = NULL;
    jf->gap = NULL;
    jf->gap_len = 0;
    jf->obj_proto = op;
    jf->arr_proto = ap;
    return 1;
}

/* The fast path of JSON.stringify(obj, replacer, space0). Returns 1 with
   *out set (a string, undefined, or an exception) when it applies, 0
   when the full algorithm must run. */
static int js_json_fast(JSContext *ctx, JSValueConst obj, JSValueConst replacer,
                        JSValueConst space0, JSValue *out)
{
    StringBuffer b_s;
    JSONFast jf;
    JSValue gapv = JS_UNDEFINED;
    int r, tag;

    if (JS_IsObject(replacer) || JS_IsObject(space0))
        return 0;
    if (!jf_begin(ctx, &jf))
        return 0;
    tag = JS_VALUE_GET_NORM_TAG(obj);
    if (tag == JS_TAG_UNDEFINED || tag == JS_TAG_SYMBOL) {
        *out = JS_UNDEFINED;
        return 1;
    }
    jf.b = &b_s;
    tag = JS_VALUE_GET_NORM_TAG(space0);
    if (tag == JS_TAG_INT || tag == JS_TAG_FLOAT64) {
        int n;
        if (JS_ToInt32Clamp(ctx, &n, space0, 0, 10, 0))
            return 0;
        if (n > 0) {
            gapv = JS_NewStringLen(ctx, "          ", n);
            if (JS_IsException(gapv)) {
                *out = JS_EXCEPTION;
                return 1;
            }
        }
    } else if (tag == JS_TAG_STRING && JS_VALUE_GET_STRING(space0)->len > 0) {
        gapv = JS_DupValue(ctx, space0);
    }
    if (!JS_IsUndefined(gapv)) {
        jf.gap = JS_VALUE_GET_STRING(gapv);
        jf.gap_len = min_int(jf.gap->len, 10);
    }
    if (string_buffer_init(ctx, jf.b, 64)) {
        JS_FreeValue(ctx, gapv);
        *out = JS_EXCEPTION;
        return 1;
    }
    r = jf_value(&jf, obj, 0);
    JS_FreeValue(ctx, gapv);
    if (r == JF_OK) {
        *out = string_buffer_end(jf.b);
        return 1;
    }
    string_buffer_free(jf.b);
    if (r == JF_ERR) {
        *out = JS_EXCEPTION;
        return 1;
    }
    return 0;
}

/* For the glue: JSON.stringify(v) when v is plain data (1, *out set),
   else 0 and nothing happened. */
int JS_ModeboxStringifyPlain(JSContext *ctx, JSValueConst v, JSValue *out)
{
    return js_json_fast(ctx, v, JS_UNDEFINED, JS_UNDEFINED, out);
}

/* For the glue (a host call's arguments): when v is plain data, append
   the UTF-8 of JSON.stringify(v) (null when that is undefined) to the
   *plen bytes at *pbuf, which hold *psize; returns 1, or -1 with an
   exception pending (out of memory). Returns 0 when v is not plain
   data: nothing observable happened, and the bytes past *plen are
   garbage. Either way *pbuf may have been replaced by a larger buffer
   from js_malloc, which the caller frees when it is not initial. */
int JS_ModeboxStringifyPlainUTF8(JSContext *ctx, JSValueConst v,
                                 uint8_t **pbuf, size_t *plen, size_t *psize,
                                 uint8_t *initial)
{
    JSONFast jf;
    JFBytes u;
    int r, tag;

    if (!jf_begin(ctx, &jf))
        return 0;
    u.buf = *pbuf;
    u.len = *plen;
    u.size = *psize;
    u.initial = initial;
    jf.u = &u;
    tag = JS_VALUE_GET_NORM_TAG(v);
    if (tag == JS_TAG_UNDEFINED || tag == JS_TAG_SYMBOL)
        r = jf_puts(&jf, "null") ? JF_ERR : JF_OK;
    else
        r = jf_value(&jf, v, 0);
    *pbuf = u.buf;
    *psize = u.size;
    if (r == JF_OK)
        *plen = u.len;
    return r == JF_OK ? 1 : r == JF_ERR ? -1 : 0;
}
