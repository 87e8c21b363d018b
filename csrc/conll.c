/* CoNLL column files counted in C: the core (pure C, csrc/conll.h) and its Python wrapper.
 *
 * Fuzz entry point: the core alone, compiled with -DNERVE_CONLL_CORE_ONLY (no Python): nc_new,
 * nc_start, nc_feed / nc_run until NC_FILE_DONE or NC_HANDOVER, nc_finish, nc_free; and
 * nc_sniff_tab over any bytes.
 *
 * The numpy engine (nerve.io.tags.conll) is the reference. Every line is classified as it
 * classifies it (blank, token, -DOCSTART-, comment; fields split at runs of spaces and tabs, or at
 * each delimiter), gold and prediction lines pair as it pairs them (line by line, or sentence by
 * sentence when the prediction file lacks the -DOCSTART- lines), and tags are decoded with the
 * shared rule (nerve.model.chunks) or conlleval.pl's state machine
 * (nerve.tagging.conlleval_rules). Whatever the numpy engine would refuse or read another way
 * (an invalid byte, a lone CR, a NUL byte, a column count that changes, files that do not align,
 * a tag that does not fit) stops the core with NC_HANDOVER, and the numpy engine reads the input
 * from the start: it gives the result or its own error, with its message.
 */
#include <stdint.h>
#include <stdlib.h>
#include <string.h>

#include "conll.h"
#include "bits.h"
#include "utf8.h"

/* Inlined on the per-token path (the compilers' own heuristics leave these as calls). */
#if defined(_MSC_VER)
#define HOT static __forceinline
#elif defined(__GNUC__) || defined(__clang__)
#define HOT static inline __attribute__((always_inline))
#else
#define HOT static inline
#endif

enum { BLANK = 0, TOKEN = 1, DOC = 2, COMMENT = 3 };
enum { K_OUT = 0, K_BEGIN = 1, K_INSIDE = 2, K_END = 3, K_SINGLE = 4 };
enum { P_O = 0, P_B = 1, P_I = 2, P_E = 3, P_DOT = 4, P_OPEN = 5, P_CLOSE = 6, P_OTHER = 7 };
enum { GET_ROW = 0, GET_NEED = 1, GET_END = 2, GET_BAD = 3 };

typedef struct {
    unsigned char *buf;
    size_t len, pos, cap;
    int eof, at_start, expected, last_token, delimiter;
} side_t;

typedef struct {
    int kind, count;
    const unsigned char *f[3]; /* first, second-to-last and last field */
    size_t n[3];
    size_t next; /* where the line after this one starts */
} row_t;

typedef struct {
    size_t hash, offset, len;
    unsigned long long key; /* a tag of up to 8 bytes: its bytes, so that no memcmp is needed */
    int used;
    nc_tag tag;
} entry_t;

typedef struct {
    nc_tag prev;
    int open, open_type, entering;
    long long start;
} decoder_t;

typedef struct {
    int counts, type; /* counts: a chunk closed, and counted (discard's tables may drop it) */
    long long start;
} chunk_t;

struct nc_state {
    nc_options opt;
    side_t side[2];
    int paired, sentences_mode, doc_pending, in_sentence;
    long long docs;
    entry_t *table;
    size_t table_cap, table_n;
    nc_tag held[2]; /* the last tag looked up in each column, and its length and key if short */
    size_t held_len[2];
    unsigned long long held_key[2];
    char *arena;
    size_t arena_len, arena_cap;
    decoder_t dec[2];
    long long index; /* tokens so far: chunk positions */
    int perl_last[4], perl_in;
    size_t cap_types, cap_ptypes, cap_vids;
    nc_totals t;
    const char *reason;
};

static const nc_tag OUTSIDE = {0, K_OUT, -1, P_O, 0};

/* ---- the tables of the shared decoding rule and of conlleval.pl ---- */

HOT int continues(int code) {
    int kp = code / 10, kc = code / 2 % 5, same = code % 2;
    return (kp == K_BEGIN || kp == K_INSIDE) && (kc == K_INSIDE || kc == K_END) && same;
}

HOT int pair_code(const nc_tag *prev, const nc_tag *cur) {
    return 10 * prev->kind + 2 * cur->kind + (prev->type == cur->type);
}

HOT int perl_end(int prev, int cur) {
    if (prev == P_OPEN || prev == P_CLOSE) return 1;
    return (prev == P_B && (cur == P_B || cur == P_O)) || (prev == P_I && (cur == P_B || cur == P_O)) ||
           (prev == P_E && (cur == P_E || cur == P_I || cur == P_O));
}

HOT int perl_start(int prev, int cur) {
    if (cur == P_OPEN || cur == P_CLOSE) return 1;
    return (cur == P_B && (prev == P_B || prev == P_I || prev == P_O)) || (prev == P_O && cur == P_I) ||
           (prev == P_E && (cur == P_E || cur == P_I)) || (prev == P_O && cur == P_E);
}

/* ---- growing arrays ---- */

static int grow(long long **a, size_t *cap, size_t need) {
    if (need <= *cap) return 0;
    size_t n = *cap ? *cap : 16;
    while (n < need) n *= 2;
    long long *b = (long long *)realloc(*a, n * sizeof **a);
    if (!b) return -1;
    memset(b + *cap, 0, (n - *cap) * sizeof **a);
    *a = b;
    *cap = n;
    return 0;
}

static int grow_counts(nc_state *s, const nc_tag *t) {
    size_t types = (size_t)(t->type + 1), ptypes = (size_t)t->ptype + 1, vids = (size_t)t->vid + 1;
    size_t old = s->cap_types;
    if (grow(&s->t.gold, &old, types)) return -1;
    old = s->cap_types;
    if (grow(&s->t.pred, &old, types)) return -1;
    old = s->cap_types;
    if (grow(&s->t.matched, &s->cap_types, types)) return -1;
    old = s->cap_ptypes;
    if (grow(&s->t.perl_gold, &old, ptypes)) return -1;
    old = s->cap_ptypes;
    if (grow(&s->t.perl_pred, &old, ptypes)) return -1;
    if (grow(&s->t.perl_correct, &s->cap_ptypes, ptypes)) return -1;
    old = s->cap_vids;
    if (grow(&s->t.used[0], &old, vids)) return -1;
    if (grow(&s->t.used[1], &s->cap_vids, vids)) return -1;
    if (types > s->t.n_types) s->t.n_types = types;
    if (ptypes > s->t.n_ptypes) s->t.n_ptypes = ptypes;
    if (vids > s->t.n_vids) s->t.n_vids = vids;
    return 0;
}

/* ---- the tag table: distinct tag strings to what the caller resolved them to ---- */

/* A tag of up to 8 bytes as a number (its bytes, zero-padded), else 0; and the hash of any tag. */
HOT unsigned long long short_key(const unsigned char *p, size_t n) {
    static const union {
        unsigned short u;
        unsigned char c[2];
    } endian = {1};
    unsigned long long k = 0;
    if (n > 8) return 0;
    if (endian.c[0]) { /* little-endian: one load (side buffers have CHUNK bytes to spare), then a mask */
        memcpy(&k, p, 8);
        return n == 8 ? k : k & ((1ull << (8 * n)) - 1);
    }
    for (size_t i = 0; i < n; i++) k |= (unsigned long long)p[i] << (8 * i);
    return k;
}

static size_t hash_of(const unsigned char *p, size_t n, unsigned long long key) {
    if (n <= 8) return (size_t)(((key ^ n) * 0x9E3779B97F4A7C15ull) >> 17);
    size_t h = 1469598103u;
    for (size_t i = 0; i < n; i++) h = (h ^ p[i]) * 16777619u;
    return h ^ n;
}

static int rehash(nc_state *s) {
    size_t cap = s->table_cap ? s->table_cap * 2 : 256;
    entry_t *t = (entry_t *)calloc(cap, sizeof *t);
    if (!t) return -1;
    for (size_t i = 0; i < s->table_cap; i++) {
        if (!s->table[i].used) continue;
        size_t j = s->table[i].hash & (cap - 1);
        while (t[j].used) j = (j + 1) & (cap - 1);
        t[j] = s->table[i];
    }
    free(s->table);
    s->table = t;
    s->table_cap = cap;
    return 0;
}

/* lookup's way when the tag is not the column's last short one: the table (the tag resolved and
 * added when new). */
static const nc_tag *lookup_table(nc_state *s, int col, const unsigned char *p, size_t n, unsigned long long key) {
    s->held_len[col] = (size_t)-1;
    size_t h = hash_of(p, n, key), j = h & (s->table_cap - 1);
    while (s->table[j].used) {
        entry_t *e = &s->table[j];
        if (e->hash == h && e->len == n && (n <= 8 ? e->key == key : memcmp(s->arena + e->offset, p, n) == 0)) {
            s->held[col] = e->tag;
            if (n <= 8) {
                s->held_len[col] = n;
                s->held_key[col] = key;
            }
            return &s->held[col];
        }
        j = (j + 1) & (s->table_cap - 1);
    }
    nc_tag tag;
    if (s->opt.resolve == NULL || s->opt.resolve(s->opt.ctx, (const char *)p, n, &tag) != 0) {
        s->reason = "a tag that does not fit";
        return NULL;
    }
    if (tag.type < -1 || tag.ptype < 0 || tag.vid < 0 || tag.kind < 0 || tag.kind > 4 || grow_counts(s, &tag)) {
        s->reason = "a tag the caller could not resolve";
        return NULL;
    }
    if (s->arena_len + n + 1 > s->arena_cap) {
        size_t cap = s->arena_cap ? s->arena_cap : 4096;
        while (cap < s->arena_len + n + 1) cap *= 2;
        char *a = (char *)realloc(s->arena, cap);
        if (!a) return NULL;
        s->arena = a;
        s->arena_cap = cap;
    }
    memcpy(s->arena + s->arena_len, p, n);
    if ((s->table_n + 1) * 2 > s->table_cap) {
        if (rehash(s)) return NULL;
        j = h & (s->table_cap - 1);
        while (s->table[j].used) j = (j + 1) & (s->table_cap - 1);
    }
    entry_t *e = &s->table[j];
    e->hash = h;
    e->key = key;
    e->offset = s->arena_len;
    e->len = n;
    e->used = 1;
    e->tag = tag;
    s->arena_len += n;
    s->table_n++;
    s->held[col] = tag;
    return &s->held[col];
}

/* The tag of the bytes p[0:n] in column col (0 gold, 1 predicted), copied into s->held[col], which
 * stays valid while the table grows; NULL (and the reason set) when it does not fit or memory ran out.
 * The column's last short tag is checked first (tags repeat: runs of O), then, for a predicted tag,
 * the gold tag of the line (mostly the same). */
HOT const nc_tag *lookup(nc_state *s, int col, const unsigned char *p, size_t n) {
    unsigned long long key = short_key(p, n);
    if (n <= 8 && s->held_len[col] == n && s->held_key[col] == key) return &s->held[col];
    if (col == 1 && n <= 8 && s->held_len[0] == n && s->held_key[0] == key) { /* the gold tag again */
        s->held[1] = s->held[0];
        s->held_len[1] = n;
        s->held_key[1] = key;
        return &s->held[1];
    }
    return lookup_table(s, col, p, n, key);
}

/* ---- lines ---- */

static const unsigned char DOCSTART[] = "-DOCSTART-";
#define DOCSTART_LEN 10

/* ---- the bytes that matter to a line, found 16 at a time ----
 *
 * A line is read in one pass over the bytes that may matter to it: spaces, tabs, control bytes
 * (newline, CR, NUL), bytes of 0x80 and up (then the line's UTF-8 is checked) and the delimiter.
 * chunk_mask(p, delimiter) has bit i set when p[i] is one of them. It may also set the bit of
 * another byte (the 8-byte-word path does, above a byte it flags) but never misses one: the
 * scanners read each flagged byte and take any other for a plain byte of a field. SSE2 where the
 * compiler has it (x86-64 always), else 8-byte words on little-endian machines, else byte by byte;
 * NERVE_CONLL_SCAN (1 bytes, 2 words, 3 SSE2) picks one for the tests. A side's buffer keeps CHUNK
 * bytes past its data, zeroed, so the last chunk's load stays inside it. */
#define CHUNK 16

#ifndef NERVE_CONLL_SCAN
#if defined(__SSE2__) || defined(_M_X64) || defined(_M_AMD64) || (defined(_M_IX86_FP) && _M_IX86_FP >= 2)
#define NERVE_CONLL_SCAN 3
#elif defined(_WIN32) || (defined(__BYTE_ORDER__) && __BYTE_ORDER__ == __ORDER_LITTLE_ENDIAN__)
#define NERVE_CONLL_SCAN 2
#else
#define NERVE_CONLL_SCAN 1
#endif
#endif

#if NERVE_CONLL_SCAN == 3
#include <emmintrin.h>

HOT unsigned chunk_mask(const unsigned char *p, int delimiter) {
    __m128i v = _mm_loadu_si128((const __m128i *)(const void *)p);
    __m128i m = _mm_cmplt_epi8(v, _mm_set1_epi8(0x21)); /* signed: bytes of 0x80 and up too */
    if (delimiter > 0x20) m = _mm_or_si128(m, _mm_cmpeq_epi8(v, _mm_set1_epi8((char)delimiter)));
    return (unsigned)_mm_movemask_epi8(m);
}
#elif NERVE_CONLL_SCAN == 2
/* The top bit of each byte of w that is below 0x21, of 0x80 or up, or the delimiter (and maybe of a
 * byte above one that is: a borrow). */
static uint64_t flag_bytes(uint64_t w, int delimiter) {
    const uint64_t ones = 0x0101010101010101ull;
    uint64_t m = ((w - ones * 0x21) & ~w) | w;
    if (delimiter > 0x20 && delimiter < 0x80) {
        uint64_t x = w ^ (ones * (uint64_t)delimiter);
        m |= (x - ones) & ~x;
    }
    return m & (ones * 0x80);
}

HOT unsigned chunk_mask(const unsigned char *p, int delimiter) {
    uint64_t a, b;
    memcpy(&a, p, 8);
    memcpy(&b, p + 8, 8);
    a = (flag_bytes(a, delimiter) >> 7) * 0x0102040810204080ull >> 56; /* byte i's flag to bit i */
    b = (flag_bytes(b, delimiter) >> 7) * 0x0102040810204080ull >> 56;
    return (unsigned)(a | b << 8);
}
#else
HOT unsigned chunk_mask(const unsigned char *p, int delimiter) {
    unsigned m = 0;
    for (unsigned i = 0; i < CHUNK; i++)
        if (p[i] < 0x21 || p[i] >= 0x80 || p[i] == delimiter) m |= 1u << i;
    return m;
}
#endif

/* A field p[0:n] of a row: the first, and the last two so far. */
HOT void add_field(row_t *r, const unsigned char *p, size_t n) {
    if (r->count == 0) {
        r->f[0] = p;
        r->n[0] = n;
    }
    r->f[1] = r->f[2];
    r->n[1] = r->n[2];
    r->f[2] = p;
    r->n[2] = n;
    r->count++;
}

/* Where a line that meets a CR at c ends: its newline follows (or the file ends there); else a lone CR. */
static int at_cr(const unsigned char *c, const unsigned char *end, int eof, const unsigned char **next) {
    if (c + 1 < end) {
        if (c[1] != '\n') return GET_BAD;
        *next = c + 2;
        return GET_ROW;
    }
    if (!eof) return GET_NEED;
    *next = end;
    return GET_ROW;
}

/* The line from p (the data read ends at end; eof: the file ends there too), its fields split at
 * runs of spaces and tabs (delimiter < 0) or at each delimiter byte, where a line of only spaces,
 * tabs and delimiters is blank: GET_ROW (*stop: where its text ends, *next: the line after it;
 * *high: whether it holds bytes of 0x80 and up), GET_NEED (it may go on past end) or GET_BAD (a
 * NUL, a lone CR). Inlined, and called with a constant -1 for runs of blanks: that copy keeps none
 * of the delimiter's bookkeeping. */
HOT int scan_line(const unsigned char *p, const unsigned char *end, int eof, int delimiter, row_t *r,
                  const unsigned char **stop, const unsigned char **next, int *high) {
    const int blanks = delimiter < 0;
    const unsigned char *q = p, *field = p, *after = p, *c = end;
    int content = blanks; /* runs of blanks: a line of blanks has no field, and is blank anyway */
    *next = end;
    for (;; q += CHUNK) {
        unsigned m = chunk_mask(q, delimiter);
        if (end - q < CHUNK) m &= (1u << (end - q)) - 1u;
        while (m) {
            c = q + nerve_lowest_bit(m);
            m &= m - 1;
            if (!blanks) {
                content |= c > after; /* plain bytes since the last flagged one */
                after = c + 1;
            }
            unsigned ch = *c;
            if (blanks ? ch == ' ' || ch == '\t' : (int)ch == delimiter) {
                if (!blanks || c > field) add_field(r, field, (size_t)(c - field));
                field = c + 1;
            } else if (ch == '\n') {
                *next = c + 1;
                goto line_end;
            } else if (ch == '\r') {
                int got = at_cr(c, end, eof, next);
                if (got != GET_ROW) return got;
                goto line_end;
            } else if (ch == 0) {
                return GET_BAD;
            } else if (ch != ' ' && ch != '\t') {
                content = 1;
                *high |= ch >= 0x80;
            }
        }
        if (end - q <= CHUNK) break;
    }
    if (!eof) return GET_NEED;
    c = end;
line_end:
    if (!blanks) content |= c > after;
    if (!blanks || c > field) add_field(r, field, (size_t)(c - field));
    if (!content) r->count = 0; /* only spaces, tabs and delimiters: blank */
    *stop = c;
    return GET_ROW;
}

/* The next line of a side (comments skipped): GET_ROW, GET_NEED (feed more), GET_END or GET_BAD. */
HOT int next_line(nc_state *s, side_t *d, int comments, row_t *r) {
    for (;;) {
        if (d->at_start) {
            if (d->len - d->pos < 3 && !d->eof) return GET_NEED;
            if (d->len - d->pos >= 3 && memcmp(d->buf + d->pos, "\xef\xbb\xbf", 3) == 0) d->pos += 3;
            d->at_start = 0;
        }
        if (d->pos >= d->len) return d->eof ? GET_END : GET_NEED;
        const unsigned char *p = d->buf + d->pos, *end = d->buf + d->len, *stop = p, *next = p;
        int high = 0, got;
        r->count = 0;
        r->f[0] = r->f[1] = r->f[2] = p;
        r->n[0] = r->n[1] = r->n[2] = 0;
        if (d->delimiter < 0) got = scan_line(p, end, d->eof, -1, r, &stop, &next, &high);
        else got = scan_line(p, end, d->eof, d->delimiter, r, &stop, &next, &high);
        if (got == GET_NEED) return GET_NEED;
        size_t n = (size_t)(stop - p);
        if (got == GET_BAD || (high && !nerve_valid_utf8(p, n))) {
            s->reason = "a NUL byte, a lone CR or bytes that are not UTF-8";
            return GET_BAD;
        }
        r->next = (size_t)(next - d->buf);
        r->kind = r->count > 0 ? TOKEN : BLANK;
        if (n >= DOCSTART_LEN && p[0] == '-' && memcmp(p, DOCSTART, DOCSTART_LEN) == 0) {
            size_t e = DOCSTART_LEN;
            if (d->delimiter < 0) {
                while (e < n && p[e] != ' ' && p[e] != '\t') e++;
            } else {
                while (e < n && p[e] != d->delimiter) e++;
            }
            if (e == DOCSTART_LEN || p[DOCSTART_LEN] == ' ') r->kind = DOC;
        }
        if (comments && n > 0 && p[0] == '#') r->kind = COMMENT;
        if (r->kind != COMMENT) return GET_ROW;
        d->pos = r->next;
    }
}

/* ---- counting ---- */

HOT void close_chunk(nc_state *s, decoder_t *d, int leaving, chunk_t *out) {
    out->counts = 0;
    out->type = 0;
    out->start = 0;
    if (!d->open) return;
    d->open = 0;
    out->counts = s->opt.policy != 1 || !(s->opt.bad_start[d->entering] || s->opt.bad_end[leaving]);
    out->type = d->open_type;
    out->start = d->start;
}

HOT void count_chunks(nc_state *s, const chunk_t *g, const chunk_t *p) {
    if (g->counts) s->t.gold[g->type]++;
    if (p->counts) s->t.pred[p->type]++;
    if (g->counts && p->counts && g->start == p->start && g->type == p->type) s->t.matched[g->type]++;
}

HOT void perl_step(nc_state *s, int gc, int gt, int pc, int pt) {
    int lgc = s->perl_last[0], lgt = s->perl_last[1], lpc = s->perl_last[2], lpt = s->perl_last[3];
    if ((gc | gt | pc | pt | lgc | lgt | lpc | lpt) == 0) return; /* O after O on both sides: no change */
    int gold_end = perl_end(lgc, gc) || (lgc != P_O && lgc != P_DOT && lgt != gt);
    int pred_end = perl_end(lpc, pc) || (lpc != P_O && lpc != P_DOT && lpt != pt);
    int gold_start = perl_start(lgc, gc) || (gc != P_O && gc != P_DOT && lgt != gt);
    int pred_start = perl_start(lpc, pc) || (pc != P_O && pc != P_DOT && lpt != pt);
    int close = gold_end && pred_end && lpt == lgt;
    int broken = (gold_end != pred_end) || pt != gt;
    int set = gold_start && pred_start && pt == gt;
    if (gold_start) s->t.perl_gold[gt]++;
    if (pred_start) s->t.perl_pred[pt]++;
    if (s->perl_in && close) s->t.perl_correct[lgt]++;
    if (set) s->perl_in = 1;
    else if (close || broken) s->perl_in = 0;
    s->perl_last[0] = gc;
    s->perl_last[1] = gt;
    s->perl_last[2] = pc;
    s->perl_last[3] = pt;
}

/* The end of a sentence: the transitions into the outside tag, and the chunks still open. */
static void end_sentence(nc_state *s) {
    chunk_t c[2];
    for (int k = 0; k < 2; k++) {
        int leaving = pair_code(&s->dec[k].prev, &OUTSIDE);
        s->t.codes[k][leaving]++;
        close_chunk(s, &s->dec[k], leaving, &c[k]);
        s->dec[k].prev = OUTSIDE;
    }
    s->t.used[0][0]++;
    s->t.used[1][0]++;
    s->in_sentence = 0;
    if (s->opt.policy != 3) count_chunks(s, &c[0], &c[1]);
}

HOT void token(nc_state *s, const nc_tag *g, const nc_tag *p, int sentence_start, int doc_start) {
    if (sentence_start) {
        if (s->in_sentence) end_sentence(s);
        s->in_sentence = 1;
        s->t.sentences++;
        if (s->opt.policy == 3) perl_step(s, P_O, 0, P_O, 0);
    }
    s->t.documents += doc_start;
    s->t.tokens++;
    s->t.correct += g->vid == p->vid;
    s->t.used[0][g->vid]++;
    s->t.used[1][p->vid]++;
    const nc_tag *tags[2] = {g, p};
    chunk_t c[2] = {{0, 0, 0}, {0, 0, 0}};
    for (int k = 0; k < 2; k++) {
        decoder_t *d = &s->dec[k];
        const nc_tag *t = tags[k];
        int code = pair_code(&d->prev, t);
        s->t.codes[k][code]++;
        if (t->kind == K_OUT && d->prev.kind == K_OUT) { /* outside after outside: no chunk is open */
            d->prev = *t;
            continue;
        }
        int inside = t->kind != K_OUT, goes_on = inside && continues(code);
        if (!goes_on) close_chunk(s, d, code, &c[k]);
        if (inside && !goes_on) {
            d->open = 1;
            d->open_type = t->type;
            d->entering = code;
            d->start = s->index;
        }
        d->prev = *t;
    }
    if (s->opt.policy == 3) perl_step(s, g->pcode, g->ptype, p->pcode, p->ptype);
    else if (c[0].counts | c[1].counts) count_chunks(s, &c[0], &c[1]);
    s->index++;
}

/* The column count of a side's token line: the first sets it; another count hands over. */
static int columns_ok(nc_state *s, side_t *d, const row_t *r, int minimum) {
    if (d->expected < 0) {
        d->expected = r->count;
        if (r->count < minimum) {
            s->reason = "too few columns";
            return 0;
        }
    }
    if (r->count != d->expected) {
        s->reason = "a line with another number of columns";
        return 0;
    }
    return 1;
}

/* A gold row: the sentence and document it starts. Returns whether it starts a sentence. */
static int gold_row(nc_state *s, const row_t *r, int *doc_start) {
    side_t *g = &s->side[0];
    int starts = 0;
    *doc_start = 0;
    if (r->kind == TOKEN) {
        starts = !g->last_token;
        *doc_start = s->doc_pending;
        s->doc_pending = 0;
    } else if (r->kind == DOC) {
        s->doc_pending = 1;
        s->docs++;
    }
    g->last_token = r->kind == TOKEN;
    return starts;
}

static int run_merged(nc_state *s) {
    side_t *g = &s->side[0];
    row_t r;
    for (;;) {
        int got = next_line(s, g, s->opt.comments, &r);
        if (got == GET_NEED) return NC_NEED_GOLD;
        if (got == GET_BAD) return NC_HANDOVER;
        if (got == GET_END) return NC_FILE_DONE;
        int doc_start, starts = gold_row(s, &r, &doc_start);
        if (r.kind == TOKEN) {
            if (!columns_ok(s, g, &r, 2)) return NC_HANDOVER;
            const nc_tag *gt = lookup(s, 0, r.f[1], r.n[1]);
            const nc_tag *pt = gt ? lookup(s, 1, r.f[2], r.n[2]) : NULL;
            if (!pt) return NC_HANDOVER;
            token(s, gt, pt, starts, doc_start);
        }
        g->pos = r.next;
    }
}

/* Whether a row of a side pairs (line by line: all; by sentences: tokens, and the first line after one). */
static int pairs(const nc_state *s, const side_t *d, const row_t *r) {
    return s->sentences_mode != 1 || r->kind == TOKEN || d->last_token;
}

/* The next prediction row that pairs: GET_ROW, GET_NEED, GET_END or GET_BAD. */
static int next_pred(nc_state *s, row_t *r) {
    side_t *p = &s->side[1];
    for (;;) {
        int got = next_line(s, p, s->opt.comments, r);
        if (got != GET_ROW || pairs(s, p, r)) return got;
        p->last_token = 0;
        p->pos = r->next;
    }
}

static int kinds_differ(const nc_state *s, int a, int b) {
    if (s->sentences_mode == 1) {
        if (a == DOC) a = BLANK;
        if (b == DOC) b = BLANK;
    }
    return a != b;
}

static int same_tokens(const row_t *g, const row_t *p) {
    if (g->count == 1 || p->count == 1) return 1;
    return g->n[0] == p->n[0] && memcmp(g->f[0], p->f[0], g->n[0]) == 0;
}

/* The rest of the prediction file, once the gold file has ended: only separators may remain. */
static int drain_pred(nc_state *s) {
    row_t r;
    for (;;) {
        int got = next_pred(s, &r);
        if (got == GET_NEED) return NC_NEED_PRED;
        if (got == GET_BAD) return NC_HANDOVER;
        if (got == GET_END) return NC_FILE_DONE;
        if (kinds_differ(s, r.kind, BLANK)) {
            s->reason = "the prediction file goes on after the gold file";
            return NC_HANDOVER;
        }
        s->side[1].last_token = 0;
        s->side[1].pos = r.next;
    }
}

static int pair_rows(nc_state *s, row_t *g, row_t *p, int have_pred) {
    if (!have_pred) {
        if (kinds_differ(s, g->kind, BLANK)) {
            s->reason = "the gold file goes on after the prediction file";
            return 0;
        }
        return 1;
    }
    if (kinds_differ(s, g->kind, p->kind)) {
        s->reason = "lines of other kinds in the gold and the prediction file";
        return 0;
    }
    if (g->kind == TOKEN) {
        if (!columns_ok(s, &s->side[0], g, 1) || !columns_ok(s, &s->side[1], p, 1)) return 0;
        if (s->side[0].expected >= 3) {
            s->reason = "a gold file of three columns or more (is it merged?)";
            return 0;
        }
        if (s->opt.check_tokens && !same_tokens(g, p)) {
            s->reason = "tokens that differ";
            return 0;
        }
    }
    return 1;
}

static int run_paired(nc_state *s) {
    side_t *g = &s->side[0], *pd = &s->side[1];
    row_t gr, pr;
    for (;;) {
        int got = next_line(s, g, s->opt.comments, &gr);
        if (got == GET_NEED) return NC_NEED_GOLD;
        if (got == GET_BAD) return NC_HANDOVER;
        if (got == GET_END) return drain_pred(s);
        int paired = pairs(s, g, &gr), have = 0;
        if (paired) {
            int pg = next_pred(s, &pr);
            if (pg == GET_NEED) return NC_NEED_PRED;
            if (pg == GET_BAD) return NC_HANDOVER;
            have = pg == GET_ROW;
            if (gr.kind == DOC && s->sentences_mode < 0) {
                s->sentences_mode = !(have && pr.kind == DOC); /* the prediction file lacks them */
                continue;
            }
            if (!pair_rows(s, &gr, &pr, have)) return NC_HANDOVER;
        }
        int doc_start, starts = gold_row(s, &gr, &doc_start);
        if (gr.kind == TOKEN) {
            const nc_tag *gt = lookup(s, 0, gr.f[2], gr.n[2]);
            const nc_tag *pt = gt ? lookup(s, 1, pr.f[2], pr.n[2]) : NULL;
            if (!pt) return NC_HANDOVER;
            token(s, gt, pt, starts, doc_start);
        }
        g->pos = gr.next;
        if (have) {
            pd->last_token = pr.kind == TOKEN;
            pd->pos = pr.next;
        }
    }
}

/* ---- the state ---- */

nc_state *nc_new(const nc_options *options) {
    nc_state *s = (nc_state *)calloc(1, sizeof *s);
    if (!s) return NULL;
    s->opt = *options;
    if (rehash(s)) {
        free(s);
        return NULL;
    }
    nc_tag zero = OUTSIDE;
    if (grow_counts(s, &zero)) {
        nc_free(s);
        return NULL;
    }
    s->dec[0].prev = s->dec[1].prev = OUTSIDE;
    s->held_len[0] = s->held_len[1] = (size_t)-1;
    return s;
}

void nc_start(nc_state *s, int paired, int gold_delimiter, int pred_delimiter) {
    if (s->in_sentence) end_sentence(s); /* the last sentence of the file before */
    s->paired = paired;
    s->sentences_mode = -1;
    s->doc_pending = 1;
    s->docs = 0;
    for (int k = 0; k < 2; k++) {
        side_t *d = &s->side[k];
        d->len = d->pos = 0;
        d->eof = 0;
        d->at_start = 1;
        d->expected = -1;
        d->last_token = 0;
        d->delimiter = k == 0 ? gold_delimiter : pred_delimiter;
    }
}

int nc_feed(nc_state *s, int side, const char *data, size_t len) {
    side_t *d = &s->side[side];
    if (len == 0) {
        d->eof = 1;
        return 0;
    }
    if (d->pos) {
        memmove(d->buf, d->buf + d->pos, d->len - d->pos);
        d->len -= d->pos;
        d->pos = 0;
    }
    if (d->len + len > d->cap) {
        size_t cap = d->cap ? d->cap : 1 << 16;
        while (cap < d->len + len) cap *= 2;
        unsigned char *b = (unsigned char *)realloc(d->buf, cap + CHUNK); /* chunk_mask loads 16 */
        if (!b) return -1;
        d->buf = b;
        d->cap = cap;
    }
    memcpy(d->buf + d->len, data, len);
    d->len += len;
    memset(d->buf + d->len, 0, CHUNK); /* read by the last chunk's load, and by short_key's */
    return 0;
}

int nc_run(nc_state *s) {
    int status = s->paired ? run_paired(s) : run_merged(s);
    if (status == NC_FILE_DONE && s->sentences_mode == 1) s->t.docs_unpaired += s->docs;
    return status;
}

const nc_totals *nc_finish(nc_state *s) {
    if (s->in_sentence) end_sentence(s);
    if (s->opt.policy == 3 && s->perl_in) {
        s->perl_in = 0;
        s->t.perl_correct[s->perl_last[1]]++;
    }
    return &s->t;
}

const char *nc_reason(const nc_state *s) { return s->reason ? s->reason : ""; }

void nc_free(nc_state *s) {
    if (!s) return;
    for (int k = 0; k < 2; k++) free(s->side[k].buf);
    free(s->table);
    free(s->arena);
    free(s->t.gold);
    free(s->t.pred);
    free(s->t.matched);
    free(s->t.perl_gold);
    free(s->t.perl_pred);
    free(s->t.perl_correct);
    free(s->t.used[0]);
    free(s->t.used[1]);
    free(s);
}

/* ---- the column delimiter, sniffed as nerve.io.tags.delimiters.sniff_delimiter does ---- */

static int sniff_lines(const unsigned char *b, size_t n) {
    long expected = -1;
    size_t start = 0;
    for (size_t i = 0; i + 1 < n; i++)
        if ((b[i] == ' ' && b[i + 1] == '\t') || (b[i] == '\t' && b[i + 1] == ' ')) return 0;
    int any = 0;
    for (size_t end = 0; end < n; end++) {
        if (b[end] != '\n') continue;
        long tabs = 0;
        int other = 0;
        for (size_t i = start; i < end; i++) {
            if (b[i] == '\t') tabs++;
            else if (b[i] != ' ') other = 1;
        }
        int is_token = other && b[start] != '#' &&
                       !(end - start >= DOCSTART_LEN && memcmp(b + start, DOCSTART, DOCSTART_LEN) == 0);
        if (is_token) {
            if (expected < 0) expected = tabs;
            if (tabs != expected || b[start] == ' ' || b[end - 1] == ' ') return 0;
            any = 1;
        }
        start = end + 1;
    }
    return any && expected > 0;
}

int nc_sniff_tab(const char *data, size_t len) {
    const unsigned char *p = (const unsigned char *)data;
    if (len >= 3 && memcmp(p, "\xef\xbb\xbf", 3) == 0) {
        p += 3;
        len -= 3;
    }
    if (!memchr(p, '\t', len)) return 0;
    unsigned char *b = (unsigned char *)malloc(len ? len : 1);
    if (!b) return -1;
    size_t n = 0;
    for (size_t i = 0; i < len; i++) {
        if (p[i] == '\r') {
            b[n++] = '\n';
            if (i + 1 < len && p[i + 1] == '\n') i++;
        } else b[n++] = p[i];
    }
    while (n && b[n - 1] != '\n') n--; /* whole lines only */
    int tab = memchr(b, '\t', n) != NULL && sniff_lines(b, n);
    free(b);
    return tab;
}

#ifndef NERVE_CONLL_CORE_ONLY
/* ---- the Python wrapper: nerve._speedups.conll_* (typed in src/nerve/_speedups.pyi) ---- */
#include "speedups.h"

typedef struct {
    nc_state *state;
    PyObject *resolve;
    PyThreadState *saved;
} counter_t;

static const char COUNTER[] = "nerve._speedups.conll_counter";

static int resolve_tag(void *ctx, const char *tag, size_t len, nc_tag *out) {
    counter_t *c = (counter_t *)ctx;
    int rc = -1;
    PyEval_RestoreThread(c->saved);
    PyObject *r = PyObject_CallFunction(c->resolve, "y#", tag, (Py_ssize_t)len);
    if (r != NULL && r != Py_None &&
        PyArg_ParseTuple(r, "iiiii", &out->vid, &out->kind, &out->type, &out->pcode, &out->ptype))
        rc = 0;
    if (PyErr_Occurred()) PyErr_Clear(); /* the numpy engine reads it and says what is wrong */
    Py_XDECREF(r);
    c->saved = PyEval_SaveThread();
    return rc;
}

static void free_counter(PyObject *capsule) {
    counter_t *c = (counter_t *)PyCapsule_GetPointer(capsule, COUNTER);
    if (!c) return;
    nc_free(c->state);
    Py_XDECREF(c->resolve);
    free(c);
}

static int table_of(PyObject *bytes, unsigned char *out) {
    char *data;
    Py_ssize_t n;
    if (PyBytes_AsStringAndSize(bytes, &data, &n) < 0) return -1;
    if (n != NC_CODES) {
        PyErr_SetString(PyExc_ValueError, "expected 50 bytes, one a pair code");
        return -1;
    }
    memcpy(out, data, NC_CODES);
    return 0;
}

static PyObject *conll_counter(PyObject *self, PyObject *args) {
    (void)self;
    nc_options o;
    PyObject *bad_start, *bad_end, *resolve;
    memset(&o, 0, sizeof o);
    if (!PyArg_ParseTuple(args, "ppiSSO", &o.comments, &o.check_tokens, &o.policy, &bad_start, &bad_end, &resolve))
        return NULL;
    if (table_of(bad_start, o.bad_start) < 0 || table_of(bad_end, o.bad_end) < 0) return NULL;
    counter_t *c = (counter_t *)calloc(1, sizeof *c);
    if (!c) return PyErr_NoMemory();
    o.resolve = resolve_tag;
    o.ctx = c;
    c->state = nc_new(&o);
    if (!c->state) {
        free(c);
        return PyErr_NoMemory();
    }
    Py_INCREF(resolve);
    c->resolve = resolve;
    PyObject *capsule = PyCapsule_New(c, COUNTER, free_counter);
    if (!capsule) {
        nc_free(c->state);
        Py_DECREF(resolve);
        free(c);
    }
    return capsule;
}

/* Feed the core the next block of a side, read by `read(block)`; -1 with an exception set. */
static int feed_side(counter_t *c, int side, PyObject *read, Py_ssize_t block) {
    PyObject *data = PyObject_CallFunction(read, "n", block);
    if (!data) return -1;
    char *bytes;
    Py_ssize_t n;
    if (PyBytes_AsStringAndSize(data, &bytes, &n) < 0) {
        Py_DECREF(data);
        return -1;
    }
    int rc = nc_feed(c->state, side, bytes, (size_t)n);
    Py_DECREF(data);
    if (rc < 0) PyErr_NoMemory();
    return rc;
}

static PyObject *conll_count_file(PyObject *self, PyObject *args) {
    (void)self;
    PyObject *capsule, *gold, *pred;
    int gold_delimiter, pred_delimiter;
    Py_ssize_t block;
    if (!PyArg_ParseTuple(args, "OOOiin", &capsule, &gold, &pred, &gold_delimiter, &pred_delimiter, &block))
        return NULL;
    counter_t *c = (counter_t *)PyCapsule_GetPointer(capsule, COUNTER);
    if (!c) return NULL;
    nc_start(c->state, pred != Py_None, gold_delimiter, pred_delimiter);
    for (;;) {
        c->saved = PyEval_SaveThread();
        int status = nc_run(c->state); /* the parsing of what was fed, without the GIL */
        PyEval_RestoreThread(c->saved);
        if (status == NC_NEED_GOLD || status == NC_NEED_PRED) {
            int side = status == NC_NEED_PRED;
            if (feed_side(c, side, side ? pred : gold, block) < 0) return NULL;
        } else if (status == NC_FILE_DONE) {
            Py_RETURN_NONE;
        } else {
            return PyUnicode_FromString(nc_reason(c->state));
        }
    }
}

static PyObject *int_list(const long long *a, size_t n) {
    PyObject *list = PyList_New((Py_ssize_t)n);
    if (!list) return NULL;
    for (size_t i = 0; i < n; i++) {
        PyObject *v = PyLong_FromLongLong(a[i]);
        if (!v) {
            Py_DECREF(list);
            return NULL;
        }
        PyList_SetItem(list, (Py_ssize_t)i, v);
    }
    return list;
}

static PyObject *conll_totals(PyObject *self, PyObject *capsule) {
    (void)self;
    counter_t *c = (counter_t *)PyCapsule_GetPointer(capsule, COUNTER);
    if (!c) return NULL;
    const nc_totals *t = nc_finish(c->state);
    /* the last: the gold side's column count (-1: no token line), which two counters of one file's halves compare */
    return Py_BuildValue("LLLLLNNNNNNNNNNi", t->tokens, t->correct, t->sentences, t->documents, t->docs_unpaired,
                         int_list(t->codes[0], NC_CODES), int_list(t->codes[1], NC_CODES),
                         int_list(t->gold, t->n_types), int_list(t->pred, t->n_types),
                         int_list(t->matched, t->n_types), int_list(t->perl_gold, t->n_ptypes),
                         int_list(t->perl_pred, t->n_ptypes), int_list(t->perl_correct, t->n_ptypes),
                         int_list(t->used[0], t->n_vids), int_list(t->used[1], t->n_vids),
                         c->state->side[0].expected);
}

static PyObject *conll_sniff_tab(PyObject *self, PyObject *data) {
    (void)self;
    char *bytes;
    Py_ssize_t n;
    if (PyBytes_AsStringAndSize(data, &bytes, &n) < 0) return NULL;
    int tab = nc_sniff_tab(bytes, (size_t)n);
    if (tab < 0) return PyErr_NoMemory();
    return PyBool_FromLong(tab);
}

PyMethodDef nerve_conll_methods[] = {
    {"conll_counter", conll_counter, METH_VARARGS,
     "conll_counter(comments, check_tokens, policy, bad_start, bad_end, resolve): a new counter."},
    {"conll_count_file", conll_count_file, METH_VARARGS,
     "conll_count_file(counter, read_gold, read_pred, gold_delimiter, pred_delimiter, block): count one "
     "file pair; None, or why the numpy engine must read the input."},
    {"conll_totals", conll_totals, METH_O, "conll_totals(counter): the counts, once every file is read."},
    {"conll_sniff_tab", conll_sniff_tab, METH_O, "conll_sniff_tab(head): whether a file's head is tab-separated."},
    {NULL, NULL, 0, NULL},
};
#endif
