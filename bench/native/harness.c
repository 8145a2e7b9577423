/*
 * Native QuickJS harness for bench/peers.sh: the "limit" figure.
 *
 * Built by bench/peers.sh with gcc -O2 against the same QuickJS 2021-03-27
 * sources that modebox compiles to wasm (npm qjsc@0.3.0,
 * deps/quickjs_2021_03_27/). Nothing here is modebox code and there is no
 * sandbox, no snapshot and no host boundary: tools.add is a C function that
 * returns an already resolved promise, so "host calls" here are only
 * QuickJS promise/job overhead.
 *
 * Usage: harness N FILE.js [WARMUP]
 *
 * For each of N iterations (after WARMUP untimed warm-up runs, default 1)
 * it:
 *   1. creates a fresh JSRuntime + JSContext and defines tools.add,
 *   2. evaluates "(async function(){\nBODY\n})()", attaches then-handlers,
 *      runs pending jobs until none are left, JSON-stringifies the result,
 *   3. frees the context and runtime.
 * total   = 1 + 2 + 3 (a whole run, comparable to modebox's Engine.Run)
 * program = 2 only (the program's own time, no runtime/context setup)
 *
 * Prints one line per iteration, "iter I total_ms program_ms", then
 * "median total_ms=X program_ms=Y n=N" and "result JSON".
 */
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <time.h>

#include "quickjs.h"

static double now_ms(void)
{
    struct timespec ts;
    clock_gettime(CLOCK_MONOTONIC, &ts);
    return (double)ts.tv_sec * 1e3 + (double)ts.tv_nsec / 1e6;
}

static char *read_file(const char *path, size_t *len)
{
    FILE *f = fopen(path, "rb");
    char *buf;
    long n;

    if (!f)
        return NULL;
    if (fseek(f, 0, SEEK_END) != 0 || (n = ftell(f)) < 0 ||
        fseek(f, 0, SEEK_SET) != 0) {
        fclose(f);
        return NULL;
    }
    buf = malloc((size_t)n + 1);
    if (!buf || fread(buf, 1, (size_t)n, f) != (size_t)n) {
        free(buf);
        fclose(f);
        return NULL;
    }
    buf[n] = '\0';
    fclose(f);
    *len = (size_t)n;
    return buf;
}

/* tools.add({a, b}) -> Promise resolved with a + b. */
static JSValue tools_add(JSContext *ctx, JSValueConst this_val, int argc,
                         JSValueConst *argv)
{
    double a = 0, b = 0;
    JSValue va, vb, funcs[2], promise, sum, r;

    if (argc < 1 || !JS_IsObject(argv[0]))
        return JS_ThrowTypeError(ctx, "tools.add: expected {a, b}");
    va = JS_GetPropertyStr(ctx, argv[0], "a");
    vb = JS_GetPropertyStr(ctx, argv[0], "b");
    if (JS_ToFloat64(ctx, &a, va) < 0 || JS_ToFloat64(ctx, &b, vb) < 0) {
        JS_FreeValue(ctx, va);
        JS_FreeValue(ctx, vb);
        return JS_EXCEPTION;
    }
    JS_FreeValue(ctx, va);
    JS_FreeValue(ctx, vb);

    promise = JS_NewPromiseCapability(ctx, funcs);
    if (JS_IsException(promise))
        return promise;
    sum = JS_NewFloat64(ctx, a + b);
    r = JS_Call(ctx, funcs[0], JS_UNDEFINED, 1, (JSValueConst *)&sum);
    JS_FreeValue(ctx, sum);
    JS_FreeValue(ctx, r);
    JS_FreeValue(ctx, funcs[0]);
    JS_FreeValue(ctx, funcs[1]);
    return promise;
}

/* Settlement of the program's promise. */
static int settled;      /* 0 pending, 1 fulfilled, 2 rejected */
static JSValue outcome;

static JSValue on_settle(JSContext *ctx, JSValueConst this_val, int argc,
                         JSValueConst *argv, int magic)
{
    settled = magic;
    outcome = JS_DupValue(ctx, argc > 0 ? argv[0] : JS_UNDEFINED);
    return JS_UNDEFINED;
}

static void die_exception(JSContext *ctx, const char *what)
{
    JSValue e = JS_GetException(ctx);
    const char *s = JS_ToCString(ctx, e);
    fprintf(stderr, "harness: %s: %s\n", what, s ? s : "(exception)");
    exit(1);
}

/* One run. Returns the JSON of the result in *json (malloc'd) when asked. */
static void one_run(const char *wrapped, size_t wlen, double *total,
                    double *program, char **json)
{
    double t0, t1, t2, t3;
    JSRuntime *rt;
    JSContext *ctx;
    JSValue global, tools, p, then, handlers[2], r, str;
    JSContext *jctx;
    const char *s;
    size_t slen;
    int err;

    t0 = now_ms();
    rt = JS_NewRuntime();
    ctx = JS_NewContext(rt);
    if (!rt || !ctx) {
        fprintf(stderr, "harness: cannot create runtime/context\n");
        exit(1);
    }
    global = JS_GetGlobalObject(ctx);
    tools = JS_NewObject(ctx);
    JS_SetPropertyStr(ctx, tools, "add",
                      JS_NewCFunction(ctx, tools_add, "add", 1));
    JS_SetPropertyStr(ctx, global, "tools", tools);
    JS_FreeValue(ctx, global);

    t1 = now_ms();
    settled = 0;
    outcome = JS_UNDEFINED;
    p = JS_Eval(ctx, wrapped, wlen, "program.js", JS_EVAL_TYPE_GLOBAL);
    if (JS_IsException(p))
        die_exception(ctx, "eval");
    handlers[0] = JS_NewCFunctionMagic(ctx, on_settle, "ok", 1,
                                       JS_CFUNC_generic_magic, 1);
    handlers[1] = JS_NewCFunctionMagic(ctx, on_settle, "fail", 1,
                                       JS_CFUNC_generic_magic, 2);
    then = JS_GetPropertyStr(ctx, p, "then");
    r = JS_Call(ctx, then, p, 2, (JSValueConst *)handlers);
    if (JS_IsException(r))
        die_exception(ctx, "then");
    JS_FreeValue(ctx, r);
    JS_FreeValue(ctx, then);
    JS_FreeValue(ctx, handlers[0]);
    JS_FreeValue(ctx, handlers[1]);
    JS_FreeValue(ctx, p);

    while ((err = JS_ExecutePendingJob(rt, &jctx)) != 0) {
        if (err < 0)
            die_exception(jctx, "job");
    }
    if (settled == 0) {
        fprintf(stderr, "harness: program did not settle\n");
        exit(1);
    }
    if (settled == 2) {
        s = JS_ToCString(ctx, outcome);
        fprintf(stderr, "harness: program rejected: %s\n", s ? s : "?");
        exit(1);
    }
    str = JS_JSONStringify(ctx, outcome, JS_UNDEFINED, JS_UNDEFINED);
    if (JS_IsException(str))
        die_exception(ctx, "JSON.stringify");
    s = JS_ToCStringLen(ctx, &slen, str);
    if (json) {
        *json = malloc(slen + 1);
        memcpy(*json, s, slen);
        (*json)[slen] = '\0';
    }
    JS_FreeCString(ctx, s);
    JS_FreeValue(ctx, str);
    JS_FreeValue(ctx, outcome);
    outcome = JS_UNDEFINED;
    t2 = now_ms();

    JS_FreeContext(ctx);
    JS_FreeRuntime(rt);
    t3 = now_ms();

    *total = t3 - t0;
    *program = t2 - t1;
}

static int cmp_double(const void *a, const void *b)
{
    double x = *(const double *)a, y = *(const double *)b;
    return (x > y) - (x < y);
}

static double median(double *v, int n)
{
    qsort(v, (size_t)n, sizeof(double), cmp_double);
    return n % 2 ? v[n / 2] : (v[n / 2 - 1] + v[n / 2]) / 2;
}

int main(int argc, char **argv)
{
    static const char head[] = "(async function(){\n";
    static const char tail[] = "\n})()";
    char *body, *wrapped, *json = NULL;
    size_t blen, wlen;
    double *tot, *prog, t, pr;
    int n, i, warm = 1;

    if ((argc != 3 && argc != 4) || (n = atoi(argv[1])) <= 0 ||
        (argc == 4 && (warm = atoi(argv[3])) <= 0)) {
        fprintf(stderr, "usage: %s N FILE.js [WARMUP]\n", argv[0]);
        return 2;
    }
    body = read_file(argv[2], &blen);
    if (!body) {
        fprintf(stderr, "harness: cannot read %s\n", argv[2]);
        return 1;
    }
    wlen = sizeof(head) - 1 + blen + sizeof(tail) - 1;
    wrapped = malloc(wlen + 1);
    memcpy(wrapped, head, sizeof(head) - 1);
    memcpy(wrapped + sizeof(head) - 1, body, blen);
    memcpy(wrapped + sizeof(head) - 1 + blen, tail, sizeof(tail));

    tot = calloc((size_t)n, sizeof(double));
    prog = calloc((size_t)n, sizeof(double));
    one_run(wrapped, wlen, &t, &pr, &json); /* warm-up, untimed */
    for (i = 1; i < warm; i++) {
        free(json);
        json = NULL;
        one_run(wrapped, wlen, &t, &pr, &json);
    }
    for (i = 0; i < n; i++) {
        one_run(wrapped, wlen, &tot[i], &prog[i], NULL);
        printf("iter %d %.6f %.6f\n", i, tot[i], prog[i]);
    }
    t = median(tot, n);
    pr = median(prog, n);
    printf("median total_ms=%.6f program_ms=%.6f n=%d\n", t, pr, n);
    printf("result %s\n", json);
    free(json);
    free(tot);
    free(prog);
    free(wrapped);
    free(body);
    return 0;
}
