/*
 * memcpy, memmove, memset and memcmp for the modebox engine image.
 *
 * They replace wasi-libc's versions (the linker takes these and leaves the
 * library's out). wasi-libc's are portable C loops compiled without bulk
 * memory; under wazero's compiler every byte or word of such a loop is a
 * bounds-checked load and store. These copy short blocks with a few 8-byte
 * loads and stores and hand long ones to memory.copy, which wazero turns
 * into one call of Go's memmove. memory.fill is not used: wazero runs it
 * as a loop of copies that starts from one byte; memset fills a short head
 * with words and then doubles it with memory.copy instead.
 *
 * This file alone is compiled with -mbulk-memory (build.sh), so
 * __builtin_memcpy/__builtin_memmove on a size that is not constant become
 * the memory.copy instruction, not a call back into these functions.
 */
#include <stddef.h>
#include <stdint.h>

#if !defined(__wasm_bulk_memory__)
#error "memfast.c must be compiled with -mbulk-memory"
#endif

/* Longer blocks than this go to memory.copy. */
#define MB_SHORT 64

static inline uint64_t ld64(const unsigned char *p)
{
	uint64_t v;
	__builtin_memcpy(&v, p, 8);
	return v;
}

static inline void st64(unsigned char *p, uint64_t v)
{
	__builtin_memcpy(p, &v, 8);
}

static inline uint32_t ld32(const unsigned char *p)
{
	uint32_t v;
	__builtin_memcpy(&v, p, 4);
	return v;
}

static inline void st32(unsigned char *p, uint32_t v)
{
	__builtin_memcpy(p, &v, 4);
}

/*
 * Copies n <= 16 bytes. Every load happens before any store, so it is
 * also correct when the blocks overlap.
 */
static inline void copy_upto16(unsigned char *d, const unsigned char *s, size_t n)
{
	if (n >= 8) {
		uint64_t a = ld64(s), b = ld64(s + n - 8);
		st64(d, a);
		st64(d + n - 8, b);
	} else if (n >= 4) {
		uint32_t a = ld32(s), b = ld32(s + n - 4);
		st32(d, a);
		st32(d + n - 4, b);
	} else if (n > 0) {
		unsigned char a = s[0], b = s[n >> 1], c = s[n - 1];
		d[0] = a;
		d[n >> 1] = b;
		d[n - 1] = c;
	}
}

void *memcpy(void *restrict dst, const void *restrict src, size_t n)
{
	unsigned char *d = dst;
	const unsigned char *s = src;

	if (n <= 16) {
		copy_upto16(d, s, n);
		return dst;
	}
	if (n > MB_SHORT) {
		__builtin_memmove(d, s, n);
		return dst;
	}
	/* 17..64 bytes: words from the front, the last word from the end */
	uint64_t last = ld64(s + n - 8);
	for (size_t i = 0; i + 8 < n; i += 8)
		st64(d + i, ld64(s + i));
	st64(d + n - 8, last);
	return dst;
}

void *memmove(void *dst, const void *src, size_t n)
{
	unsigned char *d = dst;
	const unsigned char *s = src;

	if (n <= 16) {
		copy_upto16(d, s, n);
		return dst;
	}
	/* memory.copy has memmove's semantics: overlap in either direction */
	__builtin_memmove(d, s, n);
	return dst;
}

void *memset(void *dst, int c, size_t n)
{
	unsigned char *d = dst;
	uint64_t v = (unsigned char)c * 0x0101010101010101ull;

	if (n < 8) {
		if (n >= 4) {
			st32(d, (uint32_t)v);
			st32(d + n - 4, (uint32_t)v);
		} else if (n > 0) {
			d[0] = (unsigned char)c;
			d[n >> 1] = (unsigned char)c;
			d[n - 1] = (unsigned char)c;
		}
		return dst;
	}
	size_t head = n < MB_SHORT ? n : MB_SHORT;
	for (size_t i = 0; i + 8 < head; i += 8)
		st64(d + i, v);
	st64(d + head - 8, v);
	/* the rest: copy what is already filled, doubling it each time */
	for (size_t done = head; done < n;) {
		size_t k = n - done < done ? n - done : done;
		__builtin_memcpy(d + done, d, k);
		done += k;
	}
	return dst;
}

int memcmp(const void *a, const void *b, size_t n)
{
	const unsigned char *l = a, *r = b;

	/* skip equal words; the first differing byte is then found bytewise */
	while (n >= 8 && ld64(l) == ld64(r)) {
		l += 8;
		r += 8;
		n -= 8;
	}
	for (; n; n--, l++, r++) {
		if (*l != *r)
			return *l - *r;
	}
	return 0;
}
