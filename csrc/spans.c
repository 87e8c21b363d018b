/* The span reader: nervaluate's JSON (`--format nervaluate`) and nerve's JSONL span documents.
 *
 * Fuzz entry point: the pure-C core of spans_core.h, `ns_init` / `ns_feed` / `ns_free`, which
 * touches no Python object (build with -DNERVE_NO_PYTHON to leave the wrapper and Python.h out).
 * The wrapper at the end (`read_spans`) releases the GIL around ns_feed
 * and hands the columns to Python as bytearrays of int64.
 *
 * The core accepts only what it is sure of, and hands over (NS_HANDOVER) on anything else, so that
 * the Python reader reads that input and raises its usual error with its usual message:
 * - strict JSON only: a malformed value, a control character in a string, invalid UTF-8, a lone
 *   surrogate escape, more than 64 levels of nesting;
 * - keys written with escapes, duplicate keys, unknown keys, missing keys;
 * - offsets that are not plain non-negative integers of at most 15 digits (a sign, a fraction, an
 *   exponent), out of range (nervaluate: start <= end, end + 1 <= 2**40; JSONL: start < end <= 2**40
 *   and within the document's text or tokens), labels that are not strings;
 * - nervaluate: a file that is not a list of lists of entities or {"true": ..., "pred": ...};
 * - JSONL: a line that is not one object, a span with a "text" (checked against the document by the
 *   Python reader), a span with a "score" (a confidence: numpy's reader keeps it in a column),
 *   documents that do not all hold the same sides, a file without documents.
 */
#ifndef NERVE_NO_PYTHON
#include "speedups.h" /* Python.h, before the standard headers */
#endif

#include <stdlib.h>
#include <string.h>

#include "spans_core.h"

#define MAX_OFFSET ((int64_t)1 << 40)
#define MAX_DEPTH 64

typedef struct {
    const unsigned char *p, *end;
    ns_state *st;
} cursor;

static int handover(ns_state *st, const char *why) {
    if (st->status == NS_OK) {
        st->status = NS_HANDOVER;
        st->why = why;
    }
    return 0;
}

static int nomem(ns_state *st) {
    st->status = NS_NOMEM;
    st->why = "out of memory";
    return 0;
}

static void ws(cursor *c) {
    while (c->p < c->end && (*c->p == ' ' || *c->p == '\t' || *c->p == '\n' || *c->p == '\r')) {
        c->p++;
    }
}

static int expect(cursor *c, unsigned char ch) {
    ws(c);
    if (c->p < c->end && *c->p == ch) {
        c->p++;
        return 1;
    }
    return handover(c->st, "unexpected character");
}

/* ------------------------------------------------------------------ the vocabulary and columns */

static uint64_t hash_name(const char *s, size_t n) {
    uint64_t h = 1469598103934665603ULL;
    for (size_t i = 0; i < n; i++) {
        h = (h ^ (unsigned char)s[i]) * 1099511628211ULL;
    }
    return h;
}

static int grow_table(ns_side *s) {
    size_t size = s->table_size ? s->table_size * 2 : 16;
    size_t *table = (size_t *)calloc(size, sizeof(size_t));
    if (!table) {
        return 0;
    }
    for (size_t i = 0; i < s->n_names; i++) {
        size_t at = (size_t)(hash_name(s->names[i], s->name_len[i]) & (size - 1));
        while (table[at]) {
            at = (at + 1) & (size - 1);
        }
        table[at] = i + 1;
    }
    free(s->table);
    s->table = table;
    s->table_size = size;
    return 1;
}

/* The id of label `name` in side `s`, added in order of first appearance; -1 out of memory. */
static int64_t intern(ns_side *s, const char *name, size_t n) {
    if ((s->n_names + 1) * 2 > s->table_size && !grow_table(s)) {
        return -1;
    }
    size_t mask = s->table_size - 1;
    size_t at = (size_t)(hash_name(name, n) & mask);
    while (s->table[at]) {
        size_t i = s->table[at] - 1;
        if (s->name_len[i] == n && memcmp(s->names[i], name, n) == 0) {
            return (int64_t)i;
        }
        at = (at + 1) & mask;
    }
    if (s->n_names == s->cap_names) {
        size_t cap = s->cap_names ? s->cap_names * 2 : 16;
        char **names = (char **)realloc(s->names, cap * sizeof(char *));
        if (!names) {
            return -1;
        }
        s->names = names;
        size_t *lens = (size_t *)realloc(s->name_len, cap * sizeof(size_t));
        if (!lens) {
            return -1;
        }
        s->name_len = lens;
        s->cap_names = cap;
    }
    char *copy = (char *)malloc(n + 1);
    if (!copy) {
        return -1;
    }
    memcpy(copy, name, n);
    copy[n] = 0;
    s->names[s->n_names] = copy;
    s->name_len[s->n_names] = n;
    s->table[at] = s->n_names + 1;
    return (int64_t)s->n_names++;
}

static int push(ns_side *s, int64_t doc, int64_t start, int64_t end, int64_t label) {
    if (s->n == s->cap) {
        size_t cap = s->cap ? s->cap * 2 : 1024;
        int64_t **cols[4] = {&s->doc, &s->start, &s->end, &s->label};
        for (int k = 0; k < 4; k++) {
            int64_t *grown = (int64_t *)realloc(*cols[k], cap * sizeof(int64_t));
            if (!grown) {
                return 0;
            }
            *cols[k] = grown;
        }
        s->cap = cap;
    }
    s->doc[s->n] = doc;
    s->start[s->n] = start;
    s->end[s->n] = end;
    s->label[s->n] = label;
    s->n++;
    return 1;
}

/* ------------------------------------------------------------------ JSON values */

static int put(ns_state *st, size_t at, const unsigned char *bytes, size_t n) {
    if (at + n > st->buf_cap) {
        size_t cap = st->buf_cap ? st->buf_cap : 256;
        while (cap < at + n) {
            cap *= 2;
        }
        char *buf = (char *)realloc(st->buf, cap);
        if (!buf) {
            return nomem(st);
        }
        st->buf = buf;
        st->buf_cap = cap;
    }
    memcpy(st->buf + at, bytes, n);
    return 1;
}

static int hex4(const unsigned char *p, unsigned *out) {
    unsigned v = 0;
    for (int i = 0; i < 4; i++) {
        unsigned char ch = p[i];
        unsigned d = ch >= '0' && ch <= '9'   ? (unsigned)(ch - '0')
                     : ch >= 'a' && ch <= 'f' ? (unsigned)(ch - 'a' + 10)
                     : ch >= 'A' && ch <= 'F' ? (unsigned)(ch - 'A' + 10)
                                              : 16u;
        if (d > 15) {
            return 0;
        }
        v = v * 16 + d;
    }
    *out = v;
    return 1;
}

/* The length of the valid UTF-8 sequence at p (1..4), or 0: no overlongs, surrogates, > U+10FFFF. */
static size_t utf8_length(const unsigned char *p, const unsigned char *end) {
    unsigned char b = p[0];
    size_t n = b < 0xC2 ? 0 : b < 0xE0 ? 2 : b < 0xF0 ? 3 : b < 0xF5 ? 4 : 0;
    if (n == 0 || (size_t)(end - p) < n) {
        return 0;
    }
    for (size_t i = 1; i < n; i++) {
        if ((p[i] & 0xC0) != 0x80) {
            return 0;
        }
    }
    if ((b == 0xE0 && p[1] < 0xA0) || (b == 0xED && p[1] > 0x9F) || (b == 0xF0 && p[1] < 0x90) ||
        (b == 0xF4 && p[1] > 0x8F)) {
        return 0;
    }
    return n;
}

static size_t encode(unsigned cp, unsigned char *out) {
    if (cp < 0x80) {
        out[0] = (unsigned char)cp;
        return 1;
    }
    if (cp < 0x800) {
        out[0] = (unsigned char)(0xC0 | (cp >> 6));
        out[1] = (unsigned char)(0x80 | (cp & 0x3F));
        return 2;
    }
    if (cp < 0x10000) {
        out[0] = (unsigned char)(0xE0 | (cp >> 12));
        out[1] = (unsigned char)(0x80 | ((cp >> 6) & 0x3F));
        out[2] = (unsigned char)(0x80 | (cp & 0x3F));
        return 3;
    }
    out[0] = (unsigned char)(0xF0 | (cp >> 18));
    out[1] = (unsigned char)(0x80 | ((cp >> 12) & 0x3F));
    out[2] = (unsigned char)(0x80 | ((cp >> 6) & 0x3F));
    out[3] = (unsigned char)(0x80 | (cp & 0x3F));
    return 4;
}

/* The escape after a backslash at c->p (on the 'u' or the letter); its UTF-8 in out. */
static size_t escape(cursor *c, unsigned char *out) {
    static const char from[] = "\"\\/bfnrt";
    static const char to[] = "\"\\/\b\f\n\r\t";
    unsigned char e = *c->p;
    const char *at = e ? strchr(from, e) : NULL;
    if (at) {
        c->p++;
        out[0] = (unsigned char)to[at - from];
        return 1;
    }
    unsigned cp, low;
    if (e != 'u' || c->end - c->p < 5 || !hex4(c->p + 1, &cp)) {
        return handover(c->st, "malformed escape");
    }
    c->p += 5;
    if (cp >= 0xDC00 && cp <= 0xDFFF) {
        return handover(c->st, "lone surrogate escape");
    }
    if (cp >= 0xD800 && cp <= 0xDBFF) {
        if (c->end - c->p < 6 || c->p[0] != '\\' || c->p[1] != 'u' || !hex4(c->p + 2, &low) ||
            low < 0xDC00 || low > 0xDFFF) {
            return handover(c->st, "lone surrogate escape");
        }
        c->p += 6;
        cp = 0x10000 + ((cp - 0xD800) << 10) + (low - 0xDC00);
    }
    return encode(cp, out);
}

/* A string at c->p (after its quote is checked here): decoded into st->buf when `keep`, its length
 * in bytes in *n and in code points in *chars; escapes counted in *escaped. */
static int string(cursor *c, int keep, size_t *n, size_t *chars, int *escaped) {
    if (c->p >= c->end || *c->p != '"') {
        return handover(c->st, "expected a string");
    }
    c->p++;
    size_t len = 0, count = 0;
    *escaped = 0;
    for (;;) {
        const unsigned char *run = c->p;
        while (c->p < c->end && *c->p >= 0x20 && *c->p < 0x80 && *c->p != '"' && *c->p != '\\') {
            c->p++;
        }
        size_t plain = (size_t)(c->p - run);
        if (keep && plain && !put(c->st, len, run, plain)) {
            return 0;
        }
        len += plain;
        count += plain;
        if (c->p >= c->end) {
            return handover(c->st, "unterminated string");
        }
        unsigned char b = *c->p;
        if (b == '"') {
            c->p++;
            break;
        }
        if (b < 0x20) {
            return handover(c->st, "control character in a string");
        }
        unsigned char tmp[4];
        size_t k;
        const unsigned char *bytes = tmp;
        if (b == '\\') {
            c->p++;
            k = c->p < c->end ? escape(c, tmp) : 0;
            *escaped = 1;
        } else {
            k = utf8_length(c->p, c->end);
            bytes = c->p;
            c->p += k;
        }
        if (!k) {
            return handover(c->st, "invalid UTF-8 or escape");
        }
        if (keep && !put(c->st, len, bytes, k)) {
            return 0;
        }
        len += k;
        count++;
    }
    *n = len;
    *chars = count;
    return 1;
}

/* A non-negative integer of at most 15 digits, no sign, fraction or exponent. */
static int offset(cursor *c, int64_t *out) {
    ws(c);
    const unsigned char *p = c->p;
    int64_t v = 0;
    int digits = 0;
    while (p < c->end && *p >= '0' && *p <= '9' && digits < 16) {
        v = v * 10 + (*p - '0');
        p++;
        digits++;
    }
    if (!digits || digits > 15 || (digits > 1 && *c->p == '0')) {
        return handover(c->st, "not a plain integer offset");
    }
    if (p < c->end && (*p == '.' || *p == 'e' || *p == 'E' || (*p >= '0' && *p <= '9'))) {
        return handover(c->st, "not a plain integer offset");
    }
    c->p = p;
    *out = v;
    return 1;
}

static int literal(cursor *c, const char *word) {
    size_t n = strlen(word);
    if ((size_t)(c->end - c->p) < n || memcmp(c->p, word, n) != 0) {
        return handover(c->st, "malformed JSON");
    }
    c->p += n;
    return 1;
}

static int number(cursor *c) {
    const unsigned char *p = c->p;
    if (p < c->end && *p == '-') {
        p++;
    }
    if (p >= c->end || *p < '0' || *p > '9') {
        return handover(c->st, "malformed number");
    }
    if (*p == '0') {
        p++;
    } else {
        while (p < c->end && *p >= '0' && *p <= '9') {
            p++;
        }
    }
    if (p < c->end && *p == '.') {
        p++;
        if (p >= c->end || *p < '0' || *p > '9') {
            return handover(c->st, "malformed number");
        }
        while (p < c->end && *p >= '0' && *p <= '9') {
            p++;
        }
    }
    if (p < c->end && (*p == 'e' || *p == 'E')) {
        return handover(c->st, "a number with an exponent"); /* orjson refuses infinite ones */
    }
    if (p - c->p > 30) {
        return handover(c->st, "long number");
    }
    c->p = p;
    return 1;
}

/* Any JSON value, checked and skipped; its kind in *kind ('s' string, '[' list, 'n' null, '?'). */
static int skip(cursor *c, int depth, char *kind) {
    size_t n, chars;
    int escaped;
    char inner;
    ws(c);
    if (c->p >= c->end) {
        return handover(c->st, "truncated JSON");
    }
    unsigned char b = *c->p;
    *kind = b == '"' ? 's' : b == '[' ? '[' : b == 'n' ? 'n' : '?';
    if (b == '"') {
        return string(c, 0, &n, &chars, &escaped);
    }
    if (b == 't' || b == 'f' || b == 'n') {
        return literal(c, b == 't' ? "true" : b == 'f' ? "false" : "null");
    }
    if (b != '[' && b != '{') {
        return number(c);
    }
    if (depth >= MAX_DEPTH) {
        return handover(c->st, "deeply nested");
    }
    unsigned char close = b == '[' ? ']' : '}';
    c->p++;
    ws(c);
    if (c->p < c->end && *c->p == close) {
        c->p++;
        return 1;
    }
    for (;;) {
        if (close == '}') {
            ws(c);
            if (!string(c, 0, &n, &chars, &escaped) || !expect(c, ':')) {
                return 0;
            }
        }
        if (!skip(c, depth + 1, &inner)) {
            return 0;
        }
        ws(c);
        if (c->p < c->end && *c->p == ',') {
            c->p++;
            continue;
        }
        return expect(c, close);
    }
}

/* After an item of a list or object: 1 if another follows (the comma taken), 0 at the end (taken). */
static int more(cursor *c, unsigned char close, int *ok) {
    ws(c);
    if (c->p < c->end && *c->p == ',') {
        c->p++;
        return 1;
    }
    *ok = expect(c, close);
    return 0;
}

/* An object key without escapes: its bytes in *key, *n. */
static int key(cursor *c, const unsigned char **k, size_t *n) {
    size_t chars;
    int escaped;
    ws(c);
    const unsigned char *at = c->p + 1;
    if (!string(c, 0, n, &chars, &escaped)) {
        return 0;
    }
    if (escaped) {
        return handover(c->st, "a key with escapes");
    }
    *k = at;
    return expect(c, ':');
}

static int is(const unsigned char *k, size_t n, const char *word) {
    return n == strlen(word) && memcmp(k, word, n) == 0;
}

/* ------------------------------------------------------------------ one span */

enum { K_START = 1, K_END = 2, K_LABEL = 4, K_OTHER = 8 };

typedef struct {
    int64_t start, end, label;
} span;

/* A span object {"start", "end", "label"} (JSONL: and "id"), its label interned in s. */
static int read_span(cursor *c, ns_side *s, int jsonl, span *out) {
    int seen = 0, ok = 1;
    if (!expect(c, '{')) {
        return 0;
    }
    ws(c);
    if (c->p < c->end && *c->p == '}') {
        return handover(c->st, "an empty span object");
    }
    do {
        const unsigned char *k;
        size_t n, chars;
        int escaped, bit;
        char kind;
        if (!key(c, &k, &n)) {
            return 0;
        }
        bit = is(k, n, "start") ? K_START : is(k, n, "end") ? K_END : is(k, n, "label") ? K_LABEL : 0;
        if (!bit && jsonl && is(k, n, "id")) {
            if (!skip(c, 2, &kind)) {
                return 0;
            }
            continue;
        }
        if (!bit || (seen & bit)) {
            return handover(c->st, "an unknown, repeated or textual span key");
        }
        seen |= bit;
        if (bit == K_LABEL) {
            ws(c);
            if (!string(c, 1, &n, &chars, &escaped)) {
                return 0;
            }
            out->label = intern(s, c->st->buf ? c->st->buf : "", n);
            if (out->label < 0) {
                return nomem(c->st);
            }
        } else if (!offset(c, bit == K_START ? &out->start : &out->end)) {
            return 0;
        }
    } while (more(c, '}', &ok));
    if (!ok) {
        return 0;
    }
    if (seen != (K_START | K_END | K_LABEL)) {
        return handover(c->st, "a span without start, end or label");
    }
    if (!jsonl) {
        out->end += 1; /* nervaluate's end is inclusive */
    }
    if (!(out->start < out->end && out->end <= MAX_OFFSET)) {
        return handover(c->st, "offsets out of range");
    }
    return 1;
}

/* ------------------------------------------------------------------ nervaluate */

/* One side: a list of documents, each a list of entities. */
static int nervaluate_side(cursor *c, ns_side *s) {
    int ok = 1;
    if (!expect(c, '[')) {
        return 0;
    }
    ws(c);
    if (c->p < c->end && *c->p == ']') {
        c->p++;
        return 1;
    }
    do {
        int inner = 1;
        if (!expect(c, '[')) {
            return 0;
        }
        ws(c);
        if (c->p < c->end && *c->p == ']') {
            c->p++;
        } else {
            do {
                span e;
                if (!read_span(c, s, 0, &e) || !push(s, s->n_docs, e.start, e.end, e.label)) {
                    return c->st->status == NS_OK ? nomem(c->st) : 0;
                }
            } while (more(c, ']', &inner));
            if (!inner) {
                return 0;
            }
        }
        s->n_docs++;
    } while (more(c, ']', &ok));
    return ok;
}

static void nervaluate(cursor *c) {
    ns_state *st = c->st;
    ws(c);
    if (c->p < c->end && *c->p == '{') {
        int seen = 0, ok = 1;
        c->p++;
        do {
            const unsigned char *k;
            size_t n;
            if (!key(c, &k, &n)) {
                return;
            }
            int which = is(k, n, "true") ? 1 : is(k, n, "pred") ? 2 : 0;
            if (!which || (seen & which)) {
                handover(st, "expected the keys true and pred, once each");
                return;
            }
            seen |= which;
            if (!nervaluate_side(c, &st->side[which - 1])) {
                return;
            }
        } while (more(c, '}', &ok));
        if (!ok || seen != 3) {
            handover(st, "expected the keys true and pred");
            return;
        }
        st->sides = 2;
    } else if (c->p < c->end && *c->p == '[') {
        if (!nervaluate_side(c, &st->side[0])) {
            return;
        }
        st->sides = 1;
    } else {
        handover(st, "expected a list or {\"true\", \"pred\"}");
        return;
    }
    ws(c);
    if (c->p != c->end) {
        handover(st, "more after the JSON value");
    }
}

/* ------------------------------------------------------------------ JSONL */

enum { D_ID = 1, D_TEXT = 2, D_TOKENS = 4, D_SPANS = 8, D_ENTITIES = 16, D_GOLD = 32, D_PRED = 64, D_META = 128 };

typedef struct {
    size_t from[2];       /* the first span of this document on each side */
    int text_kind;        /* 0 absent, 'n' null, 's' string, '?' other */
    size_t text_chars;
    int tokens_kind;      /* 0 absent, 'n' null, 'l' list of strings, '?' other */
    size_t tokens;
} document;

/* A list of span objects onto side s, for document `doc`. */
static int span_list(cursor *c, ns_side *s, int64_t doc) {
    int ok = 1;
    if (!expect(c, '[')) {
        return 0;
    }
    ws(c);
    if (c->p < c->end && *c->p == ']') {
        c->p++;
        return 1;
    }
    do {
        span e;
        if (!read_span(c, s, 1, &e)) {
            return 0;
        }
        if (!push(s, doc, e.start, e.end, e.label)) {
            return nomem(c->st);
        }
    } while (more(c, ']', &ok));
    return ok;
}

static int tokens_value(cursor *c, document *d) {
    int ok = 1;
    char kind;
    ws(c);
    if (c->p >= c->end || *c->p != '[') {
        if (!skip(c, 1, &kind)) {
            return 0;
        }
        d->tokens_kind = kind == 'n' ? 'n' : '?';
        return 1;
    }
    c->p++;
    d->tokens_kind = 'l';
    ws(c);
    if (c->p < c->end && *c->p == ']') {
        c->p++;
        return 1;
    }
    do {
        if (!skip(c, 2, &kind)) {
            return 0;
        }
        d->tokens_kind = kind == 's' ? d->tokens_kind : '?';
        d->tokens++;
    } while (more(c, ']', &ok));
    return ok;
}

static int text_value(cursor *c, document *d) {
    size_t n;
    int escaped;
    char kind;
    ws(c);
    if (c->p < c->end && *c->p == '"') {
        d->text_kind = 's';
        return string(c, 0, &n, &d->text_chars, &escaped);
    }
    if (!skip(c, 1, &kind)) {
        return 0;
    }
    d->text_kind = kind == 'n' ? 'n' : '?';
    return 1;
}

/* How far offsets may reach in document d (-1: no bound; -2: hand over), as nerve's JSONL reader
 * has it: the text's characters, or the tokens when the units are tokens. */
static int64_t bound(ns_state *st, const document *d, int seen) {
    int token = st->units == NS_UNITS_TOKEN ||
                (st->units == NS_UNITS_AUTO && (seen & D_TOKENS) && !(seen & D_TEXT));
    int kind = token ? d->tokens_kind : d->text_kind;
    return kind == '?' ? -2 : kind == 'l' ? (int64_t)d->tokens : kind == 's' ? (int64_t)d->text_chars : -1;
}

static int jsonl_document(cursor *c) {
    ns_state *st = c->st;
    document d;
    int seen = 0, ok = 1;
    memset(&d, 0, sizeof d);
    d.from[0] = st->side[0].n;
    d.from[1] = st->side[1].n;
    int64_t doc = st->side[0].n_docs;
    if (!expect(c, '{')) {
        return 0;
    }
    ws(c);
    if (c->p < c->end && *c->p == '}') {
        return handover(st, "a document without spans");
    }
    do {
        static const char *const names[] = {"id", "text", "tokens", "spans", "entities", "gold", "pred", "meta"};
        const unsigned char *k;
        size_t n;
        int bit = 0;
        char kind;
        if (!key(c, &k, &n)) {
            return 0;
        }
        for (int i = 0; i < 8 && !bit; i++) {
            bit = is(k, n, names[i]) ? 1 << i : 0;
        }
        if (!bit || (seen & bit)) {
            return handover(st, "an unknown or repeated document key");
        }
        seen |= bit;
        if (bit == D_TEXT) {
            ok = text_value(c, &d);
        } else if (bit == D_TOKENS) {
            ok = tokens_value(c, &d);
        } else if (bit & (D_SPANS | D_ENTITIES | D_GOLD)) {
            ok = span_list(c, &st->side[0], doc);
        } else if (bit == D_PRED) {
            ok = span_list(c, &st->side[1], doc);
        } else {
            ok = skip(c, 1, &kind);
        }
        if (!ok) {
            return 0;
        }
    } while (more(c, '}', &ok));
    if (!ok) {
        return 0;
    }
    int two = (seen & (D_GOLD | D_PRED)) != 0;
    int sides = two ? 2 : 1;
    if (two ? (seen & (D_GOLD | D_PRED)) != (D_GOLD | D_PRED) || (seen & (D_SPANS | D_ENTITIES))
            : ((seen & D_SPANS) != 0) == ((seen & D_ENTITIES) != 0)) {
        return handover(st, "a document without the sides of the others");
    }
    if (st->sides && st->sides != sides) {
        return handover(st, "documents with different sides");
    }
    st->sides = sides;
    int64_t limit = bound(st, &d, seen);
    if (limit == -2) {
        return handover(st, "text or tokens of the wrong type");
    }
    for (int k = 0; k < sides; k++) {
        ns_side *s = &st->side[k];
        for (size_t i = d.from[k]; i < s->n && limit >= 0; i++) {
            if (s->end[i] > limit) {
                return handover(st, "a span beyond its document");
            }
        }
        s->n_docs++;
    }
    return 1;
}

static int blank(const unsigned char *p, const unsigned char *end) {
    for (; p < end; p++) {
        if (!(*p == ' ' || *p == '\t' || *p == '\n' || *p == '\r' || *p == '\x0b' || *p == '\x0c')) {
            return 0;
        }
    }
    return 1;
}

static void jsonl(cursor *c) {
    const unsigned char *end = c->end;
    while (c->p < end && c->st->status == NS_OK) {
        const unsigned char *nl = (const unsigned char *)memchr(c->p, '\n', (size_t)(end - c->p));
        const unsigned char *line_end = nl ? nl : end;
        if (!blank(c->p, line_end)) {
            cursor line = {c->p, line_end, c->st};
            if (!jsonl_document(&line)) {
                return;
            }
            ws(&line);
            if (line.p != line_end) {
                handover(c->st, "more than one value on a line");
                return;
            }
        }
        c->p = nl ? nl + 1 : end;
    }
}

/* ------------------------------------------------------------------ the core's entry points */

void ns_init(ns_state *st, int units) {
    memset(st, 0, sizeof *st);
    st->units = units;
}

void ns_feed(ns_state *st, const char *data, size_t len, int format) {
    if (st->status != NS_OK) {
        return;
    }
    cursor c = {(const unsigned char *)data, (const unsigned char *)data + len, st};
    if (format == NS_NERVALUATE) {
        nervaluate(&c);
    } else {
        jsonl(&c);
    }
}

void ns_free(ns_state *st) {
    for (int k = 0; k < 2; k++) {
        ns_side *s = &st->side[k];
        free(s->doc);
        free(s->start);
        free(s->end);
        free(s->label);
        for (size_t i = 0; i < s->n_names; i++) {
            free(s->names[i]);
        }
        free(s->names);
        free(s->name_len);
        free(s->table);
    }
    free(st->buf);
    memset(st, 0, sizeof *st);
}

#ifndef NERVE_NO_PYTHON
/* ------------------------------------------------------------------ the Python wrapper */

static PyObject *column(const int64_t *values, size_t n) {
    return PyByteArray_FromStringAndSize(n ? (const char *)values : "", (Py_ssize_t)(n * sizeof(int64_t)));
}

/* (doc, start, end, label) as bytearrays of int64, the label names, the number of documents. */
static PyObject *side_tuple(const ns_side *s) {
    PyObject *names = PyList_New((Py_ssize_t)s->n_names);
    if (!names) {
        return NULL;
    }
    for (size_t i = 0; i < s->n_names; i++) {
        PyObject *name = PyUnicode_DecodeUTF8(s->names[i], (Py_ssize_t)s->name_len[i], "strict");
        if (!name) {
            Py_DECREF(names);
            return NULL;
        }
        PyList_SetItem(names, (Py_ssize_t)i, name);
    }
    return Py_BuildValue("(NNNNNL)", column(s->doc, s->n), column(s->start, s->n), column(s->end, s->n),
                         column(s->label, s->n), names, (long long)s->n_docs);
}

/* read_spans(pieces, format, units) -> (sides, gold, pred) | str: the columns, or why it handed over. */
static PyObject *read_spans(PyObject *self, PyObject *args) {
    PyObject *pieces;
    int format, units;
    (void)self;
    if (!PyArg_ParseTuple(args, "Oii", &pieces, &format, &units)) {
        return NULL;
    }
    PyObject *iterator = PyObject_GetIter(pieces);
    if (!iterator) {
        return NULL;
    }
    ns_state st;
    ns_init(&st, units);
    PyObject *piece;
    while (st.status == NS_OK && (piece = PyIter_Next(iterator)) != NULL) {
        if (!PyBytes_Check(piece)) {
            Py_DECREF(piece);
            Py_DECREF(iterator);
            ns_free(&st);
            PyErr_SetString(PyExc_TypeError, "read_spans expects pieces of bytes");
            return NULL;
        }
        const char *data = PyBytes_AsString(piece);
        size_t len = (size_t)PyBytes_Size(piece);
        Py_BEGIN_ALLOW_THREADS ns_feed(&st, data, len, format);
        Py_END_ALLOW_THREADS Py_DECREF(piece);
    }
    Py_DECREF(iterator);
    if (PyErr_Occurred()) {
        ns_free(&st);
        return NULL;
    }
    if (st.status == NS_OK && st.sides == 0) {
        handover(&st, "no documents");
    }
    PyObject *out;
    if (st.status == NS_NOMEM) {
        out = PyErr_NoMemory();
    } else if (st.status == NS_HANDOVER) {
        out = PyUnicode_FromString(st.why);
    } else {
        PyObject *gold = side_tuple(&st.side[0]);
        PyObject *pred = st.sides == 2 ? side_tuple(&st.side[1]) : Py_NewRef(Py_None);
        out = gold && pred ? Py_BuildValue("(iOO)", st.sides, gold, pred) : NULL;
        Py_XDECREF(gold);
        Py_XDECREF(pred);
    }
    ns_free(&st);
    return out;
}

PyMethodDef nerve_spans_methods[] = {
    {"read_spans", read_spans, METH_VARARGS,
     "read_spans(pieces, format, units): the span columns of nervaluate JSON (format 0) or JSONL "
     "(format 1, pieces of whole lines), or a str saying why the Python reader should read it."},
    {NULL, NULL, 0, NULL},
};

#endif /* NERVE_NO_PYTHON */
