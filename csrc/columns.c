/* Tag-column files (HIPE TSV, CoNLL-U): their lines located and classified in one pass, cells
 * located and interned.
 *
 * The core has no Python API, for the fuzz target: `cols_init(&st, mode)`, `cols_feed(&st, bytes,
 * len)` any number of times (blocks may cut lines and CR LF pairs anywhere), `cols_finish(&st)`;
 * then `st.n` lines, each with `start[i]`, `end[i]` (absolute byte offsets, line end excluded),
 * `kind[i]` (COLS_*) and `width[i]` (tab-separated cells), unless `st.stop` is nonzero: the input
 * holds something the core does not handle (bytes that are not UTF-8, a CoNLL-U ID that is none,
 * a line of 2^31 tabs or more),
 * and the Python reader reads the whole input instead, raising its usual error. `cols_free(&st)`.
 * `cols_fuzz_one(data, len)` drives it all in uneven blocks.
 *
 * Lines are what nerve.io.tags.tag_columns.text_bytes makes of a file: a leading byte order mark
 * dropped, LF, CR LF and a lone CR each end a line, a last line without one kept. A line is blank
 * when it holds only characters that Python's str.isspace calls spaces.
 */
#include <stdint.h>
#include <stdlib.h>
#include <string.h>

#include "speedups.h"
#include "utf8.h"

enum { COLS_HIPE = 0, COLS_CONLLU = 1 };
enum { COLS_ROW = 0, COLS_MARKER = 1, COLS_COMMENT = 2, COLS_BLANK = 3, COLS_SKIPPED = 4 };
enum { COLS_OK = 0, COLS_NOT_UTF8 = 1, COLS_BAD_ID = 2, COLS_NO_MEMORY = 3, COLS_TOO_WIDE = 4 };

typedef struct {
    int mode;
    int stop;
    int after_cr;         /* the last byte fed ended a line with CR: an LF next is part of it */
    int64_t pos;          /* absolute offset of the next byte fed */
    int64_t *start, *end; /* the lines found */
    int8_t *kind;
    int32_t *width;
    size_t n, cap;
    unsigned char *carry; /* an unfinished line, from carry_at */
    size_t carry_len, carry_cap;
    int64_t carry_at;
} cols_state;

/* The byte length of the str.isspace character at p (n bytes left, valid UTF-8), or 0. */
static size_t space_len(const unsigned char *p, size_t n) {
    unsigned char c = p[0];
    if (c < 0x80) {
        return ((c >= 9 && c <= 13) || (c >= 28 && c <= 32)) ? 1 : 0;
    }
    if (c == 0xC2 && n >= 2) {
        return (p[1] == 0x85 || p[1] == 0xA0) ? 2 : 0;
    }
    if (n < 3) {
        return 0;
    }
    if (c == 0xE1) {
        return (p[1] == 0x9A && p[2] == 0x80) ? 3 : 0;
    }
    if (c == 0xE2) {
        if (p[1] == 0x80) {
            unsigned char d = p[2];
            return (d <= 0x8A || d == 0xA8 || d == 0xA9 || d == 0xAF) ? 3 : 0;
        }
        return (p[1] == 0x81 && p[2] == 0x9F) ? 3 : 0;
    }
    if (c == 0xE3) {
        return (p[1] == 0x80 && p[2] == 0x80) ? 3 : 0;
    }
    return 0;
}

/* The offset of the first character of p[0..n) that is no space (n when there is none). */
static size_t skip_spaces(const unsigned char *p, size_t n) {
    size_t i = 0, k;
    while (i < n && (k = space_len(p + i, n - i)) > 0) {
        i += k;
    }
    return i;
}

/* Whether p[0..n) starts with the NUL-terminated word. */
static int starts_with(const unsigned char *p, size_t n, const char *word) {
    size_t k = strlen(word);
    return n >= k && memcmp(p, word, k) == 0;
}

/* HIPE: whether the comment p[0..n) is a document marker, as `_marker` says: the key before the
 * first '=' (after '#', stripped) is document_id or hipe2022:document_id. */
static int hipe_marker(const unsigned char *p, size_t n) {
    const unsigned char *eq = memchr(p, '=', n);
    if (eq == NULL) {
        return 0;
    }
    size_t key_end = (size_t)(eq - p);
    size_t s = 1 + skip_spaces(p + 1, key_end - 1);
    size_t k;
    if (starts_with(p + s, key_end - s, "hipe2022:document_id")) {
        k = s + 20;
    } else if (starts_with(p + s, key_end - s, "document_id")) {
        k = s + 11;
    } else {
        return 0;
    }
    return k + skip_spaces(p + k, key_end - k) == key_end;
}

/* CoNLL-U: the kind of a word line from its ID (up to the first tab): a number is a word, two
 * numbers joined by - or . a line skipped, anything else no ID (-1). */
static int conllu_id(const unsigned char *p, size_t n) {
    const unsigned char *tab = memchr(p, '\t', n);
    size_t len = tab == NULL ? n : (size_t)(tab - p);
    size_t digits = 0, marks = 0, at = 0;
    if (len == 0 || len > 32) {
        return -1;
    }
    for (size_t i = 0; i < len; i++) {
        if (p[i] >= '0' && p[i] <= '9') {
            digits++;
        } else if (p[i] == '-' || p[i] == '.') {
            marks++;
            at = i;
        } else {
            return -1;
        }
    }
    if (marks == 0) {
        return COLS_ROW;
    }
    return (marks == 1 && at > 0 && at + 1 < len) ? COLS_SKIPPED : -1;
}

static int grow(cols_state *st) {
    size_t cap = st->cap ? 2 * st->cap : 1024;
    int64_t *start = realloc(st->start, cap * sizeof *start);
    if (start != NULL) {
        st->start = start;
    }
    int64_t *end = realloc(st->end, cap * sizeof *end);
    if (end != NULL) {
        st->end = end;
    }
    int8_t *kind = realloc(st->kind, cap * sizeof *kind);
    if (kind != NULL) {
        st->kind = kind;
    }
    int32_t *width = realloc(st->width, cap * sizeof *width);
    if (width != NULL) {
        st->width = width;
    }
    if (start == NULL || end == NULL || kind == NULL || width == NULL) {
        return 0;
    }
    st->cap = cap;
    return 1;
}

/* One line p[0..n), from absolute offset at, without its end; tabs and high (a byte >= 0x80) found. */
static void add_line(cols_state *st, const unsigned char *p, size_t n, int64_t at, size_t tabs, int high) {
    if (at == 0 && n >= 3 && p[0] == 0xEF && p[1] == 0xBB && p[2] == 0xBF) {
        p += 3;
        n -= 3;
        at += 3;
    }
    if (high && !nerve_valid_utf8(p, n)) {
        st->stop = COLS_NOT_UTF8;
        return;
    }
    if (tabs >= INT32_MAX) { /* a width the int32 column cannot hold: numpy reads it */
        st->stop = COLS_TOO_WIDE;
        return;
    }
    int kind = COLS_ROW;
    if (n > 0 && p[0] == '#') {
        size_t s = 1 + skip_spaces(p + 1, n - 1);
        int marker = st->mode == COLS_HIPE ? hipe_marker(p, n) : starts_with(p + s, n - s, "newdoc");
        kind = marker ? COLS_MARKER : COLS_COMMENT;
    } else if (n == 0 || (space_len(p, n) > 0 && skip_spaces(p, n) == n)) {
        kind = COLS_BLANK;
    } else if (st->mode == COLS_CONLLU) {
        kind = conllu_id(p, n);
        if (kind < 0) {
            st->stop = COLS_BAD_ID;
            return;
        }
    }
    if (st->n == st->cap && !grow(st)) {
        st->stop = COLS_NO_MEMORY;
        return;
    }
    st->start[st->n] = at;
    st->end[st->n] = at + (int64_t)n;
    st->kind[st->n] = (int8_t)kind;
    st->width[st->n] = (int32_t)(tabs + 1);
    st->n++;
}

#define ONES UINT64_C(0x0101010101010101)
#define HIGHS UINT64_C(0x8080808080808080)

/* 0x80 in each byte of w equal to b, 0 elsewhere (exact). */
static uint64_t equal_bytes(uint64_t w, unsigned char b) {
    uint64_t t = w ^ (ONES * b);
    return ~(((t & ~HIGHS) + ~HIGHS) | t | ~HIGHS);
}

/* The offset of the first LF or CR of p[0..n) (n when none); the tabs before it counted, high set
 * where a byte >= 0x80 comes before it. */
static size_t scan_line(const unsigned char *p, size_t n, size_t *tabs, int *high) {
    size_t i = 0;
    uint64_t any = 0;
    size_t count = 0;
    while (i + 8 <= n) {
        uint64_t w;
        memcpy(&w, p + i, 8);
        if (equal_bytes(w, '\n') | equal_bytes(w, '\r')) {
            break;
        }
        uint64_t t = equal_bytes(w, '\t') >> 7;
        count += (size_t)((t * ONES) >> 56);
        any |= w;
        i += 8;
    }
    for (; i < n && p[i] != '\n' && p[i] != '\r'; i++) {
        count += p[i] == '\t';
        any |= p[i];
    }
    *tabs = count;
    *high = (any & HIGHS) != 0;
    return i;
}

static void cols_init(cols_state *st, int mode) {
    memset(st, 0, sizeof *st);
    st->mode = mode;
}

static void cols_free(cols_state *st) {
    free(st->start);
    free(st->end);
    free(st->kind);
    free(st->width);
    free(st->carry);
    memset(st, 0, sizeof *st);
}

static int keep(cols_state *st, const unsigned char *p, size_t n) {
    if (st->carry_len + n > st->carry_cap) {
        size_t cap = 2 * (st->carry_len + n) + 64;
        unsigned char *carry = realloc(st->carry, cap);
        if (carry == NULL) {
            st->stop = COLS_NO_MEMORY;
            return 0;
        }
        st->carry = carry;
        st->carry_cap = cap;
    }
    memcpy(st->carry + st->carry_len, p, n);
    st->carry_len += n;
    return 1;
}

/* The carried line, ended. */
static void flush_carry(cols_state *st) {
    size_t tabs;
    int high;
    scan_line(st->carry, st->carry_len, &tabs, &high);
    add_line(st, st->carry, st->carry_len, st->carry_at, tabs, high);
    st->carry_len = 0;
}

static int cols_feed(cols_state *st, const unsigned char *p, size_t n) {
    size_t i = 0;
    if (st->stop || n == 0) {
        return st->stop;
    }
    int64_t base = st->pos;
    st->pos += (int64_t)n;
    if (st->after_cr) {
        st->after_cr = 0;
        i = p[0] == '\n';
    }
    while (i < n && !st->stop) {
        size_t tabs;
        int high;
        size_t len = scan_line(p + i, n - i, &tabs, &high);
        if (i + len == n) { /* the line goes on in the next block */
            if (st->carry_len == 0) {
                st->carry_at = base + (int64_t)i;
            }
            keep(st, p + i, len);
            break;
        }
        if (st->carry_len > 0) {
            if (keep(st, p + i, len)) {
                flush_carry(st);
            }
        } else {
            add_line(st, p + i, len, base + (int64_t)i, tabs, high);
        }
        i += len;
        if (p[i] == '\r') {
            if (i + 1 == n) {
                st->after_cr = 1;
            } else if (p[i + 1] == '\n') {
                i++;
            }
        }
        i++;
    }
    return st->stop;
}

static int cols_finish(cols_state *st) {
    if (!st->stop && st->carry_len > 0) {
        int bom_only = st->carry_at == 0 && st->carry_len == 3 && memcmp(st->carry, "\xEF\xBB\xBF", 3) == 0;
        if (bom_only) {
            st->carry_len = 0;
        } else {
            flush_carry(st);
        }
    }
    return st->stop;
}

/* The fuzz entry point: the whole of data in blocks of uneven sizes, in both modes. */
int cols_fuzz_one(const unsigned char *data, size_t len); /* for the fuzz target, which declares it too */

int cols_fuzz_one(const unsigned char *data, size_t len) {
    for (int mode = COLS_HIPE; mode <= COLS_CONLLU; mode++) {
        cols_state st;
        cols_init(&st, mode);
        size_t at = 0, step = 1;
        while (at < len) {
            size_t take = len - at < step ? len - at : step;
            cols_feed(&st, data + at, take);
            at += take;
            step = step * 3 + 1;
        }
        cols_finish(&st);
        for (size_t i = 0; i < st.n; i++) {
            if (st.start[i] > st.end[i] || st.end[i] > (int64_t)len) {
                abort();
            }
        }
        cols_free(&st);
    }
    return 0;
}

/* ------------------------------------------------------------------ the Python wrappers */

static PyObject *bytes_of(const void *p, size_t n) { return PyBytes_FromStringAndSize((const char *)p, (Py_ssize_t)n); }

/* scan_columns(data, mode, block=1 MiB) -> (start, end, kind, width) as int64, int64, int8, int32
 * bytes, or the stop code (int) where the Python reader must read the input instead. The data is
 * fed to the core in blocks of `block` bytes (the tests cut lines and CR LF pairs with small ones). */
static PyObject *scan_columns(PyObject *self, PyObject *args) {
    const char *data;
    Py_ssize_t len, block_size = (Py_ssize_t)1 << 20;
    int mode;
    (void)self;
    if (!PyArg_ParseTuple(args, "y#i|n", &data, &len, &mode, &block_size)) {
        return NULL;
    }
    if ((mode != COLS_HIPE && mode != COLS_CONLLU) || block_size < 1) {
        PyErr_SetString(PyExc_ValueError, "mode must be 0 (HIPE) or 1 (CoNLL-U), block at least 1");
        return NULL;
    }
    cols_state st;
    cols_init(&st, mode);
    Py_BEGIN_ALLOW_THREADS;
    size_t at = 0, block = (size_t)block_size;
    while (at < (size_t)len && !st.stop) {
        size_t take = (size_t)len - at < block ? (size_t)len - at : block;
        cols_feed(&st, (const unsigned char *)data + at, take);
        at += take;
    }
    cols_finish(&st);
    Py_END_ALLOW_THREADS;
    PyObject *out;
    if (st.stop == COLS_NO_MEMORY) {
        out = PyErr_NoMemory();
    } else if (st.stop) {
        out = PyLong_FromLong(st.stop);
    } else {
        out = Py_BuildValue("(NNNN)", bytes_of(st.start, st.n * sizeof *st.start), bytes_of(st.end, st.n * sizeof *st.end),
                            bytes_of(st.kind, st.n), bytes_of(st.width, st.n * sizeof *st.width));
    }
    cols_free(&st);
    return out;
}

/* The int64 offsets of start and end (bytes of equal length), checked against the data's length. */
static Py_ssize_t ranges(PyObject *args, const char **data, const int64_t **start, const int64_t **end, int *k, int *width) {
    Py_ssize_t len, n_start, n_end;
    const char *s, *e;
    if (!PyArg_ParseTuple(args, "y#y#y#ii", data, &len, &s, &n_start, &e, &n_end, k, width)) {
        return -1;
    }
    if (n_start != n_end || n_start % 8 != 0 || *k < 0 || *k >= *width) {
        PyErr_SetString(PyExc_ValueError, "start and end must be int64 arrays of one length, 0 <= k < width");
        return -1;
    }
    Py_ssize_t n = n_start / 8;
    *start = (const int64_t *)s;
    *end = (const int64_t *)e;
    for (Py_ssize_t i = 0; i < n; i++) {
        if ((*start)[i] < 0 || (*start)[i] > (*end)[i] || (*end)[i] > len) {
            PyErr_SetString(PyExc_ValueError, "a range lies outside the data");
            return -1;
        }
    }
    return n;
}

/* Cell k of the line data[a:b] of width cells, from the end: its start and end. */
static void cell_from_end(const char *data, int64_t a, int64_t b, int back, int64_t *out_start, int64_t *out_end) {
    int64_t i = b;
    int64_t cell_end = b;
    for (;;) {
        while (i > a && data[i - 1] != '\t') {
            i--;
        }
        if (back == 0 || i == a) {
            break;
        }
        back--;
        cell_end = --i;
    }
    *out_start = back == 0 ? i : a;
    *out_end = back == 0 ? cell_end : a;
}

/* cells(data, start, end, k, width) -> (start, end): cell k (tab-separated) of each line
 * [start, end), which has width cells (then cells near the end are found from it); a line with
 * fewer cells gives an empty cell at one of its ends. */
static PyObject *cells(PyObject *self, PyObject *args) {
    const char *data;
    const int64_t *start, *end;
    int k, width;
    (void)self;
    Py_ssize_t n = ranges(args, &data, &start, &end, &k, &width);
    if (n < 0) {
        return NULL;
    }
    int64_t *out = malloc(2 * (size_t)n * sizeof *out + 1);
    if (out == NULL) {
        return PyErr_NoMemory();
    }
    Py_BEGIN_ALLOW_THREADS;
    for (Py_ssize_t i = 0; i < n && width - 1 - k < k; i++) {
        cell_from_end(data, start[i], end[i], width - 1 - k, out + i, out + n + i);
    }
    for (Py_ssize_t i = 0; i < n && width - 1 - k >= k; i++) {
        int64_t a = start[i], b = end[i];
        for (int j = 0; j < k && a < b; j++) {
            const char *tab = memchr(data + a, '\t', (size_t)(b - a));
            a = tab == NULL ? b : (int64_t)(tab - data) + 1;
        }
        const char *tab = memchr(data + a, '\t', (size_t)(b - a));
        out[i] = a;
        out[n + i] = tab == NULL ? b : (int64_t)(tab - data);
    }
    Py_END_ALLOW_THREADS;
    PyObject *result = Py_BuildValue("(NN)", bytes_of(out, (size_t)n * sizeof *out), bytes_of(out + n, (size_t)n * sizeof *out));
    free(out);
    return result;
}

static uint64_t hash_bytes(const unsigned char *p, size_t n) {
    uint64_t h = UINT64_C(0xcbf29ce484222325) ^ n;
    for (size_t i = 0; i < n; i++) {
        h = (h ^ p[i]) * UINT64_C(0x100000001B3);
    }
    return h ^ (h >> 29);
}

/* The distinct strings data[start[i]:end[i]] in the order met (first[], first_len[]) and the id of
 * each (ids[]); 0 when memory runs out. */
static size_t intern_core(const char *data, const int64_t *start, const int64_t *end, size_t n, int64_t *ids, size_t *first) {
    size_t slots = 64, distinct = 0;
    while (slots < 2 * n) {
        slots *= 2;
    }
    int64_t *table = malloc(slots * sizeof *table); /* -1 empty, else a distinct id */
    if (table == NULL) {
        return (size_t)-1;
    }
    for (size_t s = 0; s < slots; s++) {
        table[s] = -1;
    }
    for (size_t i = 0; i < n; i++) {
        const unsigned char *p = (const unsigned char *)data + start[i];
        size_t len = (size_t)(end[i] - start[i]);
        size_t s = (size_t)hash_bytes(p, len) & (slots - 1);
        for (;; s = (s + 1) & (slots - 1)) {
            int64_t id = table[s];
            if (id < 0) {
                table[s] = (int64_t)distinct;
                first[distinct] = i;
                ids[i] = (int64_t)distinct++;
                break;
            }
            size_t j = first[id];
            if ((size_t)(end[j] - start[j]) == len && memcmp(data + start[j], p, len) == 0) {
                ids[i] = id;
                break;
            }
        }
    }
    free(table);
    return distinct;
}

/* intern(data, start, end, 0, 1) -> (distinct, ids): the distinct strings data[start[i]:end[i]] (bytes,
 * in the order met) and the index of each among them (int64 bytes). */
static PyObject *intern(PyObject *self, PyObject *args) {
    const char *data;
    const int64_t *start, *end;
    int k, width;
    (void)self;
    Py_ssize_t n = ranges(args, &data, &start, &end, &k, &width);
    if (n < 0) {
        return NULL;
    }
    int64_t *ids = malloc((size_t)n * sizeof *ids + 1);
    (void)k;
    (void)width;
    size_t *first = malloc((size_t)n * sizeof *first + 1);
    size_t distinct = (size_t)-1;
    if (ids != NULL && first != NULL) {
        Py_BEGIN_ALLOW_THREADS;
        distinct = intern_core(data, start, end, (size_t)n, ids, first);
        Py_END_ALLOW_THREADS;
    }
    PyObject *names = NULL, *result = NULL;
    if (distinct == (size_t)-1) {
        PyErr_NoMemory();
    } else if ((names = PyList_New((Py_ssize_t)distinct)) != NULL) {
        int failed = 0;
        for (size_t d = 0; d < distinct && !failed; d++) {
            size_t j = first[d];
            PyObject *item = bytes_of(data + start[j], (size_t)(end[j] - start[j]));
            failed = item == NULL || PyList_SetItem(names, (Py_ssize_t)d, item) < 0;
        }
        if (!failed) {
            result = Py_BuildValue("(ON)", names, bytes_of(ids, (size_t)n * sizeof *ids));
        }
        Py_DECREF(names);
    }
    free(ids);
    free(first);
    return result;
}

PyMethodDef nerve_columns_methods[] = {
    {"scan_columns", scan_columns, METH_VARARGS, "The lines of a HIPE (mode 0) or CoNLL-U (mode 1) file, or a stop code."},
    {"cells", cells, METH_VARARGS, "Where cell k of each line is."},
    {"intern", intern, METH_VARARGS, "The distinct strings of the ranges, and the id of each."},
    {NULL, NULL, 0, NULL},
};
