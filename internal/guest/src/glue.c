/*
 * modebox guest glue: the bridge between QuickJS and the host.
 *
 * The module imports exactly two functions from "env":
 *   host_event(kind, id, ptr, len) -> i32   every message to the host
 *   host_clock() -> f64                     milliseconds since the epoch
 *
 * and exports mb_alloc, mb_free, mb_init, mb_setup, mb_run and mb_settle. The JS side
 * of the bridge lives in the prelude, which mb_init evaluates once; the
 * host snapshots memory after that, so each run starts from there.
 */
#include <stdint.h>
#include <stdarg.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <malloc.h>
#include <time.h>
#include <sys/time.h>

#include "quickjs.h"

#define IMPORT(name) __attribute__((import_module("env"), import_name(#name)))
#define EXPORT(name) __attribute__((export_name(#name)))

IMPORT(host_event) int32_t host_event(int32_t kind, int32_t id,
                                      const void *ptr, int32_t len);
IMPORT(host_clock) double host_clock(void);

/* Event kinds. Keep in sync with internal/engine/abi.go. */
enum {
    EV_CALL = 1,   /* id = call id, payload = tool "\n" JSON args */
    EV_LOG = 2,    /* id = level, payload = text */
    EV_RESULT = 3, /* payload = JSON of the value, "" for undefined */
    EV_ERROR = 4,  /* id = error class, payload = JSON error or "" */
    EV_TICK = 5,   /* interrupt poll: answer 1 to stop the run */
    EV_POLL = 6,   /* allocator poll: answer 1 to stop the run */
    EV_PANIC = 7,  /* payload = message; a trap follows */
    EV_PRINT = 8,  /* text QuickJS printed itself */
    EV_SYNC = 9,   /* payload = request; answer = length of the reply, -1 = stop */
    EV_SYNC_READ = 10, /* id = length; the host writes the reply to ptr */
};

/* EV_ERROR ids */
enum {
    ERR_THROWN = 0,      /* payload holds the formatted error */
    ERR_INTERRUPTED = 1, /* the host asked to stop */
    ERR_UNFORMATTED = 2, /* the error could not be formatted */
    ERR_COMPILE = 3,     /* the program did not compile; payload as for 0 */
};

/* Answers to events. */
enum { ANSWER_GO = 0, ANSWER_STOP = 1 };

/* allocations between two allocator polls */
#define POLL_EVERY 128

static JSRuntime *rt;
static JSContext *ctx;
static JSValue hook_tools, hook_builtins, hook_start, hook_settle, hook_format;
/* The function the running program compiled to (mb_run); the zero value
   (an int) in the snapshot. */
static JSValue program_fn;

/* Host calls in flight: the promise and the tool's name, by call id, and
   the program's frame that made the call (its function and instruction,
   for the error a failed call rejects with; undefined if none). */
typedef struct {
    int32_t id;
    JSValue promise, tool, site;
    uint32_t site_pc;
} pending_call;
/* the prelude's file name: its frames are not a call's site */
static JSAtom prelude_atom;
static pending_call *calls;
static int calls_len, calls_cap;
static int32_t last_call_id;
static int stopped;
/* set when the run's memory cap refused an allocation: an exception that
   escapes as null afterwards is QuickJS's out-of-memory error that could
   not be made (JS_ThrowOutOfMemory throws null then) */
static int mem_refused;
static uint32_t alloc_count;

/* ---- time, from the clock import ---- */

int gettimeofday(struct timeval *restrict tv, void *restrict tz)
{
    double ms = host_clock();
    int64_t us = (int64_t)(ms * 1000.0);
    (void)tz;
    tv->tv_sec = (time_t)(us / 1000000);
    tv->tv_usec = (suseconds_t)(us % 1000000);
    if (tv->tv_usec < 0) {
        tv->tv_usec += 1000000;
        tv->tv_sec--;
    }
    return 0;
}

time_t time(time_t *t)
{
    time_t now = (time_t)(host_clock() / 1000.0);
    if (t)
        *t = now;
    return now;
}

/* ---- printing: QuickJS's own prints go to the event channel ---- */

static void print_event(const char *s, size_t n)
{
    host_event(EV_PRINT, 0, s, (int32_t)n);
}

static int vprint_event(const char *fmt, va_list ap)
{
    char buf[512];
    int n = vsnprintf(buf, sizeof(buf), fmt, ap);
    if (n > 0)
        print_event(buf, n < (int)sizeof(buf) ? (size_t)n : sizeof(buf) - 1);
    return n;
}

int fprintf(FILE *restrict f, const char *restrict fmt, ...)
{
    va_list ap;
    int n;
    (void)f;
    va_start(ap, fmt);
    n = vprint_event(fmt, ap);
    va_end(ap);
    return n;
}

int printf(const char *restrict fmt, ...)
{
    va_list ap;
    int n;
    va_start(ap, fmt);
    n = vprint_event(fmt, ap);
    va_end(ap);
    return n;
}

int fputs(const char *restrict s, FILE *restrict f)
{
    (void)f;
    print_event(s, strlen(s));
    return 0;
}

int puts(const char *s)
{
    print_event(s, strlen(s));
    return 0;
}

int fputc(int c, FILE *f)
{
    char ch = (char)c;
    (void)f;
    print_event(&ch, 1);
    return c;
}

int putchar(int c)
{
    return fputc(c, stdout);
}

int putc(int c, FILE *f)
{
    return fputc(c, f);
}

/* A failed assertion ends the run: report, then trap. */
_Noreturn void __assert_fail(const char *expr, const char *file, int line,
                             const char *func)
{
    char buf[512];
    int n = snprintf(buf, sizeof(buf), "assertion failed: %s (%s:%d %s)",
                     expr, file, line, func);
    if (n < 0)
        n = 0;
    if (n >= (int)sizeof(buf))
        n = sizeof(buf) - 1;
    host_event(EV_PANIC, 0, buf, n);
    __builtin_trap();
}

/* ---- stopping ---- */

static void request_stop(void)
{
    stopped = 1;
    if (ctx)
        JS_RequestInterrupt(ctx);
}

static int interrupt_handler(JSRuntime *r, void *opaque)
{
    (void)r;
    (void)opaque;
    if (stopped)
        return 1;
    if (host_event(EV_TICK, 0, NULL, 0) != ANSWER_GO) {
        stopped = 1;
        return 1;
    }
    return 0;
}

/* ---- memory: QuickJS's accounting, plus a poll of the host ---- */

#define MALLOC_OVERHEAD 8

/* Returns 1 (fail this allocation) when the host says stop, so a long
   native loop that allocates ends with an exception; the interrupt that
   follows makes it uncatchable. Other allocations still succeed, so the
   error objects themselves can be made. */
static int alloc_poll(void)
{
    if (++alloc_count >= POLL_EVERY) {
        alloc_count = 0;
        if (host_event(EV_POLL, 0, NULL, 0) != ANSWER_GO) {
            request_stop();
            return 1;
        }
    }
    return 0;
}

/* The usable size of block p, which is in use: what malloc_usable_size
   returns, read inline. wasi-libc's dlmalloc (32-bit, no footers, no
   mmap) keeps a chunk's size in the word before the block (low 3 bits
   flags), and an in-use chunk's usable size is its size less that word.
   chunk_size is the chunk's size. */
static inline size_t chunk_size(const void *p)
{
    /* volatile: to the compiler, the word before a block malloc returned
       is outside any object, and a plain load of it may be folded away */
    return ((const volatile uint32_t *)p)[-1] & ~(uint32_t)7;
}

static inline size_t block_size(const void *p)
{
    return chunk_size(p) - 4;
}

/* ---- the snapshot's heap: its free chunks plugged ----

   After init the heap is full of small free chunks (what the prelude's
   compilation freed), scattered over every page of it. A run's memory
   maps the snapshot copy-on-write, so a run whose allocations land in
   those holes copies a page for each: most of the heap. mb_init therefore
   allocates ("plugs") every free chunk before the snapshot, so that a run
   allocates from the few big free blocks left after init (the prelude's
   buffer, freed by the host after mb_init) and from the top of the heap:
   a few pages, contiguous. The plugs are given back (unplug) when a run
   is about to need more than the top of the heap holds, so no run grows
   its memory sooner than it would have.

   Reads two facts of wasi-libc's dlmalloc (32-bit, no footers), only to
   find where the top of the heap starts: a chunk at c holds its size in
   the word at c + 4 (low 3 bits flags, bit 1 set when the chunk is in
   use), the block malloc returns starts 8 bytes into its chunk, and the
   top chunk ends TOP_FOOT_SIZE (< 128) bytes before the end of memory. If
   they stopped holding, plug_holes would plug nothing. */

#define HEAP_TOP_FOOT_MAX 128

static void *plugs;         /* the plugged chunks, linked through their first word */
static uintptr_t heap_mark; /* where the heap's top starts, as far as a run has
                               allocated from it, while plugs are held */

static uintptr_t heap_end(void)
{
    return (uintptr_t)__builtin_wasm_memory_size(0) * 65536;
}

/* The top chunk, found by walking the chunks from block p on: *size gets
   its size. 0 if the walk does not end at a free chunk there. */
static uintptr_t top_chunk(void *p, uintptr_t *size)
{
    uintptr_t c = (uintptr_t)p - 8, end = heap_end();
    while (c + 8 <= end) {
        uint32_t head = *(uint32_t *)(c + 4);
        uintptr_t n = head & ~(uint32_t)7;
        if (n == 0 || c + n > end)
            return 0;
        if (end - (c + n) < HEAP_TOP_FOOT_MAX) {
            if (head & 2)
                return 0;
            *size = n;
            return c;
        }
        c += n;
    }
    return 0;
}

/* Plug every free chunk below the top: for each size from large to small,
   allocate until the block comes from the top (then give that one back).
   No request is larger than the top holds, so memory never grows. */
static void plug_holes(void)
{
    uintptr_t end0 = heap_end(), top, top_size = 0;
    size_t size;
    void *p;

    top = top_chunk(rt, &top_size);
    if (!top || top_size < 1024)
        return;
    size = top_size - 512;
    while (size > 0) {
        p = malloc(size);
        if (!p)
            break;
        if (heap_end() != end0) { /* cannot happen; never grow for this */
            free(p);
            break;
        }
        if ((uintptr_t)p < top) {
            *(void **)p = plugs;
            plugs = p;
            continue;
        }
        free(p);
        size = size > 512 ? size / 2 : size > 4 ? size - 4 : 0;
    }
    heap_mark = top;
}

/* Give the plugged chunks back to the allocator. */
static size_t heap_freed; /* see the small blocks' section */

static void unplug(void)
{
    while (plugs) {
        void *p = plugs;
        plugs = *(void **)p;
        heap_freed += chunk_size(p);
        free(p);
    }
}

/* After an allocation: where the top now starts, at the latest. */
static void heap_note(void *p)
{
    if (plugs && p) {
        uintptr_t e = (uintptr_t)p + block_size(p);
        if (e > heap_mark)
            heap_mark = e;
    }
}

/* ---- small blocks: carved and recycled in front of dlmalloc ----

   Under wazero a call costs more than natively, and dlmalloc's bins,
   splits and coalescing are many loads and stores, each bounds-checked.
   Most of QuickJS's blocks are small. So a request whose chunk is at most
   SMALL_MAX bytes is served here without calling dlmalloc:

   - from a list of freed blocks of its chunk size (a freed small block
     goes onto the list of its size, linked through its first word, while
     the lists hold less than SMALL_HOLD bytes; beyond that it is freed to
     dlmalloc at once);
   - else carved from a slab: a block of SLAB_SIZE bytes from dlmalloc,
     cut into chunks front to back exactly as dlmalloc cuts its top: each
     carved chunk gets dlmalloc's header (its size, in use, previous in
     use) and the rest of the slab is always itself a chunk in use with a
     valid header. So every block given out here is an ordinary dlmalloc
     chunk in use: dlmalloc's free and realloc take it, and the lists and
     the slab's rest can be freed to dlmalloc at any time (give_back).

   Blocks that dlmalloc itself holds free (freed to it: beyond the lists'
   bound, big blocks, the plugs, what was given back) must not be left
   unused while slabs are cut from fresh memory: heap_freed counts the
   bytes freed to dlmalloc, and while it is not 0 a small request that
   the lists cannot serve goes to dlmalloc (which serves it from those
   free chunks, splitting, as it did before) and is counted off it.

   What is held here (the lists, the slab's rest) is given back to
   dlmalloc before a request to dlmalloc that its top may not hold
   (heap_room, reading the top's size from dlmalloc's state), so dlmalloc
   does not grow the memory for QuickJS's blocks or the host's buffers
   (mb_alloc) while anything is held here (js_sync's reply buffer, from
   malloc directly, is the one request that does not ask first), together
   with the plugs, and before an allocation that failed is tried once
   more.
   Nothing is held during init (mb_init: the snapshot's heap is laid out
   as without it). A run's first
   SMALL_WARMUP bytes of small blocks come from dlmalloc as before (and
   are freed to it), so a small run's blocks land where they did: blocks
   of the snapshot it frees and allocates again, and the hash buckets its
   new blocks' addresses pick, are on the pages they were. 1 KiB does
   that as well as 16 KiB did (a small run waiting in a host call
   dirties 16 pages of 4 KiB with either), and a compile's blocks past
   it come from the lists: a new 2 KB program ~4% faster than with
   16 KiB; 256 bytes ~1% slower than 1 KiB.

   QuickJS's accounting is unchanged: malloc_size counts every block it
   holds at its usable size (its chunk's size - 4) + MALLOC_OVERHEAD,
   exactly as before; what is held here is not counted (it is free for
   QuickJS), so the memory cap is checked against the same sums as
   without it. */

#define SMALL_MAX 512           /* largest chunk size served here */
#define SMALL_HOLD (64 * 1024)  /* bytes the lists hold at most */
#define SLAB_SIZE 4096          /* a slab's request to dlmalloc */
#define SLAB_MIN 1024           /* the least, from a top that is short */
#define SMALL_WARMUP 1024     /* see small_warmup */
#define CINUSE 2                /* dlmalloc's header bits */
#define PINUSE 1

static void *small_free[SMALL_MAX / 16 + 1]; /* by chunk size / 16 */
static size_t small_bytes;                   /* chunk bytes on the lists */
static size_t small_hold;  /* SMALL_HOLD after a run's warm-up, 0 before */
static size_t small_warmup; /* bytes a run allocates from dlmalloc first */
static uintptr_t slab_at, slab_end; /* the slab's rest: a chunk in use at
                                       slab_at, up to slab_end */

/* The chunk dlmalloc makes for a request of size bytes (MALLOC_ALIGNMENT
   16, 4 bytes of header, 16 at least), for size <= SMALL_MAX. */
static inline size_t small_chunk(size_t size)
{
    return (size + 4 + 15) & ~(size_t)15;
}

/* The header word of the chunk at c (volatile, as in chunk_size). */
static inline volatile uint32_t *chunk_head(uintptr_t c)
{
    return (volatile uint32_t *)(c + 4);
}

/* Give what is held (the lists, the slab's rest) back to dlmalloc. */
static void give_back(void)
{
    size_t i;
    for (i = 0; i < sizeof(small_free) / sizeof(small_free[0]); i++) {
        while (small_free[i]) {
            void *p = small_free[i];
            small_free[i] = *(void **)p;
            free(p);
        }
    }
    heap_freed += small_bytes + (slab_end - slab_at);
    small_bytes = 0;
    if (slab_at != slab_end)
        free((void *)(slab_at + 8));
    slab_at = slab_end = 0;
}

static inline int held(void)
{
    return small_bytes != 0 || slab_at != slab_end;
}

/* dlmalloc's state (its malloc_state, static in wasi-libc's dlmalloc.c),
   found by find_dlmalloc_state: only its topsize is read, the size of the
   top chunk, which dlmalloc grows the memory for when a request does not
   fit in its free chunks and the top. mb_init fails (6) when it is not
   found, so an image built against a dlmalloc laid out otherwise does not
   load (every engine test fails) rather than hold blocks blindly. */
static const volatile uint32_t *dl_state;
#define DL_TOPSIZE 3 /* malloc_state: smallmap, treemap, dvsize, topsize, */
#define DL_TOP 6     /* least_addr, dv, top (dlmalloc 2.8.x, 32-bit) */

extern unsigned char __global_base, __heap_base;

/* Find dlmalloc's state in the module's static data: the one place whose
   topsize and top words are those of the top chunk (walked from the
   runtime's block, as plug_holes does). */
static void find_dlmalloc_state(void)
{
    uintptr_t top, size = 0, a, found = 0;
    int n = 0;
    top = top_chunk(rt, &size);
    if (!top)
        return;
    for (a = (uintptr_t)&__global_base; a + 4 * (DL_TOP + 1) <= (uintptr_t)&__heap_base; a += 4) {
        const uint32_t *w = (const uint32_t *)a;
        if (w[DL_TOPSIZE] == size && w[DL_TOP] == top) {
            found = a;
            n++;
        }
    }
    if (n == 1)
        dl_state = (const volatile uint32_t *)found;
}

/* Before a request of size bytes to dlmalloc: give back what is held if
   the top may not hold it (dlmalloc would otherwise grow the memory while
   blocks are held here), and the plugs too if the top of the heap may not
   hold it (as far as heap_mark tells). */
static void heap_room(size_t size)
{
    if (held() && (!dl_state || dl_state[DL_TOPSIZE] < size + 64))
        give_back();
    if (plugs && heap_mark + size + 2 * HEAP_TOP_FOOT_MAX > heap_end()) {
        give_back();
        unplug();
    }
}

/* dlmalloc's realloc (ptr != NULL) or malloc: once more with everything
   held given back when it fails. */
static void *heap_alloc(void *ptr, size_t size)
{
    void *p;
    heap_room(size);
    p = ptr ? realloc(ptr, size) : malloc(size);
    if (!p && (held() || plugs)) {
        give_back();
        unplug();
        p = ptr ? realloc(ptr, size) : malloc(size);
    }
    heap_note(p);
    return p;
}

/* A block of chunk size n (<= SMALL_MAX), from the lists or a slab, after
   the warm-up (small_hold set); NULL when the lists have none and a slab
   should not or cannot be cut. */
static void *small_take(size_t n)
{
    void *p = small_free[n >> 4];
    uintptr_t c;
    uint32_t pinuse;
    if (p) {
        small_free[n >> 4] = *(void **)p;
        small_bytes -= n;
        return p;
    }
    if (slab_end - slab_at < n) {
        void *slab;
        if (heap_freed)
            return NULL; /* dlmalloc's own free chunks first */
        size_t want = SLAB_SIZE, top;
        /* A slab only from what the top holds (SLAB_SIZE, or less down to
           SLAB_MIN): with the top shorter, dlmalloc serves this request
           as before (from its free chunks, or growing the memory where
           it would have), so a slab never grows the memory. heap_room
           gives back first what is held when the top is that short. */
        heap_room(SLAB_MIN);
        top = dl_state[DL_TOPSIZE];
        if (heap_freed || top < SLAB_MIN + 64)
            return NULL;
        if (top < want + 64)
            want = (top - 64) & ~(size_t)15;
        if (slab_at != slab_end) {
            heap_freed += slab_end - slab_at;
            free((void *)(slab_at + 8));
        }
        slab_at = slab_end = 0;
        slab = heap_alloc(NULL, want - 4);
        if (!slab)
            return NULL;
        slab_at = (uintptr_t)slab - 8;
        slab_end = slab_at + chunk_size(slab);
    }
    /* cut chunk c off the front of the rest, which stays a chunk in use */
    c = slab_at;
    pinuse = *chunk_head(c) & PINUSE;
    *chunk_head(c) = (uint32_t)n | CINUSE | pinuse;
    slab_at = c + n;
    if (slab_at != slab_end)
        *chunk_head(slab_at) = (uint32_t)(slab_end - slab_at) | CINUSE | PINUSE;
    return (void *)(c + 8);
}

/* Put block p of chunk size n on its list, or free it to dlmalloc. */
static inline void small_put(void *p, size_t n)
{
    if (n <= SMALL_MAX && small_bytes + n <= small_hold) {
        *(void **)p = small_free[n >> 4];
        small_free[n >> 4] = p;
        small_bytes += n;
        return;
    }
    heap_freed += n;
    free(p);
}

/* The runtime's allocation functions: JSMallocFunctions names them, and
   quickjs.c's js_malloc_rt, js_free_rt, js_realloc_rt and
   js_malloc_usable_size_rt call them directly (patch zm4), so they are not
   static. */
void *mb_js_malloc(JSMallocState *s, size_t size)
{
    void *p = NULL;
    if (alloc_poll())
        return NULL;
    if (s->malloc_size + size > s->malloc_limit) {
        mem_refused = 1;
        return NULL;
    }
    if (size <= SMALL_MAX - 19 && small_hold)
        p = small_take(small_chunk(size));
    if (!p) {
        p = heap_alloc(NULL, size);
        if (!p)
            return NULL;
        if ((heap_freed || small_warmup) && size <= SMALL_MAX - 19) {
            size_t n = chunk_size(p);
            heap_freed = heap_freed > n ? heap_freed - n : 0;
            if (small_warmup) {
                small_warmup = small_warmup > n ? small_warmup - n : 0;
                if (!small_warmup)
                    small_hold = SMALL_HOLD;
            }
        }
    }
    s->malloc_count++;
    s->malloc_size += block_size(p) + MALLOC_OVERHEAD;
    return p;
}

void mb_js_free(JSMallocState *s, void *ptr)
{
    size_t n;
    if (!ptr)
        return;
    n = chunk_size(ptr);
    s->malloc_count--;
    s->malloc_size -= n - 4 + MALLOC_OVERHEAD;
    small_put(ptr, n);
}

void *mb_js_realloc(JSMallocState *s, void *ptr, size_t size)
{
    size_t old_n, old_size;
    void *p = NULL;
    if (!ptr) {
        if (size == 0)
            return NULL;
        return mb_js_malloc(s, size);
    }
    old_n = chunk_size(ptr);
    old_size = old_n - 4;
    if (size == 0) {
        mb_js_free(s, ptr);
        return NULL;
    }
    if (size > old_size) {
        if (alloc_poll())
            return NULL;
        if (s->malloc_size + size - old_size > s->malloc_limit) {
            mem_refused = 1;
            return NULL;
        }
    }
    if (size <= SMALL_MAX - 19 && old_n <= SMALL_MAX && small_hold) {
        size_t n = small_chunk(size);
        if (n == old_n)
            return ptr;
        p = small_take(n);
        if (p) {
            memcpy(p, ptr, n < old_n ? n - 4 : old_size);
            small_put(ptr, old_n);
        }
    }
    if (!p) {
        p = heap_alloc(ptr, size);
        if (!p)
            return NULL;
    }
    s->malloc_size += block_size(p) - old_size;
    return p;
}

size_t mb_js_usable_size(const void *ptr)
{
    return ptr ? block_size(ptr) : 0;
}

static const JSMallocFunctions malloc_functions = {
    mb_js_malloc, mb_js_free, mb_js_realloc, mb_js_usable_size,
};

/* ---- the native side of the bridge ---- */

/* The uncatchable error a stopped run throws: made once at init (so it
   is in the snapshot, frozen), since a new one costs a backtrace, and the
   run throws one at its end (the host answers its result with stop). It
   never reaches the program's catch or finally, and the host does not
   read it (report_exception_as). */
static JSValue stop_error;

static JSValue throw_stopped(JSContext *c)
{
    return JS_Throw(c, JS_DupValue(c, stop_error));
}

/* __modebox_send(kind, id, text) -> answer. Captured by the prelude. */
static JSValue js_send(JSContext *c, JSValueConst this_val, int argc,
                       JSValueConst *argv)
{
    int32_t kind, id, answer;
    size_t len;
    const char *s;
    (void)this_val;
    if (argc < 3)
        return JS_ThrowTypeError(c, "send: 3 arguments expected");
    if (JS_ToInt32(c, &kind, argv[0]) || JS_ToInt32(c, &id, argv[1]))
        return JS_EXCEPTION;
    s = JS_ToCStringLen(c, &len, argv[2]);
    if (!s)
        return JS_EXCEPTION;
    answer = host_event(kind, id, s, (int32_t)len);
    JS_FreeCString(c, s);
    if (answer == ANSWER_STOP) {
        request_stop();
        return throw_stopped(c);
    }
    return JS_NewInt32(c, answer);
}

/* __modebox_mem_refused() -> whether the run's memory cap has refused an
   allocation (mem_refused). Allocates nothing. */
static JSValue js_mem_refused(JSContext *c, JSValueConst this_val, int argc,
                              JSValueConst *argv)
{
    (void)this_val;
    (void)argc;
    (void)argv;
    return JS_NewBool(c, mem_refused);
}

/* In quickjs.c (patch quickjs-y4-host-calls): a pending promise made
   without resolving functions, and its settlement as they would do it. */
JSValue JS_ModeboxNewPromise(JSContext *ctx);
void JS_ModeboxSettlePromise(JSContext *ctx, JSValueConst promise,
                             JSValueConst value, int is_reject);
/* In quickjs.c (patch quickjs-zn6-call-site): the program's frame that
   makes a host call, and that frame added to the stack of an error. */
JSValue JS_ModeboxCallSite(JSContext *ctx, JSAtom skip, uint32_t *pc);
void JS_ModeboxAddFrame(JSContext *ctx, JSValueConst err, JSValueConst fn,
                        uint32_t pc);
/* In quickjs.c (src/json_fast.c): JSON.stringify of plain data, as a
   string or as UTF-8 appended to a buffer. */
int JS_ModeboxStringifyPlain(JSContext *ctx, JSValueConst v, JSValue *out);
int JS_ModeboxStringifyPlainUTF8(JSContext *ctx, JSValueConst v,
                                 uint8_t **pbuf, size_t *plen, size_t *psize,
                                 uint8_t *initial);

/* In quickjs.c (patch quickjs-y4-host-calls): the bytes of an all-ASCII
   string (its UTF-8) without a copy, else NULL. */
const char *JS_ModeboxASCII(JSValueConst v, size_t *len);

/* A string's UTF-8: its own bytes when it is ASCII (*copy = NULL), else
   a copy to free with JS_FreeCString(*copy). NULL on failure. */
static const char *utf8_of(JSContext *c, JSValueConst v, size_t *len,
                           const char **copy)
{
    const char *s = JS_ModeboxASCII(v, len);
    *copy = NULL;
    if (s)
        return s;
    *copy = JS_ToCStringLen(c, len, v);
    return *copy;
}

/* payloads up to this size are built on the stack */
#define PAYLOAD_STACK 512

/* Send EV_CALL for tool_val with payload (n bytes: the tool's name,
   newline, the JSON arguments) and keep the promise it returns until
   mb_settle. */
static JSValue send_call(JSContext *c, JSValueConst tool_val,
                         const char *payload, size_t n)
{
    JSValue promise;
    pending_call *pc;
    int32_t id, answer;

    if (calls_len == calls_cap) {
        int cap = calls_cap ? calls_cap * 2 : 16;
        pending_call *nc = js_realloc(c, calls, (size_t)cap * sizeof(*nc));
        if (!nc)
            return JS_EXCEPTION;
        calls = nc;
        calls_cap = cap;
    }
    promise = JS_ModeboxNewPromise(c);
    if (JS_IsException(promise))
        return promise;
    id = ++last_call_id;
    pc = &calls[calls_len++];
    pc->id = id;
    pc->promise = JS_DupValue(c, promise);
    pc->tool = JS_DupValue(c, tool_val);
    pc->site = JS_ModeboxCallSite(c, prelude_atom, &pc->site_pc);
    answer = host_event(EV_CALL, id, payload, (int32_t)n);
    if (answer == ANSWER_STOP) {
        JS_FreeValue(c, promise);
        request_stop();
        return throw_stopped(c);
    }
    return promise;
}

/* Send EV_CALL for tool (a string) with the JSON arguments args (a
   string) and keep the promise it returns until mb_settle. */
static JSValue start_call(JSContext *c, JSValueConst tool_val,
                          JSValueConst args_val)
{
    size_t tool_len, args_len, n;
    const char *tool, *args, *tool_copy, *args_copy;
    char stack_buf[PAYLOAD_STACK], *payload;
    JSValue promise;

    tool = utf8_of(c, tool_val, &tool_len, &tool_copy);
    if (!tool)
        return JS_EXCEPTION;
    args = utf8_of(c, args_val, &args_len, &args_copy);
    if (!args) {
        JS_FreeCString(c, tool_copy);
        return JS_EXCEPTION;
    }
    n = tool_len + 1 + args_len;
    payload = n <= sizeof(stack_buf) ? stack_buf : js_malloc(c, n);
    if (payload) {
        memcpy(payload, tool, tool_len);
        payload[tool_len] = '\n';
        memcpy(payload + tool_len + 1, args, args_len);
    }
    if (tool_copy)
        JS_FreeCString(c, tool_copy);
    if (args_copy)
        JS_FreeCString(c, args_copy);
    if (!payload)
        return JS_EXCEPTION;
    promise = send_call(c, tool_val, payload, n);
    if (payload != stack_buf)
        js_free(c, payload);
    return promise;
}

/* __modebox_call(tool, argsJSON) -> promise: sends EV_CALL with the next
   call id and keeps the promise until mb_settle. Captured by the prelude,
   which encodes the arguments. */
static JSValue js_call(JSContext *c, JSValueConst this_val, int argc,
                       JSValueConst *argv)
{
    (void)this_val;
    if (argc < 2 || !JS_IsString(argv[0]) || !JS_IsString(argv[1]))
        return JS_ThrowTypeError(c, "call: 2 strings expected");
    return start_call(c, argv[0], argv[1]);
}

/* The promise of a call whose arguments could not be encoded (out of
   memory): rejected with the pending exception, as the prelude's own
   encoder does, unless that is uncatchable. */
static JSValue rejected_call(JSContext *c)
{
    JSValue e = JS_GetException(c), r;
    if (JS_IsUncatchableError(c, e))
        return JS_Throw(c, e);
    r = JS_ModeboxNewPromise(c);
    if (!JS_IsException(r))
        JS_ModeboxSettlePromise(c, r, e, 1);
    JS_FreeValue(c, e);
    return r;
}

/* call_plain through a string: for a tool whose key is not ASCII. */
static JSValue call_plain_text(JSContext *c, JSValueConst tool,
                               JSValueConst args)
{
    JSValue text, r;
    if (JS_IsUndefined(args))
        text = JS_NewStringLen(c, "{}", 2);
    else if (!JS_ModeboxStringifyPlain(c, args, &text))
        return JS_NULL;
    else if (JS_IsUndefined(text))
        text = JS_NewStringLen(c, "null", 4);
    if (JS_IsException(text))
        return rejected_call(c);
    r = start_call(c, tool, text);
    JS_FreeValue(c, text);
    return r;
}

/* The call of tool with args when args is plain data (see js_encode): its
   promise; JS_NULL when args is not plain data, and nothing happened. A
   missing args is {}. An encoding that fails (out of memory) gives a
   rejected promise, as the prelude's own encoder does. The payload is
   written in place (the key, newline, the arguments' JSON as UTF-8): on
   the stack when it fits. */
static JSValue call_plain(JSContext *c, JSValueConst tool, JSValueConst args)
{
    uint8_t stack_buf[PAYLOAD_STACK], *buf = stack_buf;
    size_t key_len, len, size = sizeof(stack_buf);
    const char *key = JS_ModeboxASCII(tool, &key_len);
    JSValue r;
    int ok;

    if (!key || key_len > sizeof(stack_buf) / 2)
        return call_plain_text(c, tool, args);
    memcpy(buf, key, key_len);
    buf[key_len] = '\n';
    len = key_len + 1;
    if (JS_IsUndefined(args)) {
        buf[len++] = '{';
        buf[len++] = '}';
        ok = 1;
    } else {
        ok = JS_ModeboxStringifyPlainUTF8(c, args, &buf, &len, &size, stack_buf);
    }
    if (ok > 0)
        r = send_call(c, tool, (const char *)buf, len);
    else if (ok == 0)
        r = JS_NULL;
    else
        r = rejected_call(c);
    if (buf != stack_buf)
        js_free(c, buf);
    return r;
}

/* __modebox_call_plain(tool, args) -> promise, or null when args is not
   plain data: the prelude then encodes args itself and uses
   __modebox_call. Captured by the prelude. */
static JSValue js_call_plain(JSContext *c, JSValueConst this_val, int argc,
                             JSValueConst *argv)
{
    (void)this_val;
    if (argc < 2 || !JS_IsString(argv[0]))
        return JS_ThrowTypeError(c, "call: a string expected");
    return call_plain(c, argv[0], argv[1]);
}

/* A tool function: data[0] is the tool's key, data[1] the prelude's
   function that calls it with arguments that are not plain data. */
static JSValue js_tool(JSContext *c, JSValueConst this_val, int argc,
                       JSValueConst *argv, int magic, JSValue *data)
{
    JSValueConst args[2];
    JSValue r;
    (void)this_val;
    (void)magic;
    args[0] = data[0];
    args[1] = argc > 0 ? argv[0] : JS_UNDEFINED;
    r = call_plain(c, args[0], args[1]);
    if (!JS_IsNull(r))
        return r;
    return JS_Call(c, data[1], JS_UNDEFINED, 2, args);
}

/* __modebox_tool(key, slowCall) -> a function of one argument that calls
   tool key: plain data is encoded and sent in C, anything else through
   slowCall(key, args). Captured by the prelude. */
static JSValue js_make_tool(JSContext *c, JSValueConst this_val, int argc,
                            JSValueConst *argv)
{
    (void)this_val;
    if (argc < 2 || !JS_IsString(argv[0]) || !JS_IsFunction(c, argv[1]))
        return JS_ThrowTypeError(c, "tool: a string and a function expected");
    return JS_NewCFunctionData(c, js_tool, 1, 0, 2, argv);
}

/* __modebox_sync(text) -> text: a synchronous host call (Intl). The host
   answers EV_SYNC with the reply's length and writes the reply into a
   buffer given with EV_SYNC_READ. Captured by the prelude. */
static JSValue js_sync(JSContext *c, JSValueConst this_val, int argc,
                       JSValueConst *argv)
{
    size_t len;
    int32_t n;
    const char *s;
    char *buf;
    JSValue r;
    (void)this_val;
    if (argc < 1)
        return JS_ThrowTypeError(c, "sync: 1 argument expected");
    s = JS_ToCStringLen(c, &len, argv[0]);
    if (!s)
        return JS_EXCEPTION;
    n = host_event(EV_SYNC, 0, s, (int32_t)len);
    JS_FreeCString(c, s);
    if (n < 0) {
        request_stop();
        return throw_stopped(c);
    }
    buf = malloc(n > 0 ? (size_t)n : 1);
    if (!buf)
        return JS_ThrowOutOfMemory(c);
    if (host_event(EV_SYNC_READ, n, buf, n) != ANSWER_GO) {
        free(buf);
        request_stop();
        return throw_stopped(c);
    }
    r = JS_NewStringLen(c, buf, (size_t)n);
    free(buf);
    return r;
}

/* In quickjs.c (patch zm1): freeze the atoms, objects and function
   bytecode there are. */
void JS_ModeboxFreeze(JSRuntime *rt);

/* __modebox_encode(v) -> JSON.stringify(v) when v is plain data (plain
   objects, dense arrays, strings, numbers, booleans, null: nothing a
   replacer or toJSON could change), else null and nothing happened.
   Captured by the prelude, which falls back to its full encoder. */
static JSValue js_encode(JSContext *c, JSValueConst this_val, int argc,
                         JSValueConst *argv)
{
    JSValue r;
    (void)this_val;
    if (argc < 1)
        return JS_NULL;
    if (!JS_ModeboxStringifyPlain(c, argv[0], &r))
        return JS_NULL;
    return r;
}

/* The host ends the run at its first error and answers stop: from then
   on nothing more of the program runs (a job queued after the error,
   a call it would make), and the next poll is uncatchable. */
static void send_error(int32_t id, const char *s, size_t n)
{
    if (host_event(EV_ERROR, id, s, (int32_t)n) != ANSWER_GO)
        request_stop();
}

/* Report an exception that escaped to C, as error class 'thrown_id' when
   it can be formatted. Takes ownership of exc. */
static void report_exception_as(JSValue exc, int32_t thrown_id)
{
    JSValue s;
    const char *str;
    size_t len;

    if (stopped || JS_IsUncatchableError(ctx, exc)) {
        JS_FreeValue(ctx, exc);
        send_error(ERR_INTERRUPTED, NULL, 0);
        return;
    }
    /* formatting must not fail for lack of memory: lift the soft limit */
    JS_SetMemoryLimit(rt, (size_t)-1);
    if (JS_IsNull(exc) && mem_refused) {
        /* the out-of-memory error QuickJS could not make: report it as
           what it is (MEMORY_LIMIT), not as a thrown null */
        JS_ThrowInternalError(ctx, "out of memory");
        exc = JS_GetException(ctx);
    }
    s = JS_Call(ctx, hook_format, JS_UNDEFINED, 1, (JSValueConst *)&exc);
    JS_FreeValue(ctx, exc);
    if (JS_IsException(s)) {
        JS_FreeValue(ctx, JS_GetException(ctx));
        send_error(stopped ? ERR_INTERRUPTED : ERR_UNFORMATTED, NULL, 0);
        return;
    }
    str = JS_ToCStringLen(ctx, &len, s);
    JS_FreeValue(ctx, s);
    if (!str) {
        JS_FreeValue(ctx, JS_GetException(ctx));
        send_error(ERR_UNFORMATTED, NULL, 0);
        return;
    }
    send_error(thrown_id, str, len);
    JS_FreeCString(ctx, str);
}

static void report_exception(JSValue exc)
{
    report_exception_as(exc, ERR_THROWN);
}

/* Run ready jobs until none is left, or the run is stopped. */
static void drain(void)
{
    JSContext *c;
    for (;;) {
        int r = JS_ExecutePendingJob(rt, &c);
        if (r == 0)
            return;
        if (r < 0) {
            report_exception(JS_GetException(ctx));
            if (stopped)
                return;
        }
    }
}

/* ---- exports ---- */

/* The host passes a small input on the guest's own stack: it writes the
   bytes just below the stack pointer and moves the pointer below them
   for the call (no mb_alloc call). A larger input comes from mb_alloc,
   in the heap, which starts above the stack and the data (--stack-first):
   free_input frees only that. */
extern unsigned char __heap_base;

static void free_input(const void *p)
{
    if ((uintptr_t)p >= (uintptr_t)&__heap_base)
        free((void *)p);
}

EXPORT(mb_alloc) void *mb_alloc(int32_t size)
{
    size_t n = size > 0 ? (size_t)size : 1;
    void *p;
    heap_room(n);
    p = malloc(n);
    heap_note(p);
    return p;
}

EXPORT(mb_free) void mb_free(void *ptr)
{
    free(ptr);
}

static JSValue get_hook(JSValueConst hooks, const char *name)
{
    return JS_GetPropertyStr(ctx, hooks, name);
}

/* Create the runtime and context and evaluate the prelude, whose
   completion value is {start, settle, format}. Returns 0 on success. */
EXPORT(mb_init) int32_t mb_init(const char *prelude, int32_t len,
                                int32_t stack_size)
{
    JSValue global, fn, hooks;

    rt = JS_NewRuntime2(&malloc_functions, NULL);
    if (!rt)
        return 1;
    JS_SetMaxStackSize(rt, (size_t)stack_size);
    JS_SetInterruptHandler(rt, interrupt_handler, NULL);
    ctx = JS_NewContext(rt);
    if (!ctx)
        return 2;
    JS_ThrowInternalError(ctx, "interrupted");
    stop_error = JS_GetException(ctx);
    JS_SetUncatchableError(ctx, stop_error, 1);
    global = JS_GetGlobalObject(ctx);
    fn = JS_NewCFunction(ctx, js_send, "send", 3);
    JS_SetPropertyStr(ctx, global, "__modebox_send", fn);
    fn = JS_NewCFunction(ctx, js_sync, "sync", 1);
    JS_SetPropertyStr(ctx, global, "__modebox_sync", fn);
    fn = JS_NewCFunction(ctx, js_encode, "encode", 1);
    JS_SetPropertyStr(ctx, global, "__modebox_encode", fn);
    fn = JS_NewCFunction(ctx, js_call, "call", 2);
    JS_SetPropertyStr(ctx, global, "__modebox_call", fn);
    fn = JS_NewCFunction(ctx, js_call_plain, "callPlain", 2);
    JS_SetPropertyStr(ctx, global, "__modebox_call_plain", fn);
    fn = JS_NewCFunction(ctx, js_make_tool, "tool", 2);
    JS_SetPropertyStr(ctx, global, "__modebox_tool", fn);
    fn = JS_NewCFunction(ctx, js_mem_refused, "memRefused", 0);
    JS_SetPropertyStr(ctx, global, "__modebox_mem_refused", fn);
    JS_FreeValue(ctx, global);

    prelude_atom = JS_NewAtom(ctx, "<prelude>");
    hooks = JS_Eval(ctx, prelude, (size_t)len, "<prelude>",
                    JS_EVAL_TYPE_GLOBAL);
    if (JS_IsException(hooks)) {
        JSValue e = JS_GetException(ctx);
        const char *msg = JS_ToCString(ctx, e);
        if (msg) {
            host_event(EV_PANIC, 0, msg, (int32_t)strlen(msg));
            JS_FreeCString(ctx, msg);
        }
        JS_FreeValue(ctx, e);
        return 3;
    }
    hook_tools = get_hook(hooks, "tools");
    hook_builtins = get_hook(hooks, "builtins");
    hook_start = get_hook(hooks, "start");
    hook_settle = get_hook(hooks, "settle");
    hook_format = get_hook(hooks, "format");
    JS_FreeValue(ctx, hooks);
    if (!JS_IsFunction(ctx, hook_tools) || !JS_IsFunction(ctx, hook_builtins) ||
        !JS_IsFunction(ctx, hook_start) || !JS_IsFunction(ctx, hook_settle) ||
        !JS_IsFunction(ctx, hook_format))
        return 4;
    drain();
    JS_RunGC(rt);
    JS_ModeboxFreeze(rt);
    give_back();
    plug_holes();
    find_dlmalloc_state();
    if (!dl_state)
        return 6; /* wasi-libc's dlmalloc changed: see find_dlmalloc_state */
    heap_freed = 0; /* what init freed is plugged or in the big free blocks */
    small_warmup = SMALL_WARMUP;
    return stopped ? 5 : 0;
}

/* Call hook with arg; on an exception report it and return 1. */
static int call_hook(JSValueConst hook, JSValueConst arg)
{
    JSValue r = JS_Call(ctx, hook, JS_UNDEFINED, 1, &arg);
    if (JS_IsException(r)) {
        report_exception(JS_GetException(ctx));
        return 1;
    }
    JS_FreeValue(ctx, r);
    return 0;
}

/* Set when mb_setup has installed a setup's tools and built-ins before the
   host took a snapshot of its own for that setup: runs from that snapshot
   pass no setup, and mb_run installs nothing. */
static int setup_done;

/* Install setup (NUL-terminated JSON for the prelude, an input: see
   free_input) once, before the host takes a snapshot for it: the prelude's
   tools and builtins hooks, as mb_run calls them, then the heap made ready
   for a snapshot as mb_init leaves it (objects frozen, held blocks given
   back, a run's warm-up ahead). Its holes are not plugged as mb_init's
   are: plug_holes would plug the big free blocks too (mb_init plugs before
   the host frees the prelude's buffer), and a run that then outgrew the
   top of the heap would unplug and spread its blocks over every page (a
   60-function program's run wrote 97 pages against 36). heap_freed keeps
   counting what the setup freed, so runs reuse it before cutting slabs.
   Returns 0 on success; on failure the host discards the instance and
   runs install the setup themselves (and report what failed). */
EXPORT(mb_setup) int32_t mb_setup(const char *setup, int32_t setup_len)
{
    JSValue set;
    int failed;

    JS_UpdateStackTop(rt);
    if (setup_done) {
        free_input(setup);
        return 2;
    }
    set = JS_ParseJSON(ctx, setup, (size_t)setup_len, "<setup>");
    free_input(setup);
    if (JS_IsException(set)) {
        report_exception(JS_GetException(ctx));
        return 1;
    }
    failed = call_hook(hook_tools, set) || call_hook(hook_builtins, set);
    JS_FreeValue(ctx, set);
    if (failed)
        return 1;
    drain();
    if (stopped || mem_refused || calls_len)
        return 3;
    JS_RunGC(rt);
    JS_ModeboxFreeze(rt);
    give_back();
    small_hold = 0;
    small_warmup = SMALL_WARMUP;
    setup_done = 1;
    return 0;
}

/* Start a run: code is a NUL-terminated script whose completion value is
   the program's async function; setup is NUL-terminated JSON for the
   prelude, or empty when mb_setup installed it into the snapshot. Both
   are inputs (free_input): on the stack, or from mb_alloc and freed
   here. The prelude's tools and builtins (unless mb_setup installed
   them), the program's function and the prelude's
   start (given the promise, or what the call threw) are called one after
   the other from here, not from one another, so that their calls do not
   nest: under wazero every JS frame is ~6 KiB of call stack. */
EXPORT(mb_run) int32_t mb_run(const char *code, int32_t code_len,
                              const char *setup, int32_t setup_len,
                              int32_t seed_lo, int32_t seed_hi,
                              int32_t mem_limit)
{
    JSValue fn, set, args[2];
    int failed;

    JS_SetRandomSeed(ctx, ((uint64_t)(uint32_t)seed_hi << 32) |
                              (uint32_t)seed_lo);
    JS_SetMemoryLimit(rt, mem_limit > 0 ? (size_t)mem_limit : (size_t)-1);
    JS_UpdateStackTop(rt);

    fn = JS_Eval(ctx, code, (size_t)code_len, "main.js", JS_EVAL_TYPE_GLOBAL);
    free_input(code);
    if (JS_IsException(fn)) {
        JSValue exc = JS_GetException(ctx);
        free_input(setup);
        if (mem_refused) {
            /* the compile ran out of memory: whatever it threw (an error
               it could make only in part, or one its out-of-memory
               state made), it is the out of memory that
               report_exception_as makes from null */
            JS_FreeValue(ctx, exc);
            exc = JS_NULL;
        }
        report_exception_as(exc, ERR_COMPILE);
        return 1;
    }
    if (setup_done) {
        free_input(setup);
        failed = 0;
    } else {
        set = JS_ParseJSON(ctx, setup, (size_t)setup_len, "<setup>");
        free_input(setup);
        if (JS_IsException(set)) {
            JS_FreeValue(ctx, fn);
            report_exception(JS_GetException(ctx));
            return 1;
        }
        failed = call_hook(hook_tools, set) || call_hook(hook_builtins, set);
        JS_FreeValue(ctx, set);
    }
    if (!failed && !JS_IsFunction(ctx, fn)) {
        JS_ThrowTypeError(ctx, "the program did not compile to a function");
        report_exception(JS_GetException(ctx));
        failed = 1;
    }
    if (failed) {
        JS_FreeValue(ctx, fn);
        return 1;
    }
    args[1] = JS_Call(ctx, fn, JS_UNDEFINED, 0, NULL);
    /* The program's function is kept until the run ends, not freed here:
       the instance is then reset to the snapshot or closed, and either
       discards it. Freed here, once its call returned, it took its
       bytecode with it, the constant pool, and every nested function's
       bytecode and atoms: ~3% of the guest's time for a new 2 KB program,
       on memory the run's end discards anyway. (While the program waits,
       its suspended call holds the function anyway.) */
    JS_FreeValue(ctx, program_fn);
    program_fn = fn;
    args[0] = JS_FALSE;
    if (JS_IsException(args[1])) {
        /* as a catch in JS: an uncatchable error (a stop) ends the run */
        args[1] = JS_GetException(ctx);
        if (JS_IsUncatchableError(ctx, args[1])) {
            report_exception(args[1]);
            return 1;
        }
        args[0] = JS_TRUE;
    }
    fn = JS_Call(ctx, hook_start, JS_UNDEFINED, 2, (JSValueConst *)args);
    JS_FreeValue(ctx, args[1]);
    if (JS_IsException(fn)) {
        report_exception(JS_GetException(ctx));
        return 1;
    }
    JS_FreeValue(ctx, fn);
    drain();
    return stopped;
}

/* JSON text that is a small integer ("0", "-12", at most 9 digits: what
   JSON.parse reads as an int), else 0. */
static int small_int(const char *buf, int32_t len, int32_t *out)
{
    int32_t i = 0, n = 0;
    int neg = 0;
    if (len > 0 && buf[0] == '-') {
        neg = 1;
        i = 1;
    }
    if (i >= len || len - i > 9 || (buf[i] == '0' && len - i > 1))
        return 0;
    if (neg && buf[i] == '0')
        return 0; /* -0 is a double */
    for (; i < len; i++) {
        if (buf[i] < '0' || buf[i] > '9')
            return 0;
        n = n * 10 + (buf[i] - '0');
    }
    *out = neg ? -n : n;
    return 1;
}

/* Settle host call id: ok != 0 resolves it with the JSON value in buf
   (empty for undefined), ok == 0 rejects it with the ToolError the
   prelude's settle hook makes from the JSON error in buf. buf (an input,
   NUL-terminated at buf[len]: see free_input) is freed here. */
EXPORT(mb_settle) int32_t mb_settle(int32_t id, int32_t ok, const char *buf,
                                    int32_t len)
{
    JSValue args[2], v;
    pending_call pc;
    int32_t n;
    int i, failed = 0;

    JS_UpdateStackTop(rt);
    for (i = 0; i < calls_len && calls[i].id != id; i++)
        ;
    if (i == calls_len) {
        free_input(buf);
        return stopped;
    }
    pc = calls[i];
    calls[i] = calls[--calls_len];
    if (ok) {
        if (len == 0)
            v = JS_UNDEFINED;
        else if (small_int(buf, len, &n))
            v = JS_NewInt32(ctx, n);
        else
            v = JS_ParseJSON(ctx, buf, (size_t)len, "<input>");
        free_input(buf);
        if (JS_IsException(v)) {
            v = JS_GetException(ctx);
            JS_ModeboxSettlePromise(ctx, pc.promise, v, 1);
        } else {
            JS_ModeboxSettlePromise(ctx, pc.promise, v, 0);
        }
        JS_FreeValue(ctx, v);
    } else {
        args[0] = pc.tool;
        args[1] = JS_NewStringLen(ctx, buf, (size_t)len);
        free_input(buf);
        v = JS_Call(ctx, hook_settle, JS_UNDEFINED, 2, (JSValueConst *)args);
        JS_FreeValue(ctx, args[1]);
        if (JS_IsException(v)) {
            failed = 1;
        } else {
            if (!JS_IsUndefined(pc.site))
                JS_ModeboxAddFrame(ctx, v, pc.site, pc.site_pc);
            JS_ModeboxSettlePromise(ctx, pc.promise, v, 1);
        }
        JS_FreeValue(ctx, v);
    }
    JS_FreeValue(ctx, pc.promise);
    JS_FreeValue(ctx, pc.tool);
    JS_FreeValue(ctx, pc.site);
    if (failed) {
        report_exception(JS_GetException(ctx));
        return 1;
    }
    drain();
    return stopped;
}
