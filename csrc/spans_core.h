/* The pure-C cores of the span reader (spans.c) and the MUC counter (muc.c): no Python API here,
 * so that a fuzz target can drive them directly.
 *
 * Reader: ns_init, then ns_feed(state, bytes, len, format) once (NS_NERVALUATE: the whole file) or
 * once a piece of whole lines (NS_JSONL), then read the columns of state.side[0] (and side[1]
 * when state.sides == 2), then ns_free. state.status is NS_OK, or NS_HANDOVER when the input is
 * anything the core is not sure about (then the Python reader reads it and says what is wrong).
 */
#ifndef NERVE_SPANS_CORE_H
#define NERVE_SPANS_CORE_H

#include <stddef.h>
#include <stdint.h>

enum { NS_NERVALUATE = 0, NS_JSONL = 1 };
enum { NS_OK = 0, NS_HANDOVER = 1, NS_NOMEM = 2 };
enum { NS_UNITS_AUTO = 0, NS_UNITS_CHAR = 1, NS_UNITS_TOKEN = 2 };

typedef struct {
    int64_t *doc, *start, *end, *label;
    size_t n, cap;
    char **names; /* the label names, UTF-8, in order of first appearance */
    size_t *name_len;
    size_t n_names, cap_names;
    size_t *table; /* open addressing: name index + 1, 0 for empty */
    size_t table_size;
    int64_t n_docs;
} ns_side;

typedef struct {
    ns_side side[2];
    int sides;     /* 1 or 2; 0 before the first document of a JSONL file */
    int status;    /* NS_OK, NS_HANDOVER or NS_NOMEM */
    const char *why; /* what made the core hand over (for tests and the fuzz target) */
    int units;     /* JSONL: NS_UNITS_* */
    char *buf;     /* scratch for decoded strings */
    size_t buf_cap;
} ns_state;

void ns_init(ns_state *st, int units);
void ns_feed(ns_state *st, const char *data, size_t len, int format);
void ns_free(ns_state *st);

/* MUC: both sides' columns (label ids in one vocabulary, `rank` the order of their names). */
typedef struct {
    const int64_t *doc, *start, *end, *label;
    size_t n;
} mc_side;

/* The edges of the components that are neither one edge nor a star, for the general solver. */
typedef struct {
    int64_t *g, *p, *overlap, *tier;
    size_t n, cap;
} mc_edges;

typedef struct {
    mc_side gold, pred;
    const int64_t *rank; /* rank[label id]: its name's place in sorted order */
    size_t n_types;
    int64_t n_docs;
    int want_muc;
    /* out */
    int status;     /* NS_OK, NS_HANDOVER (keys beyond 64 bits), NS_NOMEM */
    int64_t *hits;  /* n_types exact matches */
    int64_t *counts; /* 4 modes x 8 fields x n_types */
    mc_edges general;
    /* internal, kept between mc_match and mc_count */
    size_t *g_order, *p_order; /* unused: NULL (a row keeps its column index) */
    int64_t *g_match, *p_match; /* sorted position -> matched sorted position, or -1 */
    void *g_rows, *p_rows;      /* the sorted rows; NULL where both sides are flat and in order */
} mc_state;

/* Sort, count exact matches, find the edges; resolve single edges and stars, queue the rest. */
void mc_match(mc_state *st);
/* Take the general edges whose `chosen[k]` is nonzero, then count the four modes. */
void mc_count(mc_state *st, const unsigned char *chosen);
void mc_free(mc_state *st);

#endif
