/* brat .ann files of plain entities: the lines of many documents parsed in one pass (the compiled
 * path of nerve.io.tools.brat_batch, which states the rule: a document is read here exactly as the
 * numpy path reads it, or left to the one-by-one reader).
 *
 * The core has no Python API, for the fuzz target: `brat_plain_core(ann, n, text, counts,
 * text_len, n_docs, out)` reads `n_docs` documents whose .ann bytes follow one another in `ann`
 * (document d has counts[d] lines, each ended by LF, and text_len[d] bytes of text, which follow
 * one another in `text`), and fills, for each line, the entity's start and end, its type's byte
 * range, and for each document whether it is plain (slow[d] == 0). `brat_fuzz_one(data, len)`
 * drives it on arbitrary bytes.
 */
#include <stdint.h>
#include <stdlib.h>
#include <string.h>

#include "speedups.h"

#define MAX_DIGITS 15 /* longer numbers are left to the one-by-one reader */
#define ID_DIGITS 9
#define TYPE_BYTES 64

typedef struct {
    int64_t *start, *end, *type_lo, *type_hi, *id; /* one a line */
    uint8_t *slow;                                   /* one a document */
} brat_out;

static int64_t number(const unsigned char *p, size_t n) {
    int64_t v = 0;
    for (size_t i = 0; i < n; i++) {
        v = v * 10 + (p[i] - '0');
    }
    return v;
}

static int is_digits(const unsigned char *p, size_t n) {
    for (size_t i = 0; i < n; i++) {
        if (p[i] < '0' || p[i] > '9') {
            return 0;
        }
    }
    return 1;
}

/* Whether the line p[0..n) is a plain entity ``T<DIGITS><TAB>TYPE START END<TAB>TEXT`` whose text
 * is text[0..len)[START:END]; its numbers and type range (from line offset at) filled if so. */
static int plain_line(const unsigned char *p, size_t n, const unsigned char *text, int64_t len, int64_t at, brat_out *out, size_t k) {
    size_t t1 = 0, s1, s2, t2;
    while (t1 < n && p[t1] > 32 && p[t1] < 128) {
        t1++;
    }
    if (t1 == n || p[t1] != '\t' || t1 < 2 || t1 - 1 > ID_DIGITS || p[0] != 'T' || !is_digits(p + 1, t1 - 1)) {
        return 0;
    }
    for (s1 = t1 + 1; s1 < n && p[s1] > 32 && p[s1] < 128; s1++) {
    }
    if (s1 == n || p[s1] != ' ' || s1 == t1 + 1 || s1 - t1 - 1 > TYPE_BYTES) {
        return 0;
    }
    for (s2 = s1 + 1; s2 < n && p[s2] >= '0' && p[s2] <= '9'; s2++) {
    }
    if (s2 == n || p[s2] != ' ' || s2 == s1 + 1 || s2 - s1 - 1 > MAX_DIGITS) {
        return 0;
    }
    for (t2 = s2 + 1; t2 < n && p[t2] >= '0' && p[t2] <= '9'; t2++) {
    }
    if (t2 == n || p[t2] != '\t' || t2 == s2 + 1 || t2 - s2 - 1 > MAX_DIGITS || t2 + 1 >= n) {
        return 0;
    }
    int64_t start = number(p + s1 + 1, s2 - s1 - 1), end = number(p + s2 + 1, t2 - s2 - 1);
    if (start >= end || end > len || (int64_t)(n - t2 - 1) != end - start || memcmp(p + t2 + 1, text + start, (size_t)(end - start)) != 0) {
        return 0;
    }
    out->start[k] = start;
    out->end[k] = end;
    out->type_lo[k] = at + (int64_t)t1 + 1;
    out->type_hi[k] = at + (int64_t)s1;
    out->id[k] = number(p + 1, t1 - 1);
    return 1;
}

/* Whether an id is repeated among ids[0..n), with table (2 * slots entries, slots a power of 2 >= 2n). */
static int repeated(const int64_t *ids, size_t n, int64_t *table, size_t slots) {
    for (size_t s = 0; s < slots; s++) {
        table[s] = -1;
    }
    for (size_t i = 0; i < n; i++) {
        size_t s = (size_t)((uint64_t)ids[i] * UINT64_C(0x9E3779B97F4A7C15) >> 20) & (slots - 1);
        for (; table[s] >= 0; s = (s + 1) & (slots - 1)) {
            if (table[s] == ids[i]) {
                return 1;
            }
        }
        table[s] = ids[i];
    }
    return 0;
}

/* See the top of the file; 0, or -1 when memory runs out or the lines are not as counted. */
static int brat_plain_core(const unsigned char *ann, size_t n, const unsigned char *text, const int64_t *counts, const int64_t *text_len, size_t n_docs, brat_out *out) {
    size_t at = 0, k = 0, most = 0;
    int64_t text_at = 0;
    for (size_t d = 0; d < n_docs; d++) {
        most = (size_t)counts[d] > most ? (size_t)counts[d] : most;
    }
    size_t slots = 16;
    while (slots < 2 * most) {
        slots *= 2;
    }
    int64_t *table = malloc(slots * sizeof *table);
    if (table == NULL) {
        return -1;
    }
    for (size_t d = 0; d < n_docs; d++) {
        size_t first = k;
        int slow = 0;
        for (int64_t j = 0; j < counts[d]; j++, k++) {
            const unsigned char *nl = at < n ? memchr(ann + at, '\n', n - at) : NULL;
            if (nl == NULL) {
                free(table);
                return -1;
            }
            size_t len = (size_t)(nl - (ann + at));
            if (!slow && !plain_line(ann + at, len, text + text_at, text_len[d], (int64_t)at, out, k)) {
                slow = 1;
            }
            at += len + 1;
        }
        out->slow[d] = (uint8_t)(slow || repeated(out->id + first, k - first, table, slots));
        text_at += text_len[d];
    }
    free(table);
    return 0;
}

/* The fuzz entry point: data as one document's .ann over the same bytes as its text. */
int brat_fuzz_one(const unsigned char *data, size_t len); /* for the fuzz target, which declares it too */

int brat_fuzz_one(const unsigned char *data, size_t len) {
    int64_t lines = 0;
    for (size_t i = 0; i < len; i++) {
        lines += data[i] == '\n';
    }
    size_t m = (size_t)lines + 1;
    int64_t *cols = calloc(5 * m, sizeof *cols);
    uint8_t slow = 0;
    if (cols == NULL) {
        return 0;
    }
    brat_out out = {cols, cols + m, cols + 2 * m, cols + 3 * m, cols + 4 * m, &slow};
    int64_t text_len = (int64_t)len;
    brat_plain_core(data, len, data, &lines, &text_len, 1, &out);
    free(cols);
    return 0;
}

/* ------------------------------------------------------------------ the Python wrapper */

/* brat_plain(ann, text, counts, text_len) -> (start, end, type_lo, type_hi, slow): int64 bytes a
 * line (type_lo:type_hi is the type's range in ann) and uint8 bytes a document; None when the
 * lines are not as counted. counts and text_len are int64 bytes a document. */
static PyObject *brat_plain(PyObject *self, PyObject *args) {
    const char *ann, *text, *counts, *lens;
    Py_ssize_t n_ann, n_text, n_counts, n_lens;
    (void)self;
    if (!PyArg_ParseTuple(args, "y#y#y#y#", &ann, &n_ann, &text, &n_text, &counts, &n_counts, &lens, &n_lens)) {
        return NULL;
    }
    if (n_counts != n_lens || n_counts % 8 != 0) {
        PyErr_SetString(PyExc_ValueError, "counts and text_len must be int64 arrays of one length");
        return NULL;
    }
    size_t n_docs = (size_t)n_counts / 8, n_lines = 0;
    int64_t total_text = 0;
    for (size_t d = 0; d < n_docs; d++) {
        int64_t c, t;
        memcpy(&c, counts + 8 * d, 8);
        memcpy(&t, lens + 8 * d, 8);
        if (c < 0 || t < 0) {
            PyErr_SetString(PyExc_ValueError, "negative count");
            return NULL;
        }
        n_lines += (size_t)c;
        total_text += t;
    }
    if (total_text > n_text) {
        PyErr_SetString(PyExc_ValueError, "the texts are shorter than text_len says");
        return NULL;
    }
    int64_t *cols = calloc(5 * n_lines + 2 * n_docs + 1, sizeof *cols);
    uint8_t *slow = malloc(n_docs + 1);
    if (cols == NULL || slow == NULL) {
        free(cols);
        free(slow);
        return PyErr_NoMemory();
    }
    int64_t *c64 = cols + 5 * n_lines, *t64 = c64 + n_docs; /* aligned copies */
    memcpy(c64, counts, 8 * n_docs);
    memcpy(t64, lens, 8 * n_docs);
    brat_out out = {cols, cols + n_lines, cols + 2 * n_lines, cols + 3 * n_lines, cols + 4 * n_lines, slow};
    int failed;
    Py_BEGIN_ALLOW_THREADS;
    failed = brat_plain_core((const unsigned char *)ann, (size_t)n_ann, (const unsigned char *)text, c64, t64, n_docs, &out);
    Py_END_ALLOW_THREADS;
    PyObject *result;
    if (failed) {
        result = Py_None;
        Py_INCREF(result);
    } else {
        Py_ssize_t size = (Py_ssize_t)(n_lines * sizeof *cols);
        result = Py_BuildValue("(y#y#y#y#y#)", (const char *)out.start, size, (const char *)out.end, size, (const char *)out.type_lo, size,
                               (const char *)out.type_hi, size, (const char *)slow, (Py_ssize_t)n_docs);
    }
    free(cols);
    free(slow);
    return result;
}

PyMethodDef nerve_brat_methods[] = {
    {"brat_plain", brat_plain, METH_VARARGS, "The plain entities of brat documents, and which documents are not plain."},
    {NULL, NULL, 0, NULL},
};
