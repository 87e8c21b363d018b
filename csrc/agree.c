/* A CoNLL file of several tag columns (one per annotator) read, decoded and compared in C, for
 * `nerve.agree` (nerve.api.agree_compiled): the C twin of nerve.api.agree_columns (reading),
 * nerve.api.convert_input.decoded (the shared decoding rule, an invalid transition beginning an
 * entity) and the token-label statistics of nerve.analysis.agreement and agree_stats.
 *
 * Fuzz entry point: the core alone (no Python): ag_scan over any bytes, then ag_scan_free.
 *
 * The numpy engine is the reference. The core reads lines as it does (fields at runs of spaces and
 * tabs, a line of none blank, `-DOCSTART-` as the first field at the line's start begins a
 * document, a token line after any other line begins a sentence) and stops (`stop` set, with why)
 * wherever the numpy engine would read the input another way or refuse it: a byte order mark, a
 * carriage return, no final newline, bytes that are not UTF-8, a token line whose column count
 * differs from the first's, fewer than three columns, no token line. The Python wrapper then hands
 * the file to the numpy engine, which gives the result or its own error.
 */
#include <stdint.h>
#include <stdlib.h>
#include <string.h>

#include "speedups.h"
#include "bits.h"
#include "utf8.h"

#ifndef _WIN32
#include <fcntl.h>
#include <sys/mman.h>
#include <sys/stat.h>
#include <unistd.h>
#endif

/* ---- the core: lines, fields and interned tags ---- */

typedef struct {
    int64_t offset, len;
    uint64_t hash, packed; /* packed: the bytes of a key of up to 8 */
} ag_key;

typedef struct {
    uint64_t memo_key[64]; /* tags of up to 8 bytes by the top bits of their hash: id, length, bytes */
    int32_t memo_id[64];
    uint8_t memo_len[64]; /* 0: empty */
    int32_t *slot; /* id + 1 of the key in each slot, 0 when empty */
    size_t cap;
    ag_key *keys;
    size_t n, keys_cap;
    uint16_t *ids; /* the id of each token's tag (a column of more than 65535 tags is handed over) */
} ag_column;

typedef struct {
    const char *stop; /* why the numpy engine must read the file (NULL: read) */
    int width;        /* columns of a token line: the token and one tag per annotator */
    int leading;      /* tokens come before the first -DOCSTART- line (they are a document too) */
    size_t before;    /* the -DOCSTART- lines read */
    size_t len; /* the bytes read */
    size_t n_tokens, n_docs, cap, sized; /* sized: the capacity of the arrays beside word_start */
    int64_t *word_start, *doc_start;
    uint8_t *sentence;
    size_t doc_cap;
    ag_column *col; /* width - 1 of them */
} ag_scan_t;

static int ag_grow(void **p, size_t *cap, size_t need, size_t size) {
    if (need <= *cap) return 0;
    size_t n = *cap ? *cap : 1024;
    while (n < need) n *= 2;
    if (n > SIZE_MAX / size) return -1;
    void *q = realloc(*p, n * size);
    if (!q) return -1;
    *p = q;
    *cap = n;
    return 0;
}

static uint64_t ag_hash(const unsigned char *p, size_t n) {
    uint64_t h = 1469598103934665603ULL;
    for (size_t i = 0; i < n; i++) h = (h ^ p[i]) * 1099511628211ULL;
    return h;
}

static int ag_rehash(ag_column *c) {
    size_t cap = c->cap ? c->cap * 2 : 64;
    int32_t *slot = calloc(cap, sizeof *slot);
    if (!slot) return -1;
    for (size_t k = 0; k < c->n; k++) {
        size_t i = (size_t)(c->keys[k].hash & (cap - 1));
        while (slot[i]) i = (i + 1) & (cap - 1);
        slot[i] = (int32_t)(k + 1);
    }
    free(c->slot);
    c->slot = slot;
    c->cap = cap;
    return 0;
}

static int32_t ag_find(ag_column *c, const unsigned char *data, int64_t at, size_t n, uint64_t h, uint64_t packed);

/* The id of data[at, at + n) among the column's tags, added when new; -1: no memory. */
static int32_t ag_intern(ag_column *c, const unsigned char *data, size_t len, int64_t at, size_t n) {
    uint64_t packed = 0;
    if (n <= 8) {
        if ((size_t)at + 8 <= len) { /* one load, the bytes past the tag masked off */
            memcpy(&packed, data + at, 8);
            if (n < 8) packed &= (1ULL << (8 * n)) - 1;
        } else {
            for (size_t i = 0; i < n; i++) packed |= (uint64_t)data[at + (int64_t)i] << (8 * i);
        }
    }
    uint64_t h = n <= 8 ? (packed ^ (uint64_t)n) * 0x9E3779B97F4A7C15ULL : ag_hash(data + at, n);
    size_t memo = (size_t)(h >> 58);
    int32_t id;
    if (n <= 8 && c->memo_len[memo] == n && c->memo_key[memo] == packed) {
        id = c->memo_id[memo];
    } else {
        if (2 * (c->n + 1) > c->cap && ag_rehash(c) < 0) return -1;
        h ^= h >> 29; /* the slots take the low bits */
        id = ag_find(c, data, at, n, h, packed);
        if (id >= 0 && n <= 8) {
            c->memo_key[memo] = packed;
            c->memo_len[memo] = (uint8_t)n;
            c->memo_id[memo] = id;
        }
    }
    return id;
}

/* The id of data[at, at + n) (hash h) among the column's tags, added when new; -1: no memory. */
static int32_t ag_find(ag_column *c, const unsigned char *data, int64_t at, size_t n, uint64_t h, uint64_t packed) {
    size_t i = (size_t)(h & (c->cap - 1));
    while (c->slot[i]) {
        const ag_key *k = &c->keys[c->slot[i] - 1];
        if (k->hash == h && (size_t)k->len == n && (n <= 8 ? k->packed == packed : memcmp(data + k->offset, data + at, n) == 0)) {
            return c->slot[i] - 1;
        }
        i = (i + 1) & (c->cap - 1);
    }
    if (c->n >= INT32_MAX - 1 || ag_grow((void **)&c->keys, &c->keys_cap, c->n + 1, sizeof *c->keys) < 0) {
        return -1;
    }
    c->keys[c->n] = (ag_key){at, (int64_t)n, h, packed};
    c->slot[i] = (int32_t)(c->n + 1);
    return (int32_t)c->n++;
}

static const unsigned char AG_DOCSTART[] = "-DOCSTART-";
#define AG_DOCSTART_LEN 10

void ag_scan_free(ag_scan_t *s) {
    free(s->word_start);
    free(s->doc_start);
    free(s->sentence);
    if (s->col) {
        for (int c = 0; c < s->width - 1; c++) {
            free(s->col[c].slot);
            free(s->col[c].keys);
            free(s->col[c].ids);
        }
    }
    free(s->col);
    memset(s, 0, sizeof *s);
}

/* The first token line: the width, and the columns it makes. */
static int ag_first(ag_scan_t *s, int count) {
    if (count < 3) {
        s->stop = "fewer than three columns";
        return -1;
    }
    if (count > 64) {
        s->stop = "more than 63 tag columns";
        return -1;
    }
    s->width = count;
    s->col = calloc((size_t)count - 1, sizeof *s->col);
    if (!s->col) {
        s->stop = "no memory";
        return -1;
    }
    return 0;
}

/* Room for token t in the per-token arrays (they grow together). 0, or -1 without memory. */
static int ag_room(ag_scan_t *s, size_t t) {
    if (ag_grow((void **)&s->word_start, &s->cap, t + 1, sizeof *s->word_start) < 0) return -1;
    if (s->cap != s->sized) { /* the other per-token arrays grow with it */
        size_t cap = s->cap;
        uint8_t *se = realloc(s->sentence, cap);
        if (!se) return -1;
        s->sentence = se;
        for (int c = 0; c < s->width - 1; c++) {
            uint16_t *ids = realloc(s->col[c].ids, cap * sizeof *ids);
            if (!ids) return -1;
            s->col[c].ids = ids;
        }
        s->sized = cap;
    }
    return 0;
}

/* Token t (its ids set) placed: its word, sentence start and document. 0, or -1 without memory. */
static int ag_place(ag_scan_t *s, size_t t, int64_t word, int starts, size_t doc) {
    while (s->n_docs <= doc) { /* documents begin here (empty ones too, between -DOCSTART- lines) */
        if (ag_grow((void **)&s->doc_start, &s->doc_cap, s->n_docs + 2, sizeof *s->doc_start) < 0) return -1;
        s->doc_start[s->n_docs++] = (int64_t)t;
    }
    s->word_start[t] = word;
    s->sentence[t] = (uint8_t)starts;
    s->n_tokens = t + 1;
    return 0;
}

/* One token line: its word, sentence and document, and each tag interned. */
static int ag_token(ag_scan_t *s, const unsigned char *data, const int64_t *fs, const int64_t *fe, int starts,
                    size_t doc) {
    size_t t = s->n_tokens;
    if (ag_room(s, t) < 0) return -1;
    for (int c = 0; c < s->width - 1; c++) {
        ag_column *col = &s->col[c];
        int32_t id = ag_intern(col, data, s->len, fs[c + 1], (size_t)(fe[c + 1] - fs[c + 1]));
        if (id < 0) return -1;
        if (id > UINT16_MAX) return -2;
        col->ids[t] = (uint16_t)id;
    }
    return ag_place(s, t, fs[0], starts, doc);
}

/* The separators of 16 bytes (space, tab, newline) as bits, and (or'ed into high and cr) the bytes
 * past ASCII and the carriage returns among them: SSE2 where the compiler has it, else byte by
 * byte. */
#if defined(__SSE2__) || defined(_M_X64) || defined(_M_AMD64)
#include <emmintrin.h>
static inline unsigned ag_mask(const unsigned char *p, unsigned *high, unsigned *cr) {
    __m128i v = _mm_loadu_si128((const __m128i *)(const void *)p);
    __m128i m = _mm_or_si128(_mm_cmpeq_epi8(v, _mm_set1_epi8(' ')), _mm_cmpeq_epi8(v, _mm_set1_epi8('\t')));
    m = _mm_or_si128(m, _mm_cmpeq_epi8(v, _mm_set1_epi8('\n')));
    *high |= (unsigned)_mm_movemask_epi8(v); /* bytes past ASCII */
    *cr |= (unsigned)_mm_movemask_epi8(_mm_cmpeq_epi8(v, _mm_set1_epi8('\r')));
    return (unsigned)_mm_movemask_epi8(m);
}
#else
static inline unsigned ag_mask(const unsigned char *p, unsigned *high, unsigned *cr) {
    unsigned m = 0;
    for (unsigned i = 0; i < 16; i++) {
        m |= (unsigned)(p[i] == ' ' || p[i] == '\t' || p[i] == '\n') << i;
        *high |= p[i] & 0x80u;
        *cr |= p[i] == '\r';
    }
    return m;
}
#endif


#define AG_TAIL 48 /* the longest tail a line is compared with (ag_repeat) */

typedef struct {
    int64_t fs[64], fe[64]; /* the line's first fields */
    int count, last_token, leading;
    size_t before;      /* -DOCSTART- lines so far (a range after a cut: of the range) */
    size_t tail_len;    /* the last token line's bytes after its word, newline included (0: none) */
    unsigned char tail[AG_TAIL];
    uint16_t tail_ids[64]; /* and the ids of its tags */
} ag_line;

/* The line [p, e) whose fields are in l: a document's start, a blank, or a token. 0, or -1. */
static int ag_line_end(ag_scan_t *s, ag_line *l, const unsigned char *data, const unsigned char *p,
                       const unsigned char *e) {
    int count = l->count;
    l->count = 0;
    if (count > 0 && (size_t)(e - p) >= AG_DOCSTART_LEN && memcmp(p, AG_DOCSTART, AG_DOCSTART_LEN) == 0 &&
        (p + AG_DOCSTART_LEN == e || p[AG_DOCSTART_LEN] == ' ' || p[AG_DOCSTART_LEN] == '\t')) {
        l->before++;
        l->last_token = 0;
        return 0;
    }
    if (count == 0) {
        l->last_token = 0;
        return 0;
    }
    if (!s->width && ag_first(s, count) < 0) return -1;
    if (count != s->width) {
        s->stop = "a line with another number of columns";
        return -1;
    }
    if (l->leading < 0) l->leading = l->before == 0;
    int got = ag_token(s, data, l->fs, l->fe, !l->last_token, l->leading ? l->before : l->before - 1);
    if (got < 0) {
        s->stop = got == -2 ? "a column of more than 65535 distinct tags" : "no memory";
        return -1;
    }
    l->last_token = 1;
    size_t tail = (size_t)(e - data - l->fe[0]) + 1; /* from the word's end to the newline, included */
    l->tail_len = 0;
    if (l->fs[0] == p - data && tail <= AG_TAIL) { /* the word begins the line */
        memcpy(l->tail, data + l->fe[0], tail);
        for (int c = 0; c < s->width - 1; c++) l->tail_ids[c] = s->col[c].ids[s->n_tokens - 1];
        l->tail_len = tail;
    }
    return 0;
}

/* The end of the word at p (the first space, tab or newline, or end), the bytes past ASCII and the
 * carriage returns in it or'ed into hi and r: 16 bytes at once where SSE2 is. */
static inline const unsigned char *ag_word_end(const unsigned char *p, const unsigned char *end, unsigned *hi,
                                               unsigned *r) {
#if defined(__SSE2__) || defined(_M_X64) || defined(_M_AMD64)
    if (end - p >= 16) {
        unsigned high = 0, cr = 0, m = ag_mask(p, &high, &cr);
        if (m) {
            unsigned before = (1u << nerve_lowest_bit(m)) - 1; /* the word's bytes */
            *hi |= high & before;
            *r |= cr & before;
            return p + nerve_lowest_bit(m);
        }
    }
#endif
    while (p < end && *p != ' ' && *p != '\t' && *p != '\n') {
        *hi |= *p & 0x80u;
        *r |= *p == '\r';
        p++;
    }
    return p;
}

/* Whether the bytes at w are the last token line's tail (l->tail, newline included). */
static inline int ag_same_tail(const unsigned char *w, const unsigned char *end, const ag_line *l) {
    size_t n = l->tail_len;
    if ((size_t)(end - w) < n) return 0;
#if defined(__SSE2__) || defined(_M_X64) || defined(_M_AMD64)
    if (n <= 16 && end - w >= 16) {
        __m128i a = _mm_loadu_si128((const __m128i *)(const void *)w);
        __m128i b = _mm_loadu_si128((const __m128i *)(const void *)l->tail);
        unsigned want = (1u << n) - 1;
        return ((unsigned)_mm_movemask_epi8(_mm_cmpeq_epi8(a, b)) & want) == want;
    }
#endif
    return memcmp(w, l->tail, n) == 0;
}

/* 1: lines that repeat the last past their word are read at once (ag_repeat); 0: every line field by
 * field, as the fuzz target reads them too, to compare. */
static int ag_repeat_lines = 1;

/* Token lines from p on whose bytes after their word are the last token line's (ag_line.tail), read
 * at once: a word at the line's start (not -DOCSTART-), then the same bytes, so the same fields and
 * tags. The most common line in a file of annotators' tags repeats the one before it past its word
 * ("O O O O O"). Where the next line starts that is not such a line, or NULL (s->stop set). */
static const unsigned char *ag_repeat(ag_scan_t *s, ag_line *l, const unsigned char *data, const unsigned char *p,
                                      const unsigned char *end, unsigned *high, unsigned *cr) {
    while (l->tail_len) {
        unsigned hi = 0, r = 0;
        const unsigned char *w = ag_word_end(p, end, &hi, &r);
        if (w == p || !ag_same_tail(w, end, l)) return p;
        if (w - p == AG_DOCSTART_LEN && memcmp(p, AG_DOCSTART, AG_DOCSTART_LEN) == 0) return p;
        *high |= hi;
        *cr |= r;
        size_t t = s->n_tokens;
        if (ag_room(s, t) < 0) {
            s->stop = "no memory";
            return NULL;
        }
        for (int c = 0; c < s->width - 1; c++) s->col[c].ids[t] = l->tail_ids[c];
        if (ag_place(s, t, p - data, !l->last_token, l->leading ? l->before : l->before - 1) < 0) {
            s->stop = "no memory";
            return NULL;
        }
        l->last_token = 1;
        p = w + l->tail_len;
    }
    return p;
}

/* A separator at c: the field before it (if any) counted; a newline ends the line. 0, or -1. */
static inline int ag_separator(ag_scan_t *s, ag_line *l, const unsigned char *data, const unsigned char *c,
                               const unsigned char **field, const unsigned char **line) {
    if (c > *field) {
        if (l->count < 64) {
            l->fs[l->count] = *field - data;
            l->fe[l->count] = c - data;
        }
        if (l->count < INT32_MAX) l->count++;
    }
    *field = c + 1;
    if (*c != '\n') return 0;
    int got = ag_line_end(s, l, data, *line, c);
    *line = c + 1;
    return got;
}

/* Read data[0, len): 0, or -1 with s->stop saying why the numpy engine must read it. The bytes are
 * read once: carriage returns and bytes past ASCII are noted on the way, and only a file with the
 * latter is checked for UTF-8 (whole), once the lines are read. */
int ag_scan(const unsigned char *data, size_t len, ag_scan_t *s) {
    memset(s, 0, sizeof *s);
    s->len = len;
    if (len == 0 || data[len - 1] != '\n') s->stop = "no final newline";
    else if (len >= 3 && memcmp(data, "\xef\xbb\xbf", 3) == 0) s->stop = "a byte order mark";
    if (s->stop) return -1;
    if (ag_grow((void **)&s->word_start, &s->cap, len / 32 + 1024, sizeof *s->word_start) < 0) {
        s->stop = "no memory";
        return -1;
    }
    ag_line l;
    l.count = l.last_token = 0;
    l.leading = -1;
    l.before = l.tail_len = 0;
    const unsigned char *q = data, *end = data + len, *field = data, *line = data;
    unsigned high = 0, cr = 0; /* bytes past ASCII, carriage returns: checked once the loop is done */
    while (end - q >= 16) { /* 16 bytes at a time, each separator in order */
        const unsigned char *next = q + 16;
        for (unsigned m = ag_mask(q, &high, &cr); m; m &= m - 1) {
            const unsigned char *c = q + nerve_lowest_bit(m);
            if (ag_separator(s, &l, data, c, &field, &line) < 0) return -1;
            if (*c == '\n' && l.tail_len && ag_repeat_lines) { /* lines repeating the last past their word */
                const unsigned char *after = ag_repeat(s, &l, data, c + 1, end, &high, &cr);
                if (!after) return -1;
                if (after != c + 1) {
                    field = line = next = after;
                    break;
                }
            }
        }
        q = next;
    }
    for (; q < end; q++) {
        high |= *q & 0x80u;
        cr |= *q == '\r';
        if ((*q == ' ' || *q == '\t' || *q == '\n') && ag_separator(s, &l, data, q, &field, &line) < 0) return -1;
    }
    if (cr) s->stop = "a carriage return";
    else if (high && !nerve_valid_utf8(data, len)) s->stop = "bytes that are not UTF-8";
    else if (!s->n_tokens) s->stop = "no token line";
    if (s->stop) return -1;
    s->doc_start[s->n_docs] = (int64_t)s->n_tokens;
    s->leading = l.leading;
    s->before = l.before;
    return 0;
}

/* ---- decoding: the shared rule, as csrc/conll.c and nerve.model.chunks decode ---- */

enum { AG_OUT = 0, AG_BEGIN = 1, AG_INSIDE = 2, AG_END = 3 };

static inline int ag_code(int pk, int pt, int ck, int ct) { return 10 * pk + 2 * ck + (pt == ct); }

static inline int ag_continues(int code) {
    int kp = code / 10, kc = code / 2 % 5, same = code % 2;
    return (kp == AG_BEGIN || kp == AG_INSIDE) && (kc == AG_INSIDE || kc == AG_END) && same;
}

typedef struct {
    int64_t *doc, *start, *end, *label;
    size_t n, cap;
    int fixed; /* the arrays are the caller's, of cap entities (an upper bound): never grown */
} ag_spans;

static int ag_emit(ag_spans *o, int64_t doc, int64_t start, int64_t end, int64_t label) {
    if (o->n == o->cap) {
        if (o->fixed) return -1;
        size_t cap = o->cap ? o->cap * 2 : 4096;
        int64_t *a[4] = {realloc(o->doc, cap * 8), NULL, NULL, NULL};
        if (!a[0]) return -1;
        o->doc = a[0];
        if (!(a[1] = realloc(o->start, cap * 8))) return -1;
        o->start = a[1];
        if (!(a[2] = realloc(o->end, cap * 8))) return -1;
        o->end = a[2];
        if (!(a[3] = realloc(o->label, cap * 8))) return -1;
        o->label = a[3];
        o->cap = cap;
    }
    o->doc[o->n] = doc;
    o->start[o->n] = start;
    o->end[o->n] = end;
    o->label[o->n] = label;
    o->n++;
    return 0;
}

/* The entities of one column's tag ids (kind and type of each id; type -1 outside), in document
 * offsets, and its transitions by pair code (sentence edges as the outside tag). 0, or -1. ids[0]
 * is token t0 of the whole: a file scanned in parts (agree_scan) is decoded part after part, each
 * ending a sentence, as the cut between them does. */
static int ag_decode_from(const uint16_t *ids, size_t n, const int8_t *kind, const int32_t *type,
                          const uint8_t *sentence, const int64_t *doc_start, size_t n_docs, int64_t *codes,
                          ag_spans *out, size_t t0) {
    int pk = AG_OUT, pt = -1, open = 0, open_type = 0;
    size_t doc = 0, open_start = 0;
    for (size_t t = 0; t <= n; t++) {
        int edge = t == n || sentence[t];
        if (!edge && pk == AG_OUT) { /* outside tags running on in a sentence: counted at once */
            size_t r = t;
            while (r < n && !sentence[r] && kind[ids[r]] == AG_OUT && type[ids[r]] == pt) r++;
            if (r > t) {
                codes[ag_code(AG_OUT, pt, AG_OUT, pt)] += (int64_t)(r - t);
                t = r - 1;
                continue;
            }
        }
        size_t g = t0 + t; /* the token's place in the whole file */
        if (edge && t > 0) { /* the previous sentence ends: into the outside tag */
            codes[ag_code(pk, pt, AG_OUT, -1)]++;
            if (open && ag_emit(out, (int64_t)doc, (int64_t)open_start - doc_start[doc],
                                (int64_t)g - doc_start[doc], open_type) < 0) {
                return -1;
            }
            open = 0;
            pk = AG_OUT;
            pt = -1;
        }
        if (t == n) break;
        while (doc + 1 < n_docs && (size_t)doc_start[doc + 1] <= g) doc++;
        int ck = kind[ids[t]], ct = type[ids[t]];
        int code = ag_code(pk, pt, ck, ct);
        codes[code]++;
        if (ck != AG_OUT || pk != AG_OUT) {
            int inside = ck != AG_OUT, goes_on = inside && ag_continues(code);
            if (!goes_on && open) {
                if (ag_emit(out, (int64_t)doc, (int64_t)open_start - doc_start[doc], (int64_t)g - doc_start[doc],
                            open_type) < 0) {
                    return -1;
                }
                open = 0;
            }
            if (inside && !goes_on) {
                open = 1;
                open_type = ct;
                open_start = g;
            }
        }
        pk = ck;
        pt = ct;
    }
    return 0;
}



/* ---- token labels and exact matches: what the statistics add up ---- */

typedef struct {
    const int64_t *doc, *start, *end, *label;
    size_t n;
} ag_side;

/* One document's tokens counted (see ag_tally): lab holds each annotator's label of each of its
 * len tokens (a row of len each). Tokens all annotators label alike, outside included, are counted
 * by label in agreed and added at the end, which ag_tally does. */
static void ag_tally_doc(const uint16_t *lab, int m, size_t len, int64_t k, int64_t *pairs, int64_t *same,
                         int64_t *mine, int64_t *agreed) {
    size_t kk = (size_t)(k * k);
    for (size_t t = 0; t < len; t++) {
        uint16_t l[64];
        int alike = 1;
        for (int a = 0; a < m; a++) {
            l[a] = lab[(size_t)a * len + t];
            alike &= l[a] == l[0];
        }
        if (alike) {
            agreed[l[0]]++;
            continue;
        }
        size_t p = 0;
        for (int a = 0; a < m; a++) {
            mine[l[a]]++;
            for (int b = a + 1; b < m; b++, p++) {
                pairs[p * kk + (size_t)l[a] * (size_t)k + l[b]]++;
                *same += 2 * (l[a] == l[b]);
            }
        }
    }
}

/* Per pair (i < j) the k x k label-pair counts, and per document the pairs of equal labels (sum
 * over tokens of sum_c n_c (n_c - 1)) and the labels given (n_c), from m flat, sorted sides: a
 * document at a time, each annotator's label of each of its tokens (type + 1 of the entity covering
 * it, 0 where none) painted in a buffer of the longest document, then counted. 0; -1 when an
 * entity lies outside its document or its label is out of range; -2 without memory. */
static int ag_tally(const ag_side *side, int m, const int64_t *doc_start, size_t n_docs, int64_t k, int64_t *pairs,
                    int64_t *same, int64_t *by_label) {
    size_t np = (size_t)m * (size_t)(m - 1) / 2, kk = (size_t)(k * k), longest = 0, at[64] = {0};
    for (size_t d = 0; d < n_docs; d++) {
        if ((size_t)(doc_start[d + 1] - doc_start[d]) > longest) longest = (size_t)(doc_start[d + 1] - doc_start[d]);
    }
    uint16_t *lab = malloc(((size_t)m * longest + 1) * sizeof *lab);
    int64_t *agreed = calloc((size_t)k, 8);
    int bad = !lab || !agreed ? -2 : 0;
    for (size_t d = 0; d < n_docs && !bad; d++) {
        size_t len = (size_t)(doc_start[d + 1] - doc_start[d]);
        memset(lab, 0, (size_t)m * len * sizeof *lab);
        for (int a = 0; a < m && !bad; a++) {
            const ag_side *x = &side[a];
            uint16_t *row = lab + (size_t)a * len;
            for (; at[a] < x->n && x->doc[at[a]] == (int64_t)d && !bad; at[a]++) {
                int64_t lo = x->start[at[a]], hi = x->end[at[a]], y = x->label[at[a]];
                bad = lo < 0 || hi < lo || hi > (int64_t)len || y < 0 || y + 1 >= k ? -1 : 0;
                for (int64_t t = lo; !bad && t < hi; t++) row[t] = (uint16_t)(y + 1);
            }
        }
        if (bad) break;
        int64_t *mine = by_label + d * (size_t)k;
        ag_tally_doc(lab, m, len, k, pairs, &same[d], mine, agreed);
        for (int64_t c = 0; c < k; c++) {
            if (!agreed[c]) continue;
            mine[c] += agreed[c] * m;
            same[d] += agreed[c] * m * (m - 1);
            for (size_t p = 0; p < np; p++) pairs[p * kk + (size_t)c * (size_t)k + (size_t)c] += agreed[c];
            agreed[c] = 0;
        }
    }
    for (int a = 0; a < m && !bad; a++) bad = at[a] != side[a].n ? -1 : 0; /* an entity of no document */
    free(lab);
    free(agreed);
    return bad;
}

/* Exact matches of flat, sorted annotators a and b (their types la and lb, in one list), document by
 * document: tp, fp (b's) and fn (a's) into out (3 a document); each match marked in both_a and
 * both_b and counted by a's own label in same. Documents must be below out's. */
/* The side's entities counted by document into out[3 * doc] (sorted by document: a run at a time,
 * not a store per entity into the same count). */
static void ag_by_doc(const ag_side *x, int64_t *out) {
    size_t e = 0;
    while (e < x->n) {
        size_t first = e;
        int64_t d = x->doc[e];
        while (e < x->n && x->doc[e] == d) e++;
        out[3 * d] += (int64_t)(e - first);
    }
}

static void ag_exact(const ag_side *a, const ag_side *b, const int64_t *la, const int64_t *lb, int64_t *out,
                     uint8_t *both_a, uint8_t *both_b, int64_t *same) {
    size_t i = 0, j = 0;
    ag_by_doc(a, out + 2);
    ag_by_doc(b, out + 1);
    while (i < a->n && j < b->n) {
        int64_t da = a->doc[i], db = b->doc[j];
        if (da != db || a->start[i] != b->start[j]) {
            if (da < db || (da == db && a->start[i] < b->start[j])) i++;
            else j++;
            continue;
        }
        if (a->end[i] == b->end[j] && la[i] == lb[j]) {
            out[3 * da]++;
            out[3 * da + 1]--;
            out[3 * da + 2]--;
            both_a[i] = both_b[j] = 1;
            same[a->label[i]]++;
        }
        i++;
        j++;
    }
}


/* ---- votes: every distinct entity and who marked it, its cluster, the clusters apart ---- */

typedef struct {
    int64_t *doc, *start, *end, *label, *cluster;
    uint64_t *voters;
    size_t n;
    int64_t *apart, *kinds;
    size_t n_apart;
} ag_votes;

/* Whether entity e of a comes before entity f of b: by document, start, longest first, type. */
static inline int ag_before(const ag_side *a, size_t e, const ag_side *b, size_t f) {
    if (a->doc[e] != b->doc[f]) return a->doc[e] < b->doc[f];
    if (a->start[e] != b->start[f]) return a->start[e] < b->start[f];
    if (a->end[e] != b->end[f]) return a->end[e] > b->end[f];
    return a->label[e] < b->label[f];
}

/* The category of the cluster of votes [lo, hi) (every annotator annotated every document): -1
 * where all agree, else 0 missed, 1 type, 2 boundary, 3 boundary_type (nerve.analysis.agree_votes). */
static int ag_category(const ag_votes *v, size_t lo, size_t hi, uint64_t all) {
    uint64_t marked = 0;
    int short_ = 0, same_extent = 1, same_type = 1;
    for (size_t r = lo; r < hi; r++) {
        marked |= v->voters[r];
        short_ |= v->voters[r] != all;
        same_extent &= v->start[r] == v->start[lo] && v->end[r] == v->end[lo];
        same_type &= v->label[r] == v->label[lo];
    }
    if (marked != all) return 0;
    if (!short_) return -1;
    return same_extent ? 1 : same_type ? 2 : 3;
}

/* The votes of m flat, sorted annotators (a merge of their lists), their clusters and categories. */
static void ag_vote(const ag_side *side, int m, ag_votes *v) {
    size_t at[64] = {0};
    uint64_t all = m == 64 ? ~0ULL : (1ULL << m) - 1;
    int64_t reach = 0, cluster = -1;
    size_t lo = 0;
    v->n = v->n_apart = 0;
    for (;;) {
        int best = -1;
        for (int a = 0; a < m; a++) {
            if (at[a] < side[a].n && (best < 0 || ag_before(&side[a], at[a], &side[best], at[best]))) best = a;
        }
        if (best < 0) break;
        const ag_side *b = &side[best];
        size_t e = at[best], r = v->n;
        uint64_t who = 0;
        for (int a = 0; a < m; a++) { /* everyone who marked this very entity */
            if (at[a] < side[a].n && !ag_before(b, e, &side[a], at[a])) {
                who |= 1ULL << a;
                at[a]++;
            }
        }
        if (r == 0 || b->doc[e] != v->doc[r - 1] || b->start[e] >= reach) { /* a new cluster */
            if (r > 0) {
                int c = ag_category(v, lo, r, all);
                if (c >= 0) {
                    v->apart[v->n_apart] = cluster;
                    v->kinds[v->n_apart++] = c;
                }
            }
            cluster++;
            lo = r;
            reach = b->end[e];
        } else if (b->end[e] > reach) {
            reach = b->end[e];
        }
        v->doc[r] = b->doc[e];
        v->start[r] = b->start[e];
        v->end[r] = b->end[e];
        v->label[r] = b->label[e];
        v->voters[r] = who;
        v->cluster[r] = cluster;
        v->n = r + 1;
    }
    if (v->n > 0) {
        int c = ag_category(v, lo, v->n, all);
        if (c >= 0) {
            v->apart[v->n_apart] = cluster;
            v->kinds[v->n_apart++] = c;
        }
    }
}


/* ---- the bootstrap's draws, as numpy's default_rng draws them ----
 *
 * numpy.random.default_rng(seed) is PCG64 (a 128-bit LCG, XSL-RR output) seeded from four words of
 * SeedSequence(seed) (computed in Python: nerve.analysis.agree_draws.seed_words), and
 * rng.integers(0, units, dtype=int64) with units below 2**32 draws 32-bit halves of its outputs
 * (the lower half first, the upper kept for the next draw) through Lemire's bounded method. Drawn
 * one after the other, resample by resample, the weights are numpy's, and so are the totals: every
 * value is a whole number, summed exactly in int64. */

typedef struct {
    uint64_t hi, lo;
} ag_u128;

static inline ag_u128 ag_mul(ag_u128 a, ag_u128 b) { /* a * b mod 2**128 */
#if defined(__SIZEOF_INT128__)
    unsigned __int128 x = ((unsigned __int128)a.hi << 64 | a.lo) * ((unsigned __int128)b.hi << 64 | b.lo);
    ag_u128 r = {(uint64_t)(x >> 64), (uint64_t)x};
    return r;
#else
    uint64_t a0 = a.lo & 0xFFFFFFFFu, a1 = a.lo >> 32, b0 = b.lo & 0xFFFFFFFFu, b1 = b.lo >> 32;
    uint64_t p00 = a0 * b0, p01 = a0 * b1, p10 = a1 * b0, p11 = a1 * b1;
    uint64_t mid = (p00 >> 32) + (p01 & 0xFFFFFFFFu) + (p10 & 0xFFFFFFFFu);
    ag_u128 r;
    r.lo = (mid << 32) | (p00 & 0xFFFFFFFFu);
    r.hi = p11 + (p01 >> 32) + (p10 >> 32) + (mid >> 32) + a.hi * b.lo + a.lo * b.hi;
    return r;
#endif
}

static inline ag_u128 ag_add(ag_u128 a, ag_u128 b) {
    ag_u128 r;
    r.lo = a.lo + b.lo;
    r.hi = a.hi + b.hi + (r.lo < a.lo);
    return r;
}

typedef struct {
    ag_u128 state, inc;
    int has32;
    uint32_t half;
} ag_pcg;

static const ag_u128 AG_PCG_MULT = {0x2360ED051FC65DA4ULL, 0x4385DF649FCCF645ULL};

static inline void ag_pcg_step(ag_pcg *g) { g->state = ag_add(ag_mul(g->state, AG_PCG_MULT), g->inc); }

/* numpy's pcg64_set_seed: seed = words 0 (high) and 1, increment = words 2 (high) and 3. */
static void ag_pcg_seed(ag_pcg *g, const uint64_t w[4]) {
    ag_u128 seed = {w[0], w[1]}, seq = {w[2], w[3]};
    g->state.hi = g->state.lo = 0;
    g->inc.hi = (seq.hi << 1) | (seq.lo >> 63);
    g->inc.lo = (seq.lo << 1) | 1u;
    ag_pcg_step(g);
    g->state = ag_add(g->state, seed);
    ag_pcg_step(g);
    g->has32 = 0;
    g->half = 0;
}

static inline uint64_t ag_pcg_next64(ag_pcg *g) {
    ag_pcg_step(g);
    uint64_t x = g->state.hi ^ g->state.lo;
    unsigned rot = (unsigned)(g->state.hi >> 58);
    return (x >> rot) | (x << ((64u - rot) & 63u));
}

static inline uint32_t ag_pcg_next32(ag_pcg *g) {
    if (g->has32) {
        g->has32 = 0;
        return g->half;
    }
    uint64_t next = ag_pcg_next64(g);
    g->has32 = 1;
    g->half = (uint32_t)(next >> 32);
    return (uint32_t)(next & 0xFFFFFFFFu);
}

/* A draw from [0, rng] (rng below 2**32 - 1), as numpy's buffered_bounded_lemire_uint32. */
static inline uint32_t ag_bounded(ag_pcg *g, uint32_t rng) {
    const uint32_t rng_excl = rng + 1;
    uint64_t m = (uint64_t)ag_pcg_next32(g) * rng_excl;
    uint32_t leftover = (uint32_t)(m & 0xFFFFFFFFu);
    if (leftover < rng_excl) {
        const uint32_t threshold = (UINT32_MAX - rng) % rng_excl;
        while (leftover < threshold) {
            m = (uint64_t)ag_pcg_next32(g) * rng_excl;
            leftover = (uint32_t)(m & 0xFFFFFFFFu);
        }
    }
    return (uint32_t)(m >> 32);
}

/* The column sums of n resamples (units drawn with replacement each) of values (units x k). */
/* Where the compiler and platform can pick a function's build at load time (GCC or clang, ELF,
 * x86-64), the resampling is also built for AVX2 and that build used where the CPU has it: 4 int64
 * or 8 int32 sums an instruction instead of SSE2's 2 or 4. The sums are whole numbers: the same in
 * any build. */
#if defined(__has_attribute)
#if __has_attribute(target_clones) && defined(__x86_64__) && defined(__ELF__) && !defined(__SANITIZE_ADDRESS__)
#define AG_CLONES __attribute__((target_clones("avx2", "default")))
#endif
#endif
#ifndef AG_CLONES
#define AG_CLONES /* one build: a compiler without target_clones (older GCC or clang) builds it too */
#endif

/* Resamples first to last (each of units draws of a row of k values, summed), into out ((last -
 * first) x k); the draws of the resamples before first are drawn and dropped. narrow: the values
 * as int32 where every column's sum of units draws fits in one (ag_narrow), else NULL. */
AG_CLONES static void ag_resample(const int64_t *values, const int32_t *narrow, size_t units, size_t k,
                                  size_t first, size_t last, const uint64_t w[4], int64_t *out, int32_t *sum) {
    ag_pcg g;
    ag_pcg_seed(&g, w);
    uint32_t top = (uint32_t)(units - 1);
    for (size_t r = 0; r < first && units > 1; r++) {
        for (size_t u = 0; u < units; u++) (void)ag_bounded(&g, top);
    }
    for (size_t r = first; r < last; r++) {
        int64_t *total = out + (r - first) * k;
        if (narrow) {
            memset(sum, 0, k * sizeof *sum);
            for (size_t u = 0; u < units; u++) {
                const int32_t *row = narrow + (size_t)(units > 1 ? ag_bounded(&g, top) : 0) * k;
                for (size_t c = 0; c < k; c++) sum[c] += row[c];
            }
            for (size_t c = 0; c < k; c++) total[c] = sum[c];
        } else {
            for (size_t u = 0; u < units; u++) {
                const int64_t *row = values + (size_t)(units > 1 ? ag_bounded(&g, top) : 0) * k;
                for (size_t c = 0; c < k; c++) total[c] += row[c];
            }
        }
    }
}

/* The values as int32 (into narrow) where any units of them sum, column by column, within int32;
 * 1, else 0. */
static int ag_narrow(const int64_t *values, size_t units, size_t k, int32_t *narrow) {
    for (size_t c = 0; c < k; c++) {
        int64_t most = 0;
        for (size_t u = 0; u < units; u++) {
            int64_t v = values[u * k + c];
            if (v < 0) v = v == INT64_MIN ? INT64_MAX : -v;
            if (v > most) most = v;
        }
        if (units && most > (int64_t)(INT32_MAX / (int64_t)units)) return 0;
    }
    for (size_t i = 0; i < units * k; i++) narrow[i] = (int32_t)values[i];
    return 1;
}

/* ---- the Python wrapper ---- */

static PyObject *ag_bytes(const void *p, size_t n) { return PyBytes_FromStringAndSize(p ? p : "", (Py_ssize_t)n); }

static PyObject *ag_columns(const ag_scan_t *s, const unsigned char *data) {
    PyObject *out = PyList_New(s->width - 1);
    for (int c = 0; out && c < s->width - 1; c++) {
        const ag_column *col = &s->col[c];
        PyObject *tags = PyList_New((Py_ssize_t)col->n);
        for (size_t k = 0; tags && k < col->n; k++) {
            PyObject *b = ag_bytes(data + col->keys[k].offset, (size_t)col->keys[k].len);
            if (!b) Py_CLEAR(tags);
            else PyList_SetItem(tags, (Py_ssize_t)k, b);
        }
        if (!tags) Py_CLEAR(out);
        else PyList_SetItem(out, c, tags);
    }
    return out;
}

/* A scan (agree_scan) kept whole in C: its arrays are read where they are (agree_decode,
 * agree_words), never copied out; agree_parts copies them for who wants to look. */
static const char AG_SCAN[] = "nerve.agree.scan";

static void ag_scan_release(PyObject *capsule) {
    ag_scan_t *s = PyCapsule_GetPointer(capsule, AG_SCAN);
    if (s) {
        ag_scan_free(s);
        free(s);
    }
}

static ag_scan_t *ag_scan_of(PyObject *o) {
    ag_scan_t *s = PyCapsule_IsValid(o, AG_SCAN) ? PyCapsule_GetPointer(o, AG_SCAN) : NULL;
    if (!s) PyErr_SetString(PyExc_TypeError, "a scan from agree_scan");
    return s;
}

/* ---- the file's bytes: a bytes object, or a read-only mapping of the file ---- */

/* A file mapped read-only (agree_map): its pages are the page cache's, so reading a big file costs
 * no copy and no fresh memory (f.read() of 22 MB took 16 ms, its mapping 1.5 ms). A file cut short
 * while mapped would fault on the lost pages (SIGBUS), as any reader of a mapped file would. */
typedef struct {
    void *p;
    size_t n;
} ag_mapping;

static const char AG_MAPPING[] = "nerve.agree.mapping";

static int ag_data(PyObject *o, const char **p, Py_ssize_t *n) {
    if (PyBytes_Check(o)) {
        char *b;
        if (PyBytes_AsStringAndSize(o, &b, n) < 0) return -1;
        *p = b;
        return 0;
    }
    ag_mapping *m = PyCapsule_IsValid(o, AG_MAPPING) ? PyCapsule_GetPointer(o, AG_MAPPING) : NULL;
    if (!m) {
        PyErr_SetString(PyExc_TypeError, "the data: bytes, or a mapping from agree_map");
        return -1;
    }
    *p = m->p;
    *n = (Py_ssize_t)m->n;
    return 0;
}

#ifndef _WIN32
static void ag_unmap(PyObject *capsule) {
    ag_mapping *m = PyCapsule_GetPointer(capsule, AG_MAPPING);
    if (m) {
        munmap(m->p, m->n);
        free(m);
    }
}
#endif

/* agree_map(path) -> (mapping, size): the file mapped read-only (a capsule the other functions take
 * as data), or None where it is not mapped (empty, not a regular file, no mmap): the caller reads it then. */
static PyObject *agree_map(PyObject *self, PyObject *arg) {
    (void)self;
#ifdef _WIN32
    (void)arg;
    Py_RETURN_NONE;
#else
    PyObject *path = NULL;
    if (!PyUnicode_FSConverter(arg, &path)) return NULL;
    const char *name = PyBytes_AsString(path);
    if (!name) {
        Py_DECREF(path);
        return NULL;
    }
    void *p = MAP_FAILED;
    size_t n = 0;
    Py_BEGIN_ALLOW_THREADS
    int fd = open(name, O_RDONLY | O_CLOEXEC);
    struct stat st;
    if (fd >= 0 && fstat(fd, &st) == 0 && S_ISREG(st.st_mode) && st.st_size > 0 &&
        (uint64_t)st.st_size < (uint64_t)PY_SSIZE_T_MAX) {
        n = (size_t)st.st_size;
        int flags = MAP_PRIVATE;
#ifdef MAP_POPULATE
        flags |= MAP_POPULATE; /* the pages mapped at once, not faulted in one by one */
#endif
        p = mmap(NULL, n, PROT_READ, flags, fd, 0);
    }
    if (fd >= 0) close(fd);
    Py_END_ALLOW_THREADS
    Py_DECREF(path);
    if (p == MAP_FAILED) Py_RETURN_NONE;
    ag_mapping *m = malloc(sizeof *m);
    PyObject *out = m ? PyCapsule_New(m, AG_MAPPING, ag_unmap) : NULL;
    if (!out) {
        free(m);
        munmap(p, n);
        return m ? NULL : PyErr_NoMemory();
    }
    m->p = p;
    m->n = n;
    return Py_BuildValue("(Nn)", out, (Py_ssize_t)n);
#endif
}

/* agree_slice(data, lo, hi) -> bytes: data[lo:hi], clipped to the data. */
static PyObject *agree_slice(PyObject *self, PyObject *args) {
    (void)self;
    PyObject *data;
    Py_ssize_t lo, hi, len;
    const char *buf;
    if (!PyArg_ParseTuple(args, "Onn", &data, &lo, &hi) || ag_data(data, &buf, &len) < 0) return NULL;
    lo = lo < 0 ? 0 : lo > len ? len : lo;
    hi = hi < lo ? lo : hi > len ? len : hi;
    return PyBytes_FromStringAndSize(buf + lo, hi - lo);
}

/* agree_scan(data, start, end) -> (n_docs, doc_start, scan, tokens, [tags, ...], width, leading,
 * docstarts) of the lines of data[start:end] (start at a line's start), or why not. scan: the
 * arrays (sentence starts, words' starts in data, each column's uint16 ids), kept in C. */
static PyObject *agree_scan(PyObject *self, PyObject *args) {
    (void)self;
    PyObject *data;
    Py_ssize_t start, end;
    if (!PyArg_ParseTuple(args, "Onn", &data, &start, &end)) return NULL;
    const char *buf;
    Py_ssize_t len;
    if (ag_data(data, &buf, &len) < 0) return NULL;
    if (start < 0 || end < start || end > len) {
        PyErr_SetString(PyExc_ValueError, "agree_scan: a range outside the data");
        return NULL;
    }
    ag_scan_t *s = malloc(sizeof *s);
    if (!s) return PyErr_NoMemory();
    int got;
    Py_BEGIN_ALLOW_THREADS
    got = ag_scan((const unsigned char *)buf + start, (size_t)(end - start), s);
    for (size_t t = 0; got == 0 && t < s->n_tokens; t++) s->word_start[t] += start; /* offsets into data */
    Py_END_ALLOW_THREADS
    if (got < 0) {
        const char *why = s->stop;
        ag_scan_free(s);
        free(s);
        if (why && strcmp(why, "no memory") == 0) return PyErr_NoMemory();
        return PyUnicode_FromString(why ? why : "unread");
    }
    PyObject *handle = PyCapsule_New(s, AG_SCAN, ag_scan_release);
    if (!handle) {
        ag_scan_free(s);
        free(s);
        return NULL;
    }
    PyObject *cols = ag_columns(s, (const unsigned char *)buf + start);
    PyObject *out = cols ? Py_BuildValue("(nNOnNiin)", (Py_ssize_t)s->n_docs, ag_bytes(s->doc_start, (s->n_docs + 1) * 8),
                                         handle, (Py_ssize_t)s->n_tokens, cols, s->width, s->leading,
                                         (Py_ssize_t)s->before)
                         : NULL;
    Py_DECREF(handle);
    return out;
}

/* agree_parts(scan) -> (sentence, word_start, [ids, ...]): a scan's arrays, copied out as bytes. */
static PyObject *agree_parts(PyObject *self, PyObject *handle) {
    (void)self;
    const ag_scan_t *s = ag_scan_of(handle);
    if (!s) return NULL;
    size_t n = s->n_tokens;
    PyObject *ids = PyList_New(s->width - 1);
    for (int c = 0; ids && c < s->width - 1; c++) {
        PyObject *b = ag_bytes(s->col[c].ids, n * 2);
        if (!b) Py_CLEAR(ids);
        else PyList_SetItem(ids, c, b);
    }
    return ids ? Py_BuildValue("(NNN)", ag_bytes(s->sentence, n), ag_bytes(s->word_start, n * 8), ids) : NULL;
}

/* agree_remap(ids, mapping) -> ids: uint16 ids through a mapping (the second half's ids into the first's). */
static PyObject *agree_remap(PyObject *self, PyObject *args) {
    (void)self;
    PyObject *ids, *mapping;
    if (!PyArg_ParseTuple(args, "SO!", &ids, &PyList_Type, &mapping)) return NULL;
    char *b;
    Py_ssize_t len;
    if (PyBytes_AsStringAndSize(ids, &b, &len) < 0) return NULL;
    Py_ssize_t k = PyList_Size(mapping);
    if (len % 2 || k > 65536) {
        PyErr_SetString(PyExc_ValueError, "agree_remap: uint16 ids and at most 65536 of them mapped");
        return NULL;
    }
    uint16_t to[65536];
    for (Py_ssize_t i = 0; i < k; i++) {
        long v = PyLong_AsLong(PyList_GetItem(mapping, i));
        if (v == -1 && PyErr_Occurred()) return NULL;
        if (v < 0 || v > UINT16_MAX) {
            PyErr_SetString(PyExc_ValueError, "agree_remap: an id out of range");
            return NULL;
        }
        to[i] = (uint16_t)v;
    }
    size_t n = (size_t)len / 2;
    uint16_t *out = malloc(n * 2 + 1);
    if (!out) return PyErr_NoMemory();
    const uint16_t *in = (const uint16_t *)(void *)b;
    for (size_t t = 0; t < n; t++) {
        if (in[t] >= k) {
            free(out);
            PyErr_SetString(PyExc_ValueError, "agree_remap: an id without a mapping");
            return NULL;
        }
        out[t] = to[in[t]];
    }
    PyObject *r = ag_bytes(out, n * 2);
    free(out);
    return r;
}

/* Arrays written without the GIL and handed out without a copy: k bytearrays of cap items of 8
 * bytes (an upper bound; the pages past what is written are never touched, so cost nothing), cut
 * to what was written by ag_cut. A copy into bytes took a fresh page for every 4 KiB written. */
static int ag_arrays(PyObject **o, int64_t **p, int k, size_t cap) {
    for (int i = 0; i < k; i++) o[i] = NULL;
    for (int i = 0; i < k; i++) {
        if (cap > (size_t)PY_SSIZE_T_MAX / 8 || !(o[i] = PyByteArray_FromStringAndSize(NULL, (Py_ssize_t)cap * 8))) {
            for (int j = 0; j < i; j++) Py_CLEAR(o[j]);
            if (!PyErr_Occurred()) PyErr_NoMemory();
            return -1;
        }
        p[i] = (int64_t *)(void *)PyByteArray_AsString(o[i]);
    }
    return 0;
}

/* The arrays cut to n items each (a shrink: no copy). 0, or -1 with the arrays released. */
static int ag_cut(PyObject **o, int k, size_t n) {
    int bad = 0;
    for (int i = 0; i < k; i++) bad |= PyByteArray_Resize(o[i], (Py_ssize_t)n * 8) < 0;
    if (bad) {
        for (int i = 0; i < k; i++) Py_CLEAR(o[i]);
    }
    return bad ? -1 : 0;
}

static int ag_buffer(PyObject *o, Py_ssize_t item, const char *what, const void **p, size_t *n) {
    char *b;
    Py_ssize_t len;
    if (PyByteArray_Check(o)) { /* an array this module handed out (ag_arrays) */
        b = PyByteArray_AsString(o);
        len = PyByteArray_Size(o);
    } else if (PyBytes_AsStringAndSize(o, &b, &len) < 0) {
        return -1;
    }
    if (len % item) {
        PyErr_Format(PyExc_ValueError, "%s: %zd bytes, not a whole number of items", what, len);
        return -1;
    }
    *p = b;
    *n = (size_t)(len / item);
    return 0;
}

#define AG_PARTS 8 /* the parts a file is scanned in, at most */

typedef struct {
    const ag_scan_t *scan;
    const uint16_t *ids; /* the column's */
    int8_t *kind; /* by the part's own tag ids */
    int32_t *type;
} ag_part;

/* The parts (scan, mapping of the part's tag ids to the column's, or None) of one column: their
 * scans and each part's kind and type tables (malloc'd, in out, also on an error). The number of
 * parts, or -1 with an error set. */
static int ag_parts_of(PyObject *parts, Py_ssize_t column, const int8_t *kind, const int32_t *type, size_t nk,
                       ag_part *out, size_t *tokens) {
    Py_ssize_t np = PyList_Check(parts) ? PyList_Size(parts) : -1;
    if (np < 1 || np > AG_PARTS) {
        PyErr_SetString(PyExc_ValueError, "agree_decode: a list of 1 to 8 parts");
        return -1;
    }
    *tokens = 0;
    for (Py_ssize_t i = 0; i < np; i++) {
        PyObject *part = PyList_GetItem(parts, i), *mapping;
        const ag_scan_t *s;
        if (!PyTuple_Check(part) || PyTuple_Size(part) != 2 || !(s = ag_scan_of(PyTuple_GetItem(part, 0)))) return -1;
        mapping = PyTuple_GetItem(part, 1);
        if (column < 0 || column >= s->width - 1 || (mapping != Py_None && !PyList_Check(mapping))) {
            PyErr_SetString(PyExc_ValueError, "agree_decode: a column of the scan, and a list or None");
            return -1;
        }
        const ag_column *col = &s->col[column];
        size_t n_tags = col->n;
        if (mapping != Py_None && (size_t)PyList_Size(mapping) != n_tags) {
            PyErr_SetString(PyExc_ValueError, "agree_decode: a mapping of every tag of the part");
            return -1;
        }
        out[i] = (ag_part){s, col->ids, malloc(n_tags + 1), malloc((n_tags + 1) * 4)};
        if (!out[i].kind || !out[i].type) {
            PyErr_NoMemory();
            return -1;
        }
        for (size_t t = 0; t < n_tags; t++) {
            long long to = (long long)t;
            if (mapping != Py_None && (to = PyLong_AsLongLong(PyList_GetItem(mapping, (Py_ssize_t)t))) == -1 &&
                PyErr_Occurred()) {
                return -1;
            }
            if (to < 0 || (size_t)to >= nk || kind[to] < 0 || kind[to] > 4) {
                PyErr_SetString(PyExc_ValueError, "agree_decode: a tag without its kind");
                return -1;
            }
            out[i].kind[t] = kind[to];
            out[i].type[t] = type[to];
        }
        *tokens += s->n_tokens;
    }
    return (int)np;
}

static PyObject *ag_decoded(const ag_part *part, int np, const int64_t *doc_start, size_t n_docs, size_t tokens);

/* agree_decode(parts, column, kind, type, doc_start) -> (codes, doc, start, end, label): one column
 * of a file scanned in parts (agree_scan; a part's tag ids mapped to the column's, or None), decoded
 * with the kind and type of each of the column's tags. */
static PyObject *agree_decode(PyObject *self, PyObject *args) {
    (void)self;
    PyObject *parts, *o[3];
    Py_ssize_t column;
    if (!PyArg_ParseTuple(args, "OnSSS", &parts, &column, &o[0], &o[1], &o[2])) return NULL;
    const void *p[3];
    size_t n[3];
    static const Py_ssize_t item[3] = {1, 4, 8};
    static const char *what[3] = {"kind", "type", "doc_start"};
    for (int i = 0; i < 3; i++) {
        if (ag_buffer(o[i], item[i], what[i], &p[i], &n[i]) < 0) return NULL;
    }
    ag_part part[AG_PARTS] = {{0}};
    size_t tokens = 0;
    int np = ag_parts_of(parts, column, p[0], p[1], n[0], part, &tokens);
    PyObject *result = NULL;
    if (np < 0) goto done; /* the tables made so far freed */
    if (n[0] != n[1] || n[2] < 1 || ((const int64_t *)p[2])[n[2] - 1] != (int64_t)tokens) {
        PyErr_SetString(PyExc_ValueError, "agree_decode: inconsistent lengths");
        goto done;
    }
    result = ag_decoded(part, np, p[2], n[2] - 1, tokens);
done:
    for (int i = 0; i < AG_PARTS; i++) {
        free(part[i].kind);
        free(part[i].type);
    }
    return result;
}

/* The column's parts decoded one after the other (ag_decode_from), as agree_decode returns them. */
static PyObject *ag_decoded(const ag_part *part, int np, const int64_t *doc_start, size_t n_docs, size_t tokens) {
    int64_t codes[50] = {0};
    PyObject *arrays[4];
    int64_t *p4[4];
    if (ag_arrays(arrays, p4, 4, tokens + 1) < 0) return NULL; /* an entity a token at least */
    ag_spans out = {p4[0], p4[1], p4[2], p4[3], 0, tokens + 1, 1};
    int got = 0;
    Py_BEGIN_ALLOW_THREADS
    size_t t0 = 0;
    for (int i = 0; i < np && got == 0; i++) {
        const ag_scan_t *s = part[i].scan;
        got = ag_decode_from(part[i].ids, s->n_tokens, part[i].kind, part[i].type, s->sentence, doc_start, n_docs,
                             codes, &out, t0);
        t0 += s->n_tokens;
    }
    Py_END_ALLOW_THREADS
    PyObject *list = got < 0 ? NULL : PyList_New(50);
    for (int i = 0; list && i < 50; i++) {
        PyObject *v = PyLong_FromLongLong(codes[i]);
        if (!v) Py_CLEAR(list);
        else PyList_SetItem(list, i, v);
    }
    if (!list || ag_cut(arrays, 4, out.n) < 0) {
        if (got < 0) PyErr_SetString(PyExc_RuntimeError, "agree_decode: more entities than tokens");
        Py_XDECREF(list);
        for (int i = 0; i < 4; i++) Py_XDECREF(arrays[i]);
        return NULL;
    }
    return Py_BuildValue("(NNNNN)", list, arrays[0], arrays[1], arrays[2], arrays[3]);
}


/* Whether the entities are flat and in order: by document, then start, none overlapping. */
static int ag_flat(const ag_side *a) {
    for (size_t e = 1; e < a->n; e++) {
        if (a->doc[e] < a->doc[e - 1] || (a->doc[e] == a->doc[e - 1] && a->start[e] < a->end[e - 1])) return 0;
    }
    return 1;
}

/* A column (doc, start, end, label) of int64 bytes as a side: 0, or -1 with an error set. */
static int ag_column_of(PyObject *c, ag_side *side) {
    const void *p[4];
    size_t len[4];
    if (!PyTuple_Check(c) || PyTuple_Size(c) != 4) {
        PyErr_SetString(PyExc_ValueError, "a column is (doc, start, end, label)");
        return -1;
    }
    for (int f = 0; f < 4; f++) {
        if (ag_buffer(PyTuple_GetItem(c, f), 8, "column", &p[f], &len[f]) < 0) return -1;
    }
    if (len[1] != len[0] || len[2] != len[0] || len[3] != len[0]) {
        PyErr_SetString(PyExc_ValueError, "a column's arrays differ in length");
        return -1;
    }
    *side = (ag_side){p[0], p[1], p[2], p[3], len[0]};
    return 0;
}

/* agree_tokens(columns, doc_start, k) -> (pairs, same, by_label) or None: see ag_count. */
static PyObject *agree_tokens(PyObject *self, PyObject *args) {
    (void)self;
    PyObject *columns, *starts;
    long long k;
    if (!PyArg_ParseTuple(args, "O!SL", &PyList_Type, &columns, &starts, &k)) return NULL;
    Py_ssize_t m = PyList_Size(columns);
    const void *ds;
    size_t nd1;
    if (ag_buffer(starts, 8, "doc_start", &ds, &nd1) < 0) return NULL;
    if (m < 2 || m > 64 || nd1 < 1 || k < 1 || k > 65535) {
        PyErr_SetString(PyExc_ValueError, "agree_tokens: 2 to 64 columns, a doc_start and 1 to 65535 labels");
        return NULL;
    }
    const int64_t *doc_start = ds;
    size_t n_docs = nd1 - 1;
    ag_side side[64];
    for (Py_ssize_t a = 0; a < m; a++) {
        if (ag_column_of(PyList_GetItem(columns, a), &side[a]) < 0) return NULL;
        if (!ag_flat(&side[a])) Py_RETURN_NONE;
    }
    size_t np = (size_t)(m * (m - 1) / 2), kk = (size_t)(k * k);
    int64_t *pairs = calloc(np * kk, 8), *same = calloc(n_docs + 1, 8), *by_label = calloc(n_docs * (size_t)k + 1, 8);
    PyObject *out = NULL;
    int bad = 0;
    if (!pairs || !same || !by_label) {
        PyErr_NoMemory();
        goto done;
    }
    Py_BEGIN_ALLOW_THREADS
    bad = ag_tally(side, (int)m, doc_start, n_docs, k, pairs, same, by_label);
    Py_END_ALLOW_THREADS
    if (bad == -2) {
        PyErr_NoMemory();
        goto done;
    }
    if (bad) {
        PyErr_SetString(PyExc_ValueError, "agree_tokens: an entity outside its document, or a label out of range");
        goto done;
    }
    out = Py_BuildValue("(NNN)", ag_bytes(pairs, np * kk * 8), ag_bytes(same, n_docs * 8),
                        ag_bytes(by_label, n_docs * (size_t)k * 8));
done:
    free(pairs);
    free(same);
    free(by_label);
    return out;
}


/* agree_votes(columns) -> (doc, start, end, label, voters, cluster, apart, kinds) or None: see ag_vote. */
static PyObject *agree_votes(PyObject *self, PyObject *columns) {
    (void)self;
    if (!PyList_Check(columns)) {
        PyErr_SetString(PyExc_TypeError, "agree_votes: a list of columns");
        return NULL;
    }
    Py_ssize_t m = PyList_Size(columns);
    if (m < 1 || m > 63) Py_RETURN_NONE;
    ag_side side[64];
    size_t total = 0;
    for (Py_ssize_t a = 0; a < m; a++) {
        if (ag_column_of(PyList_GetItem(columns, a), &side[a]) < 0) return NULL;
        if (!ag_flat(&side[a])) Py_RETURN_NONE;
        total += side[a].n;
    }
    PyObject *arrays[8];
    int64_t *p[8];
    if (ag_arrays(arrays, p, 8, total + 1) < 0) return NULL;
    ag_votes v = {p[0], p[1], p[2], p[3], p[4], (uint64_t *)(void *)p[5], 0, p[6], p[7], 0};
    Py_BEGIN_ALLOW_THREADS
    ag_vote(side, (int)m, &v);
    Py_END_ALLOW_THREADS
    if (ag_cut(arrays, 6, v.n) < 0 || ag_cut(arrays + 6, 2, v.n_apart) < 0) {
        for (int i = 0; i < 8; i++) Py_XDECREF(arrays[i]);
        return NULL;
    }
    /* in the order of the result: doc, start, end, label, voters, cluster, apart, kinds */
    return Py_BuildValue("(NNNNNNNN)", arrays[0], arrays[1], arrays[2], arrays[3], arrays[5], arrays[4], arrays[6],
                         arrays[7]);
}


/* agree_values(exacts, same, by_label, m, k) -> bytes: the bootstrap's values by document (int64,
 * a row each): each pair's tp, fp and fn (exacts: each pair's, by document), then alpha's parts
 * [n, S_2..S_m, n_c...], of which S_m (same: each document's pairs of equal labels) alone is not 0,
 * every token having all m labels (by_label: each document's k label counts). */
static PyObject *agree_values(PyObject *self, PyObject *args) {
    (void)self;
    PyObject *exacts, *same_o, *labels_o;
    Py_ssize_t m, k;
    if (!PyArg_ParseTuple(args, "O!SSnn", &PyList_Type, &exacts, &same_o, &labels_o, &m, &k)) return NULL;
    const void *ps, *pl;
    size_t n_docs, nl;
    if (ag_buffer(same_o, 8, "same", &ps, &n_docs) < 0 || ag_buffer(labels_o, 8, "by_label", &pl, &nl) < 0) return NULL;
    Py_ssize_t np = PyList_Size(exacts);
    if (m < 2 || k < 1 || nl != n_docs * (size_t)k || np > 4096) {
        PyErr_SetString(PyExc_ValueError, "agree_values: m >= 2, k >= 1, k labels a document, 4096 pairs at most");
        return NULL;
    }
    const int64_t *ex[4096];
    for (Py_ssize_t p = 0; p < np; p++) {
        const void *pe;
        size_t ne;
        if (ag_buffer(PyList_GetItem(exacts, p), 8, "exact", &pe, &ne) < 0) return NULL;
        if (ne != 3 * n_docs) {
            PyErr_SetString(PyExc_ValueError, "agree_values: each pair's tp, fp and fn for every document");
            return NULL;
        }
        ex[p] = pe;
    }
    size_t width = 3 * (size_t)np + (size_t)m + (size_t)k;
    PyObject *r = PyBytes_FromStringAndSize(NULL, (Py_ssize_t)(n_docs * width * 8));
    if (!r) return NULL;
    int64_t *out = (int64_t *)(void *)PyBytes_AsString(r); /* written before anyone sees it */
    const int64_t *same = ps, *by_label = pl;
    for (size_t d = 0; d < n_docs; d++) {
        int64_t *row = out + d * width, n = 0;
        for (Py_ssize_t p = 0; p < np; p++) memcpy(row + 3 * p, ex[p] + 3 * d, 24);
        row += 3 * np;
        for (Py_ssize_t c = 0; c < k; c++) n += by_label[d * (size_t)k + (size_t)c];
        row[0] = n;
        for (Py_ssize_t j = 1; j < m - 1; j++) row[j] = 0; /* S_2 .. S_m-1 */
        row[m - 1] = same[d];
        memcpy(row + m, by_label + d * (size_t)k, (size_t)k * 8);
    }
    return r;
}

/* agree_resample(values, units, k, n, words) -> int64 totals (n x k): see ag_resample. */
static PyObject *agree_resample(PyObject *self, PyObject *args) {
    (void)self;
    PyObject *values;
    Py_ssize_t units, k, n, first = 0, last = -1;
    unsigned long long w[4];
    if (!PyArg_ParseTuple(args, "Snnn(KKKK)|nn", &values, &units, &k, &n, &w[0], &w[1], &w[2], &w[3], &first, &last)) {
        return NULL;
    }
    const void *p;
    size_t len;
    if (ag_buffer(values, 8, "values", &p, &len) < 0) return NULL;
    if (last < 0) last = n;
    if (units < 0 || k < 0 || n < 0 || (size_t)units >= UINT32_MAX || len != (size_t)units * (size_t)k ||
        (k && (size_t)n > SIZE_MAX / 8 / (size_t)k) || first < 0 || first > last || last > n) {
        PyErr_SetString(PyExc_ValueError, "agree_resample: units x k values, units below 2**32, 0 <= first <= last <= n");
        return NULL;
    }
    size_t count = (size_t)(last - first);
    PyObject *r = PyBytes_FromStringAndSize(NULL, (Py_ssize_t)(count * (size_t)k * 8));
    int32_t *narrow = malloc(len * 4 + 4), *sum = malloc((size_t)k * 4 + 4);
    if (!r || !narrow || !sum) {
        Py_XDECREF(r);
        free(narrow);
        free(sum);
        return r ? PyErr_NoMemory() : NULL;
    }
    int64_t *out = (int64_t *)(void *)PyBytes_AsString(r); /* written before anyone sees it */
    memset(out, 0, count * (size_t)k * 8);
    uint64_t words[4] = {w[0], w[1], w[2], w[3]};
    if (units > 0) {
        Py_BEGIN_ALLOW_THREADS
        int fits = ag_narrow(p, (size_t)units, (size_t)k, narrow);
        ag_resample(p, fits ? narrow : NULL, (size_t)units, (size_t)k, (size_t)first, (size_t)last, words, out, sum);
        Py_END_ALLOW_THREADS
    }
    free(narrow);
    free(sum);
    return r;
}


/* agree_apart(a, b, a_label, b_label, k, n_docs) -> (a's rest, b's rest, same, exact): two flat, sorted
 * columns less the entities both hold (same document, start, end and type: a_label and b_label, in
 * one list of types), how many of those each of a's k labels has, and the pair's exact tp, fp and
 * fn by document (ag_exact). Such an entity overlaps nothing else (each side's entities are
 * disjoint), so MUC's matching pairs it alone, COR in every mode, and the matcher need only see the
 * rest. */
static PyObject *agree_apart(PyObject *self, PyObject *args) {
    (void)self;
    PyObject *ca, *cb, *la, *lb;
    Py_ssize_t k, n_docs;
    if (!PyArg_ParseTuple(args, "OOSSnn", &ca, &cb, &la, &lb, &k, &n_docs)) return NULL;
    ag_side a, b;
    const void *pa, *pb;
    size_t na, nb;
    if (ag_column_of(ca, &a) < 0 || ag_column_of(cb, &b) < 0) return NULL;
    if (ag_buffer(la, 8, "a_label", &pa, &na) < 0 || ag_buffer(lb, 8, "b_label", &pb, &nb) < 0) return NULL;
    PyObject *arrays[8];
    int64_t *rest[8];
    if (ag_arrays(arrays, rest, 4, a.n + 1) < 0) return NULL;
    if (ag_arrays(arrays + 4, rest + 4, 4, b.n + 1) < 0) {
        for (int f = 0; f < 4; f++) Py_DECREF(arrays[f]);
        return NULL;
    }
    int ok = na == a.n && nb == b.n && k >= 0 && n_docs >= 0, fits = 0;
    uint8_t *both_a = NULL, *both_b = NULL;
    int64_t *same = NULL, *exact = NULL;
    size_t count[2] = {0, 0};
    Py_BEGIN_ALLOW_THREADS
    ok = ok && ag_flat(&a) && ag_flat(&b);
    for (size_t e = 0; ok && e < a.n; e++) ok = a.label[e] >= 0 && a.label[e] < k && a.doc[e] >= 0 && a.doc[e] < n_docs;
    for (size_t e = 0; ok && e < b.n; e++) ok = b.doc[e] >= 0 && b.doc[e] < n_docs;
    if (ok) {
        both_a = calloc(a.n + 1, 1);
        both_b = calloc(b.n + 1, 1);
        same = calloc((size_t)k + 1, 8);
        exact = calloc(3 * (size_t)n_docs + 1, 8);
        fits = both_a && both_b && same && exact;
    }
    if (fits) {
        ag_exact(&a, &b, pa, pb, exact, both_a, both_b, same);
        const ag_side *sides[2] = {&a, &b};
        const uint8_t *both[2] = {both_a, both_b};
        for (int s2 = 0; s2 < 2; s2++) {
            const ag_side *x = sides[s2];
            int64_t **to = rest + 4 * s2;
            size_t at = 0;
            for (size_t e = 0; e < x->n; e++) { /* written always, kept when not held by both: no branch */
                to[0][at] = x->doc[e];
                to[1][at] = x->start[e];
                to[2][at] = x->end[e];
                to[3][at] = x->label[e];
                at += !both[s2][e];
            }
            count[s2] = at;
        }
    }
    Py_END_ALLOW_THREADS
    PyObject *out = NULL, *list = NULL;
    if (!ok) {
        PyErr_SetString(PyExc_ValueError, "agree_apart: flat, sorted columns, their labels, documents below n_docs");
    } else if (!fits) {
        PyErr_NoMemory();
    } else if ((list = PyList_New(k)) != NULL) {
        for (Py_ssize_t t = 0; list && t < k; t++) {
            PyObject *v = PyLong_FromLongLong(same[t]);
            if (!v) Py_CLEAR(list);
            else PyList_SetItem(list, t, v);
        }
    }
    if (list && ag_cut(arrays, 4, count[0]) == 0 && ag_cut(arrays + 4, 4, count[1]) == 0) {
        out = Py_BuildValue("((NNNN)(NNNN)NN)", arrays[0], arrays[1], arrays[2], arrays[3], arrays[4], arrays[5],
                            arrays[6], arrays[7], list, ag_bytes(exact, 3 * (size_t)n_docs * 8));
    } else {
        Py_XDECREF(list);
        for (int f = 0; f < 8; f++) Py_XDECREF(arrays[f]);
    }
    free(both_a);
    free(both_b);
    free(same);
    free(exact);
    return out;
}

/* agree_words(data, word_start, lo, hi) -> [str]: the words of tokens lo to hi (each from its start to
 * the first space, tab or newline), decoded. */
static PyObject *agree_words(PyObject *self, PyObject *args) {
    (void)self;
    PyObject *data, *scans;
    Py_ssize_t lo, hi;
    if (!PyArg_ParseTuple(args, "OO!nn", &data, &PyList_Type, &scans, &lo, &hi)) return NULL;
    const char *buf;
    Py_ssize_t len;
    if (ag_data(data, &buf, &len) < 0) return NULL;
    Py_ssize_t np = PyList_Size(scans);
    const ag_scan_t *part[AG_PARTS];
    size_t n = 0;
    if (np < 1 || np > AG_PARTS) {
        PyErr_SetString(PyExc_ValueError, "agree_words: a list of 1 to 8 scans");
        return NULL;
    }
    for (Py_ssize_t i = 0; i < np; i++) {
        if (!(part[i] = ag_scan_of(PyList_GetItem(scans, i)))) return NULL;
        n += part[i]->n_tokens;
    }
    if (lo < 0 || hi < lo || (size_t)hi > n) {
        PyErr_SetString(PyExc_ValueError, "agree_words: a range outside the tokens");
        return NULL;
    }
    PyObject *out = PyList_New(hi - lo);
    Py_ssize_t i = 0;
    size_t base = 0; /* the tokens of the scans before scan i */
    for (Py_ssize_t t = lo; out && t < hi; t++) {
        while ((size_t)t >= base + part[i]->n_tokens) base += part[i++]->n_tokens;
        Py_ssize_t w0 = (Py_ssize_t)part[i]->word_start[(size_t)t - base], e = w0;
        if (w0 < 0 || w0 >= len) {
            Py_CLEAR(out);
            PyErr_SetString(PyExc_ValueError, "agree_words: a word outside the data");
            break;
        }
        while (e < len && buf[e] != ' ' && buf[e] != '\t' && buf[e] != '\n') e++;
        PyObject *w = PyUnicode_DecodeUTF8(buf + w0, e - w0, "strict");
        if (!w) Py_CLEAR(out);
        else PyList_SetItem(out, t - lo, w);
    }
    return out;
}

/* agree_relabel(label, mapping) -> label: each int64 label l as mapping[l]. */
static PyObject *agree_relabel(PyObject *self, PyObject *args) {
    (void)self;
    PyObject *label, *mapping;
    if (!PyArg_ParseTuple(args, "OO!", &label, &PyList_Type, &mapping)) return NULL;
    const void *p;
    size_t n;
    if (ag_buffer(label, 8, "label", &p, &n) < 0) return NULL;
    Py_ssize_t k = PyList_Size(mapping);
    int64_t *to = malloc(((size_t)k + 1) * 8);
    PyObject *result = to ? PyBytes_FromStringAndSize(NULL, (Py_ssize_t)(n * 8)) : PyErr_NoMemory();
    if (!result) goto done;
    for (Py_ssize_t i = 0; i < k; i++) {
        to[i] = PyLong_AsLongLong(PyList_GetItem(mapping, i));
        if (to[i] == -1 && PyErr_Occurred()) {
            Py_CLEAR(result);
            goto done;
        }
    }
    const int64_t *in = p;
    int64_t *out = (int64_t *)(void *)PyBytes_AsString(result); /* written before anyone sees it */
    for (size_t e = 0; e < n; e++) {
        if (in[e] < 0 || in[e] >= k) {
            PyErr_SetString(PyExc_ValueError, "agree_relabel: a label out of range");
            Py_CLEAR(result);
            goto done;
        }
        out[e] = to[in[e]];
    }
done:
    free(to);
    return result;
}

PyMethodDef nerve_agree_methods[] = {
    {"agree_map", agree_map, METH_O, "A file mapped read-only, or None where it is not mapped."},
    {"agree_slice", agree_slice, METH_VARARGS, "Bytes of the data (bytes or a mapping)."},
    {"agree_parts", agree_parts, METH_O, "A scan's arrays, copied out as bytes."},
    {"agree_scan", agree_scan, METH_VARARGS, "The lines of a CoNLL file of several tag columns, or why not."},
    {"agree_remap", agree_remap, METH_VARARGS, "uint16 ids through a mapping."},
    {"agree_decode", agree_decode, METH_VARARGS, "One tag column's entities and transitions."},
    {"agree_tokens", agree_tokens, METH_VARARGS, "Label-pair counts, labels by document, exact matches."},
    {"agree_relabel", agree_relabel, METH_VARARGS, "Labels mapped to others."},
    {"agree_values", agree_values, METH_VARARGS, "The bootstrap's values by document."},
    {"agree_resample", agree_resample, METH_VARARGS, "Resampled column sums, drawn as numpy's default_rng draws."},
    {"agree_apart", agree_apart, METH_VARARGS, "Two columns less the entities both hold, and how many by type."},
    {"agree_words", agree_words, METH_VARARGS, "The words of a range of tokens."},
    {"agree_votes", agree_votes, METH_O, "Every distinct entity, who marked it, its cluster; the clusters apart."},
    {NULL, NULL, 0, NULL},
};
