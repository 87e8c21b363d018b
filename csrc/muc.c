/* MUC's four modes (strict, exact, partial, type) and exact matches of span columns, in C.
 *
 * Fuzz entry point: the pure-C core of spans_core.h, `mc_match` / `mc_count` / `mc_free` (build
 * with -DNERVE_NO_PYTHON to leave the wrapper and Python.h out). The wrapper at the end
 * (`muc_count`) releases the GIL around both.
 *
 * The matching is nerve's one optimal one-to-one assignment (nerve.matching.overlap): spans of a
 * document pair when they share a position, and the assignment prefers, lexicographically, the
 * same span and type, the same span, the same type, any overlap (the tier); then the larger
 * overlap; ties go to the lowest gold row, then predicted row, in the order of document, start,
 * end and type name. A connected group of overlapping spans that is one pair, or one span of a
 * side against several of the other (a star), is resolved here: the best edge by (tier, overlap),
 * the first in row order among equals, which is what the general solver gives such a group. A
 * group of at most 5 spans on one side and 7 on the other is solved as the general solver solves
 * it, by trying every map of the smaller side and keeping the first of the largest total weight,
 * with its integer weights (exact where the solver's float64 ones are: else the group is its).
 * Every other group goes to the general solver (nerve.matching.assignment) through a callback.
 *
 * Two sides that are each flat and in order (no two spans of a side overlap; by document and start:
 * nerve's own entities, mostly) take a shorter road to the same results: no rows, no sort, and one
 * sweep over both sides' columns that finds the exact matches and the groups, in the order in which
 * the general road resolves them (flat_sorted, flat_sweep). Any other input takes the general road.
 */
#ifndef NERVE_NO_PYTHON
#include "speedups.h" /* Python.h, before the standard headers */
#endif

#include <stdlib.h>
#include <string.h>

#include "spans_core.h"

typedef struct {
    int64_t doc, start, end, rank, label;
    size_t idx;
} row;

static int cmp_rows(const void *x, const void *y) {
    const row *a = (const row *)x, *b = (const row *)y;
    if (a->doc != b->doc) return a->doc < b->doc ? -1 : 1;
    if (a->start != b->start) return a->start < b->start ? -1 : 1;
    if (a->end != b->end) return a->end < b->end ? -1 : 1;
    if (a->rank != b->rank) return a->rank < b->rank ? -1 : 1;
    return a->idx < b->idx ? -1 : a->idx > b->idx;
}

/* The rows of a side sorted by document, start, end and type name (stable), or NULL. */
static row *sorted_rows(const mc_side *s, const int64_t *rank) {
    row *rows = (row *)malloc((s->n ? s->n : 1) * sizeof(row));
    if (!rows) {
        return NULL;
    }
    int in_order = 1;
    for (size_t i = 0; i < s->n; i++) {
        row r = {s->doc[i], s->start[i], s->end[i], rank[s->label[i]], s->label[i], i};
        rows[i] = r;
        in_order = in_order && (i == 0 || cmp_rows(&rows[i - 1], &rows[i]) < 0);
    }
    if (!in_order) {
        qsort(rows, s->n, sizeof(row), cmp_rows);
    }
    return rows;
}

/* A span of a side at a sorted position: from its sorted rows, or, where the side has none (flat and
 * in order: see flat_sorted), from its columns, whose order is the sorted one. */
typedef struct {
    int64_t doc, start, end, label;
    size_t idx; /* its column */
} muc_span;

static muc_span span_at(const void *rows, const mc_side *s, size_t i) {
    if (rows) {
        const row *r = (const row *)rows + i;
        muc_span x = {r->doc, r->start, r->end, r->label, r->idx};
        return x;
    }
    muc_span x = {s->doc[i], s->start[i], s->end[i], s->label[i], i};
    return x;
}

/* Exact matches per type: equal (document, start, end, type), each span matched at most once. */
static void exact(mc_state *st, const row *g, const row *p) {
    size_t i = 0, j = 0, ng = st->gold.n, np = st->pred.n;
    while (i < ng && j < np) {
        row a = g[i], b = p[j];
        a.idx = b.idx = 0;
        int c = cmp_rows(&a, &b);
        if (c < 0) {
            i++;
        } else if (c > 0) {
            j++;
        } else {
            size_t i2 = i, j2 = j;
            while (i2 < ng && g[i2].doc == a.doc && g[i2].start == a.start && g[i2].end == a.end &&
                   g[i2].rank == a.rank) {
                i2++;
            }
            while (j2 < np && p[j2].doc == a.doc && p[j2].start == a.start && p[j2].end == a.end &&
                   p[j2].rank == a.rank) {
                j2++;
            }
            st->hits[a.label] += (int64_t)((i2 - i) < (j2 - j) ? (i2 - i) : (j2 - j));
            i = i2;
            j = j2;
        }
    }
}

/* Whether the keys of nerve's exact matching fit 64 bits (else the Python engine says what is wrong). */
static int keys_fit(const mc_state *st) {
    const double limit = 2305843009213693952.0; /* 2**61: a margin below the Python engine's 2**62 */
    int64_t top_end = 0, longest = 0, top_doc = 0;
    const mc_side *sides[2] = {&st->gold, &st->pred};
    for (int k = 0; k < 2; k++) {
        const mc_side *s = sides[k];
        for (size_t i = 0; i < s->n; i++) {
            top_end = s->end[i] > top_end ? s->end[i] : top_end;
            longest = s->end[i] - s->start[i] > longest ? s->end[i] - s->start[i] : longest;
            top_doc = s->doc[i] > top_doc ? s->doc[i] : top_doc;
        }
    }
    double width = (double)top_end + 1.0;
    if ((double)st->n_docs * width >= limit) {
        return 0;
    }
    double top = ((double)top_doc + 1.0) * width;
    return top * ((double)longest + 1.0) * ((double)st->n_types + 1.0) < limit;
}

static int64_t root(int64_t *parent, int64_t x) {
    while (parent[x] != x) {
        parent[x] = parent[parent[x]];
        x = parent[x];
    }
    return x;
}

typedef struct {
    int64_t *g, *p, *overlap;
    size_t n, cap;
} edge_list;

static int add_edge(edge_list *e, int64_t g, int64_t p, int64_t overlap) {
    if (e->n == e->cap) {
        size_t cap = e->cap ? e->cap * 2 : 1024;
        int64_t **cols[3] = {&e->g, &e->p, &e->overlap};
        for (int k = 0; k < 3; k++) {
            int64_t *grown = (int64_t *)realloc(*cols[k], cap * sizeof(int64_t));
            if (!grown) {
                return 0;
            }
            *cols[k] = grown;
        }
        e->cap = cap;
    }
    e->g[e->n] = g;
    e->p[e->n] = p;
    e->overlap[e->n] = overlap;
    e->n++;
    return 1;
}

/* Every (gold, pred) pair of a document whose spans share a position, gold row by gold row. */
static int candidates(const row *g, size_t ng, const row *p, size_t np, int64_t *reach, edge_list *e) {
    size_t gi = 0, pi = 0;
    while (gi < ng) {
        int64_t doc = g[gi].doc;
        size_t ga = gi, pa, pb;
        while (gi < ng && g[gi].doc == doc) gi++;
        while (pi < np && p[pi].doc < doc) pi++;
        pa = pi;
        while (pi < np && p[pi].doc == doc) pi++;
        pb = pi;
        for (size_t k = pa; k < pb; k++) {
            reach[k] = k > pa && reach[k - 1] > p[k].end ? reach[k - 1] : p[k].end;
        }
        for (size_t k = ga; k < gi; k++) {
            size_t lo = pa, hi = pb, a = pa, b = pb;
            while (a < b) { /* the first prediction starting at or after the gold's end */
                size_t m = a + (b - a) / 2;
                if (p[m].start < g[k].end) a = m + 1; else b = m;
            }
            hi = a;
            a = pa;
            b = hi;
            while (a < b) { /* the first whose running reach passes the gold's start */
                size_t m = a + (b - a) / 2;
                if (reach[m] <= g[k].start) a = m + 1; else b = m;
            }
            for (lo = a; lo < hi; lo++) {
                if (p[lo].end > g[k].start) {
                    int64_t s = g[k].start > p[lo].start ? g[k].start : p[lo].start;
                    int64_t t = g[k].end < p[lo].end ? g[k].end : p[lo].end;
                    if (!add_edge(e, (int64_t)k, (int64_t)lo, t - s)) {
                        return 0;
                    }
                }
            }
        }
    }
    return 1;
}

/* An edge's tier: 4 the same span and type, 3 the same span, 2 the same type, 1 an overlap. */
static int64_t tier_of(int64_t g_start, int64_t g_end, int64_t g_label, int64_t p_start, int64_t p_end,
                       int64_t p_label) {
    int same_span = g_start == p_start && g_end == p_end;
    int same_type = g_label == p_label;
    return same_span ? (same_type ? 4 : 3) : (same_type ? 2 : 1);
}

static int64_t tier(const row *g, const row *p) {
    return tier_of(g->start, g->end, g->label, p->start, p->end, p->label);
}

static int add_general(mc_edges *out, int64_t g, int64_t p, int64_t overlap, int64_t t) {
    if (out->n == out->cap) {
        size_t cap = out->cap ? out->cap * 2 : 256;
        int64_t **cols[4] = {&out->g, &out->p, &out->overlap, &out->tier};
        for (int k = 0; k < 4; k++) {
            int64_t *grown = (int64_t *)realloc(*cols[k], cap * sizeof(int64_t));
            if (!grown) {
                return 0;
            }
            *cols[k] = grown;
        }
        out->cap = cap;
    }
    out->g[out->n] = g;
    out->p[out->n] = p;
    out->overlap[out->n] = overlap;
    out->tier[out->n] = t;
    out->n++;
    return 1;
}

/* ------------------------------------------------------------------ small groups */

/* The largest groups solved here by trying every map, as the general solver does: (smaller side,
 * larger side); nerve.matching.assignment.SMALL. */
#define SMALL_K 5
#define SMALL_M 7

typedef struct {
    int64_t root, g, p, overlap, tier;
} group_edge;

static int cmp_group_edges(const void *x, const void *y) {
    const group_edge *a = (const group_edge *)x, *b = (const group_edge *)y;
    if (a->root != b->root) return a->root < b->root ? -1 : 1;
    if (a->g != b->g) return a->g < b->g ? -1 : 1;
    return a->p < b->p ? -1 : a->p > b->p;
}

typedef struct {
    int64_t w[SMALL_M][SMALL_M]; /* [mapped side][other side], 0 where no edge */
    int k, m;
    int perm[SMALL_K], used[SMALL_M], best_perm[SMALL_K];
    int64_t best;
    int found;
} maps;

/* Every map of the k mapped nodes into the m others, in itertools.permutations order; the first of
 * the largest total weight is kept. */
static void try_maps(maps *t, int i, int64_t total) {
    if (i == t->k) {
        if (!t->found || total > t->best) {
            t->found = 1;
            t->best = total;
            memcpy(t->best_perm, t->perm, sizeof t->perm);
        }
        return;
    }
    for (int j = 0; j < t->m; j++) {
        if (!t->used[j]) {
            t->used[j] = 1;
            t->perm[i] = j;
            try_maps(t, i + 1, total + t->w[i][j]);
            t->used[j] = 0;
        }
    }
}

static int local(const int64_t *nodes, int n, int64_t node) {
    for (int i = 0; i < n; i++) {
        if (nodes[i] == node) return i;
    }
    return -1;
}

/* Solve one group of edges e[0..n) by trying every map, if it is small and its integer weights
 * (nerve.matching.overlap.best_tiered) are exact in the general solver's float64; else return 0. */
static int solve_small(mc_state *st, const group_edge *e, size_t n, int64_t total) {
    int64_t rows[SMALL_M + 1], cols[SMALL_M + 1];
    int nr = 0, nc = 0;
    for (size_t i = 0; i < n; i++) {
        if (local(rows, nr, e[i].g) < 0) {
            if (nr == SMALL_M) return 0;
            rows[nr++] = e[i].g;
        }
        if (local(cols, nc, e[i].p) < 0) {
            if (nc == SMALL_M) return 0;
            cols[nc++] = e[i].p;
        }
    }
    int k = nr < nc ? nr : nc, flip = nr > nc;
    if (k > SMALL_K) return 0;
    double base = (double)k + 1.0;
    /* a map's total: k weights of at most (k + 1)**3 * (total + 1) + total each; below 2**53 */
    if ((double)k * (base * base * base + 1.0) * ((double)total + 1.0) >= 9007199254740992.0) return 0;
    /* nodes numbered in ascending order within the group, as the general solver numbers them */
    for (int a = 1; a < nr; a++)
        for (int b = a; b > 0 && rows[b - 1] > rows[b]; b--) {
            int64_t x = rows[b]; rows[b] = rows[b - 1]; rows[b - 1] = x;
        }
    for (int a = 1; a < nc; a++)
        for (int b = a; b > 0 && cols[b - 1] > cols[b]; b--) {
            int64_t x = cols[b]; cols[b] = cols[b - 1]; cols[b - 1] = x;
        }
    maps t;
    memset(&t, 0, sizeof t);
    t.k = k;
    t.m = flip ? nr : nc;
    for (size_t i = 0; i < n; i++) {
        int64_t power = 1;
        for (int64_t q = 1; q < e[i].tier; q++) power *= (int64_t)k + 1;
        int r = local(rows, nr, e[i].g), c = local(cols, nc, e[i].p);
        t.w[flip ? c : r][flip ? r : c] = power * (total + 1) + e[i].overlap;
    }
    try_maps(&t, 0, 0);
    for (size_t i = 0; i < n; i++) {
        int r = local(rows, nr, e[i].g), c = local(cols, nc, e[i].p);
        if (t.best_perm[flip ? c : r] == (flip ? r : c)) {
            st->g_match[e[i].g] = e[i].p;
            st->p_match[e[i].p] = e[i].g;
        }
    }
    return 1;
}

/* Solve the small groups of st->general here; keep the others there for the general solver. */
static int small_groups(mc_state *st, int64_t *parent, const int64_t *stat) {
    size_t n = st->general.n, kept = 0;
    group_edge *e = (group_edge *)malloc((n ? n : 1) * sizeof(group_edge));
    if (!e) return 0;
    for (size_t i = 0; i < n; i++) {
        group_edge x = {root(parent, st->general.g[i]), st->general.g[i], st->general.p[i],
                        st->general.overlap[i], st->general.tier[i]};
        e[i] = x;
    }
    qsort(e, n, sizeof(group_edge), cmp_group_edges);
    for (size_t lo = 0, hi; lo < n; lo = hi) {
        for (hi = lo; hi < n && e[hi].root == e[lo].root; hi++) {
        }
        if (solve_small(st, e + lo, hi - lo, stat[4 * e[lo].root + 2])) continue;
        for (size_t i = lo; i < hi; i++) {
            st->general.g[kept] = e[i].g;
            st->general.p[kept] = e[i].p;
            st->general.overlap[kept] = e[i].overlap;
            st->general.tier[kept] = e[i].tier;
            kept++;
        }
    }
    st->general.n = kept;
    free(e);
    return 1;
}


/* Resolve the single edges and stars; queue the other groups' edges in st->general. */
static int assign(mc_state *st, const row *g, const row *p, const edge_list *e) {
    size_t ng = st->gold.n, nodes = ng + st->pred.n;
    int64_t *parent = (int64_t *)malloc((nodes ? nodes : 1) * sizeof(int64_t));
    int64_t *stat = (int64_t *)calloc((nodes ? nodes : 1) * 4, sizeof(int64_t)); /* gold, pred, total, best */
    int ok = parent && stat;
    for (size_t i = 0; ok && i < nodes; i++) {
        parent[i] = (int64_t)i;
    }
    for (size_t k = 0; ok && k < e->n; k++) {
        int64_t a = root(parent, e->g[k]), b = root(parent, (int64_t)ng + e->p[k]);
        if (a != b) {
            parent[a < b ? b : a] = a < b ? a : b;
        }
    }
    for (size_t k = 0; ok && k < e->n; k++) { /* count each node once: at its first edge */
        int64_t r = root(parent, e->g[k]);
        stat[4 * r + 2] += e->overlap[k];
        if (st->g_match[e->g[k]] != -2) {
            st->g_match[e->g[k]] = -2;
            stat[4 * r]++;
        }
        if (st->p_match[e->p[k]] != -2) {
            st->p_match[e->p[k]] = -2;
            stat[4 * r + 1]++;
        }
        stat[4 * r + 3] = -1;
    }
    for (size_t k = 0; ok && k < e->n; k++) {
        int64_t r = root(parent, e->g[k]), t = tier(&g[e->g[k]], &p[e->p[k]]);
        int star = (stat[4 * r] == 1 || stat[4 * r + 1] == 1) && stat[4 * r + 2] < ((int64_t)1 << 48);
        if (!star) {
            ok = add_general(&st->general, e->g[k], e->p[k], e->overlap[k], t);
            continue;
        }
        int64_t best = stat[4 * r + 3];
        if (best < 0) {
            stat[4 * r + 3] = (int64_t)k;
            continue;
        }
        int64_t bt = tier(&g[e->g[best]], &p[e->p[best]]);
        if (t > bt || (t == bt && e->overlap[k] > e->overlap[best])) {
            stat[4 * r + 3] = (int64_t)k;
        }
    }
    for (size_t i = 0; i < ng; i++) {
        st->g_match[i] = -1;
    }
    for (size_t i = 0; i < st->pred.n; i++) {
        st->p_match[i] = -1;
    }
    for (size_t i = 0; ok && i < nodes; i++) {
        int64_t best = parent[i] == (int64_t)i ? stat[4 * i + 3] : -1;
        if (best >= 0 && (stat[4 * i] == 1 || stat[4 * i + 1] == 1) && stat[4 * i + 2] < ((int64_t)1 << 48)) {
            st->g_match[e->g[best]] = e->p[best];
            st->p_match[e->p[best]] = e->g[best];
        }
    }
    ok = ok && small_groups(st, parent, stat);
    free(parent);
    free(stat);
    return ok;
}

/* ------------------------------------------------------------------ flat sides in order */

/* Whether a side is flat and in order, as nerve's own entities mostly are: by document, then each
 * span non-empty and ending at or before the next one of its document starts. Its starts then rise
 * strictly within a document, so its column order is its sorted order (no rows, no sort), and no
 * two of its spans overlap, so that one sweep over both sides meets every overlapping pair. */
static int flat_sorted(const mc_side *s) {
    for (size_t i = 0; i < s->n; i++) {
        if (s->start[i] >= s->end[i]) {
            return 0;
        }
        if (i && (s->doc[i] < s->doc[i - 1] || (s->doc[i] == s->doc[i - 1] && s->start[i] < s->end[i - 1]))) {
            return 0;
        }
    }
    return 1;
}

/* The connected group of overlapping spans that the sweep is in: its edges in (gold, pred) order. */
typedef struct {
    group_edge *e;
    size_t n, cap;
    size_t golds, preds; /* its distinct spans of each side */
    int64_t total;       /* the sum of its overlaps */
} group;

/* Resolve a finished group as assign and small_groups resolve it: one span against one or several,
 * the best edge by (tier, overlap), the first among equals; else solved here if small, else its
 * edges go to the general solver, in (gold, pred) order as small_groups leaves them. */
static int close_group(mc_state *st, group *c) {
    int ok = 1;
    if (!c->n) {
        return 1;
    }
    if ((c->golds == 1 || c->preds == 1) && c->total < ((int64_t)1 << 48)) {
        size_t best = 0;
        for (size_t k = 1; k < c->n; k++) {
            const group_edge *x = &c->e[k], *b = &c->e[best];
            best = x->tier > b->tier || (x->tier == b->tier && x->overlap > b->overlap) ? k : best;
        }
        st->g_match[c->e[best].g] = c->e[best].p;
        st->p_match[c->e[best].p] = c->e[best].g;
    } else if (!solve_small(st, c->e, c->n, c->total)) {
        for (size_t k = 0; ok && k < c->n; k++) {
            ok = add_general(&st->general, c->e[k].g, c->e[k].p, c->e[k].overlap, c->e[k].tier);
        }
    }
    c->n = c->golds = c->preds = 0;
    c->total = 0;
    return ok;
}

/* Add an edge to the sweep's group, closing the group before it when the edge shares no span with
 * the group's last one: in a sweep over flat sides that is where a group ends, as each later edge
 * has a later gold and a later prediction. */
static int flat_edge(mc_state *st, group *c, group_edge x) {
    const group_edge *last = c->n ? &c->e[c->n - 1] : NULL;
    if (last && last->g != x.g && last->p != x.p) {
        if (!close_group(st, c)) {
            return 0;
        }
        last = NULL;
    }
    if (c->n == c->cap) {
        size_t cap = c->cap ? 2 * c->cap : 64;
        group_edge *grown = (group_edge *)realloc(c->e, cap * sizeof(group_edge));
        if (!grown) {
            return 0;
        }
        c->e = grown;
        c->cap = cap;
        last = c->n ? &c->e[c->n - 1] : NULL;
    }
    c->golds += !last || last->g != x.g;
    c->preds += !last || last->p != x.p;
    c->total += x.overlap;
    c->e[c->n++] = x;
    return 1;
}

/* exact, candidates and assign in one sweep over two flat sides in order: a pair of the same span
 * and type name is an exact match (one of each side at most: spans of a side do not overlap). */
static int flat_sweep(mc_state *st) {
    /* the columns in locals: else each store to hits or the group would make the compiler reload them */
    const int64_t *gd = st->gold.doc, *gs = st->gold.start, *ge = st->gold.end, *gl = st->gold.label;
    const int64_t *pd = st->pred.doc, *ps = st->pred.start, *pe = st->pred.end, *pl = st->pred.label;
    const int64_t *rank = st->rank;
    int64_t *hits = st->hits;
    size_t ng = st->gold.n, np = st->pred.n, i = 0, j = 0;
    int want_muc = st->want_muc, ok = 1;
    group c = {NULL, 0, 0, 0, 0, 0};
    while (ok && i < ng && j < np) {
        if (gd[i] != pd[j] || ge[i] <= ps[j] || pe[j] <= gs[i]) {
            /* no overlap: leave the one that ends first (or is in the earlier document) */
            int gold_first = gd[i] != pd[j] ? gd[i] < pd[j] : ge[i] <= ps[j];
            i += gold_first;
            j += !gold_first;
            continue;
        }
        if (gs[i] == ps[j] && ge[i] == pe[j] && rank[gl[i]] == rank[pl[j]]) {
            hits[gl[i]]++;
        }
        if (want_muc) {
            int64_t from = gs[i] > ps[j] ? gs[i] : ps[j], to = ge[i] < pe[j] ? ge[i] : pe[j];
            int64_t t = tier_of(gs[i], ge[i], gl[i], ps[j], pe[j], pl[j]);
            group_edge x = {0, (int64_t)i, (int64_t)j, to - from, t};
            ok = flat_edge(st, &c, x);
        }
        /* the one that ends first overlaps nothing further; both when they end together */
        int64_t g_end = ge[i], p_end = pe[j];
        i += g_end <= p_end;
        j += p_end <= g_end;
    }
    ok = ok && close_group(st, &c);
    free(c.e);
    return ok;
}

/* ------------------------------------------------------------------ both paths */

/* The general path: sorted rows, exact matches, the candidate edges and their groups. */
static int match_rows(mc_state *st) {
    row *g = sorted_rows(&st->gold, st->rank);
    row *p = g ? sorted_rows(&st->pred, st->rank) : NULL;
    edge_list e = {NULL, NULL, NULL, 0, 0};
    int64_t *reach = (int64_t *)malloc((st->pred.n ? st->pred.n : 1) * sizeof(int64_t));
    int ok = g && p && reach;
    if (ok) {
        memset(st->g_match, 0, (st->gold.n ? st->gold.n : 1) * sizeof(int64_t));
        memset(st->p_match, 0, (st->pred.n ? st->pred.n : 1) * sizeof(int64_t));
        exact(st, g, p);
        ok = !st->want_muc || (candidates(g, st->gold.n, p, st->pred.n, reach, &e) && assign(st, g, p, &e));
    }
    free(e.g);
    free(e.p);
    free(e.overlap);
    free(reach);
    /* keep the sorted columns for mc_count in the rows' place */
    st->g_rows = g;
    st->p_rows = p;
    return ok;
}

/* mc_count tallies each side's spans by type and kind (TALLY_* below), in the 10 x n_types int64
 * that mc_match leaves after the 32 x n_types counts, then spreads the tallies over the four modes:
 * two increments a matched pair rather than eight. */
enum { TALLY_MATCHED = 0, TALLY_UNMATCHED = 4, TALLY_PRED = 5, TALLY_ROWS = 10 };

/* g_order and p_order stay NULL: a row keeps its column (and flat sides need no rows at all). */
void mc_match(mc_state *st) {
    st->hits = (int64_t *)calloc(st->n_types ? st->n_types : 1, sizeof(int64_t));
    st->counts = (int64_t *)calloc((32 + TALLY_ROWS) * (st->n_types ? st->n_types : 1), sizeof(int64_t));
    st->g_match = (int64_t *)malloc((st->gold.n ? st->gold.n : 1) * sizeof(int64_t));
    st->p_match = (int64_t *)malloc((st->pred.n ? st->pred.n : 1) * sizeof(int64_t));
    st->status = NS_NOMEM;
    if (!st->hits || !st->counts || !st->g_match || !st->p_match) {
        return;
    }
    if (!keys_fit(st)) {
        st->status = NS_HANDOVER;
        return;
    }
    int ok;
    if (flat_sorted(&st->gold) && flat_sorted(&st->pred)) {
        for (size_t i = 0; i < st->gold.n; i++) st->g_match[i] = -1;
        for (size_t i = 0; i < st->pred.n; i++) st->p_match[i] = -1;
        ok = flat_sweep(st);
    } else {
        ok = match_rows(st);
    }
    st->status = ok ? NS_OK : NS_NOMEM;
}

/* A matched pair's kind: 2 for the same span, plus 1 for the same type. */
static size_t kind_of(const muc_span *g, const muc_span *p) {
    return (size_t)(2 * (g->start == p->start && g->end == p->end) + (g->label == p->label));
}

/* The four modes' counts of the tallies. */
static void spread(mc_state *st, const int64_t *tally) {
    size_t n = st->n_types;
    for (size_t kind = 0; kind < 4; kind++) {
        int same_span = kind >= 2, same_type = kind & 1;
        /* per mode: 0 cor, 1 inc, 2 par */
        size_t outcome[4] = {
            same_span && same_type ? 0 : 1,
            same_span ? 0 : 1,
            same_span ? 0 : 2,
            same_type ? 0 : 1,
        };
        const int64_t *gold = tally + (TALLY_MATCHED + kind) * n, *pred = gold + TALLY_PRED * n;
        for (size_t m = 0; m < 4; m++) {
            for (size_t t = 0; t < n; t++) {
                st->counts[(m * 8 + outcome[m]) * n + t] += gold[t];
                st->counts[(m * 8 + 5 + outcome[m]) * n + t] += pred[t];
            }
        }
    }
    for (size_t m = 0; m < 4; m++) {
        for (size_t t = 0; t < n; t++) {
            st->counts[(m * 8 + 3) * n + t] += tally[TALLY_UNMATCHED * n + t];
            st->counts[(m * 8 + 4) * n + t] += tally[(TALLY_PRED + TALLY_UNMATCHED) * n + t];
        }
    }
}

void mc_count(mc_state *st, const unsigned char *chosen) {
    size_t n = st->n_types;
    int64_t *tally = st->counts + 32 * n; /* zero: mc_match's calloc */
    if (!st->want_muc) {
        return;
    }
    for (size_t k = 0; chosen && k < st->general.n; k++) {
        if (chosen[k]) {
            st->g_match[st->general.g[k]] = st->general.p[k];
            st->p_match[st->general.p[k]] = st->general.g[k];
        }
    }
    for (size_t i = 0; i < st->gold.n; i++) {
        muc_span a = span_at(st->g_rows, &st->gold, i);
        if (st->g_match[i] >= 0) {
            muc_span b = span_at(st->p_rows, &st->pred, (size_t)st->g_match[i]);
            size_t kind = kind_of(&a, &b);
            tally[(TALLY_MATCHED + kind) * n + (size_t)a.label]++;
            tally[(TALLY_PRED + TALLY_MATCHED + kind) * n + (size_t)b.label]++;
        } else {
            tally[TALLY_UNMATCHED * n + (size_t)a.label]++;
        }
    }
    for (size_t j = 0; j < st->pred.n; j++) {
        if (st->p_match[j] < 0) {
            tally[(TALLY_PRED + TALLY_UNMATCHED) * n + (size_t)span_at(st->p_rows, &st->pred, j).label]++;
        }
    }
    spread(st, tally);
}

void mc_free(mc_state *st) {
    free(st->hits);
    free(st->counts);
    free(st->general.g);
    free(st->general.p);
    free(st->general.overlap);
    free(st->general.tier);
    free(st->g_order);
    free(st->p_order);
    free(st->g_match);
    free(st->p_match);
    free(st->g_rows);
    free(st->p_rows);
    memset(st, 0, sizeof *st);
}

#ifndef NERVE_NO_PYTHON
/* ------------------------------------------------------------------ the Python wrapper */

/* The four int64 columns of a side from (doc, start, end, label, ...) bytearrays; 0 on error. */
static int side_of(PyObject *cols, mc_side *s) {
    const int64_t **out[4] = {&s->doc, &s->start, &s->end, &s->label};
    Py_ssize_t n = -1;
    if (!PyTuple_Check(cols) || PyTuple_Size(cols) < 4) {
        PyErr_SetString(PyExc_TypeError, "expected (doc, start, end, label) bytearrays");
        return 0;
    }
    for (int k = 0; k < 4; k++) {
        PyObject *col = PyTuple_GetItem(cols, k);
        if (!PyByteArray_Check(col) || (n >= 0 && PyByteArray_Size(col) != n) ||
            PyByteArray_Size(col) % (Py_ssize_t)sizeof(int64_t)) {
            PyErr_SetString(PyExc_ValueError, "expected four int64 bytearrays of one length");
            return 0;
        }
        n = PyByteArray_Size(col);
        *out[k] = (const int64_t *)PyByteArray_AsString(col);
    }
    s->n = (size_t)n / sizeof(int64_t);
    return 1;
}

static int64_t *int_list(PyObject *list, size_t *n) {
    Py_ssize_t size = PyList_Check(list) ? PyList_Size(list) : -1;
    if (size < 0) {
        PyErr_SetString(PyExc_TypeError, "expected a list of int");
        return NULL;
    }
    int64_t *out = (int64_t *)malloc(((size_t)size + 1) * sizeof(int64_t));
    if (!out) {
        PyErr_NoMemory();
        return NULL;
    }
    for (Py_ssize_t i = 0; i < size; i++) {
        out[i] = PyLong_AsLongLong(PyList_GetItem(list, i));
    }
    *n = (size_t)size;
    if (PyErr_Occurred()) {
        free(out);
        return NULL;
    }
    return out;
}

static PyObject *list_of(const int64_t *values, size_t n) {
    PyObject *out = PyList_New((Py_ssize_t)n);
    for (size_t i = 0; out && i < n; i++) {
        PyObject *v = PyLong_FromLongLong(values[i]);
        if (!v) {
            Py_DECREF(out);
            return NULL;
        }
        PyList_SetItem(out, (Py_ssize_t)i, v);
    }
    return out;
}

static int cmp_pairs(const void *x, const void *y) {
    const int64_t *a = (const int64_t *)x, *b = (const int64_t *)y;
    for (int k = 0; k < 3; k++) {
        if (a[k] != b[k]) return a[k] < b[k] ? -1 : 1;
    }
    return 0;
}

/* The optimal pairs as sorted (document, gold column, predicted column) triples, *n of them, or NULL. */
static int64_t *sorted_pairs(const mc_state *st, size_t *n) {
    size_t at = 0;
    *n = 0;
    for (size_t i = 0; i < st->gold.n; i++) *n += st->g_match[i] >= 0;
    int64_t *triples = (int64_t *)malloc((*n ? *n : 1) * 3 * sizeof(int64_t));
    if (!triples) return NULL;
    int in_order = 1;
    for (size_t i = 0; i < st->gold.n; i++) {
        if (st->g_match[i] < 0) continue;
        int64_t *t = triples + 3 * at;
        muc_span g = span_at(st->g_rows, &st->gold, i);
        t[0] = g.doc;
        t[1] = (int64_t)g.idx;
        t[2] = (int64_t)span_at(st->p_rows, &st->pred, (size_t)st->g_match[i]).idx;
        in_order = in_order && (at == 0 || cmp_pairs(t - 3, t) < 0);
        at++;
    }
    if (!in_order) qsort(triples, *n, 3 * sizeof(int64_t), cmp_pairs);
    return triples;
}

/* The int of column index v, made at its first use and kept in ints[v] (one reference): a column
 * index is in at most two pairs (as a gold and as a predicted column), so a corpus's pairs make
 * about half the ints, and free half, that one int per number would. */
static PyObject *shared_int(PyObject **ints, int64_t v) {
    if (!ints[v]) ints[v] = PyLong_FromLongLong(v);
    return ints[v];
}

/* The optimal pairs as sorted (document, gold column, predicted column) tuples. */
static PyObject *pairs_of(const mc_state *st) {
    size_t n, size = st->gold.n > st->pred.n ? st->gold.n : st->pred.n;
    int64_t *triples = sorted_pairs(st, &n);
    PyObject **ints = (PyObject **)calloc(size ? size : 1, sizeof(PyObject *));
    PyObject *out = triples && ints ? PyList_New((Py_ssize_t)n) : PyErr_NoMemory();
    PyObject *doc = NULL; /* a document's int, shared by its pairs (in document order) */
    for (size_t i = 0; out && i < n; i++) {
        const int64_t *t = triples + 3 * i;
        if (i == 0 || t[0] != t[-3]) {
            Py_XDECREF(doc);
            doc = PyLong_FromLongLong(t[0]);
        }
        PyObject *g = shared_int(ints, t[1]), *p = shared_int(ints, t[2]);
        PyObject *pair = doc && g && p ? PyTuple_Pack(3, doc, g, p) : NULL;
        if (!pair) {
            Py_CLEAR(out);
            break;
        }
        PyList_SetItem(out, (Py_ssize_t)i, pair);
    }
    Py_XDECREF(doc);
    for (size_t v = 0; ints && v < size; v++) Py_XDECREF(ints[v]);
    free(ints);
    free(triples);
    return out;
}

/* The general solver's choice of st->general's edges, as bytes of 0/1 (a new reference), or NULL. */
static PyObject *solve(mc_state *st, PyObject *solver) {
    size_t n = st->general.n;
    Py_ssize_t size = (Py_ssize_t)(n * sizeof(int64_t));
    PyObject *chosen = PyObject_CallFunction(
        solver, "(y#y#y#y#)", (const char *)st->general.g, size, (const char *)st->general.p, size,
        (const char *)st->general.overlap, size, (const char *)st->general.tier, size);
    if (chosen && (!PyBytes_Check(chosen) || PyBytes_Size(chosen) != (Py_ssize_t)n)) {
        Py_DECREF(chosen);
        PyErr_SetString(PyExc_ValueError, "the solver must return one byte per edge");
        return NULL;
    }
    return chosen;
}

static PyObject *results(mc_state *st, const int64_t *pred_label, int want_pairs) {
    size_t n = st->n_types;
    int64_t *counts = (int64_t *)calloc(2 * (n ? n : 1), sizeof(int64_t));
    if (!counts) return PyErr_NoMemory();
    for (size_t i = 0; i < st->gold.n; i++) counts[st->gold.label[i]]++;
    for (size_t i = 0; i < st->pred.n; i++) counts[n + (size_t)pred_label[i]]++;
    PyObject *muc = st->want_muc ? list_of(st->counts, 32 * n) : Py_NewRef(Py_None);
    PyObject *pairs = st->want_muc ? (want_pairs ? pairs_of(st) : PyList_New(0)) : Py_NewRef(Py_None);
    PyObject *out = NULL;
    if (muc && pairs) {
        out = Py_BuildValue("(NNNOO)", list_of(st->hits, n), list_of(counts, n), list_of(counts + n, n), muc,
                            pairs);
    }
    Py_XDECREF(muc);
    Py_XDECREF(pairs);
    free(counts);
    return out;
}

/* muc_count(gold, pred, pred_map, rank, n_docs, want_muc, solver[, want_pairs]) -> (hits, gold counts,
 * predicted counts, MUC counts or None, pairs or None (an empty list without want_pairs)) | str: why
 * the Python engine should count. */
static PyObject *muc_count(PyObject *self, PyObject *args) {
    PyObject *gold, *pred, *map_list, *rank_list, *solver;
    long long n_docs;
    int want_muc, want_pairs = 1;
    size_t n_map, n_types;
    (void)self;
    if (!PyArg_ParseTuple(args, "OOOOLpO|p", &gold, &pred, &map_list, &rank_list, &n_docs, &want_muc, &solver,
                          &want_pairs)) {
        return NULL;
    }
    mc_state st;
    memset(&st, 0, sizeof st);
    if (!side_of(gold, &st.gold) || !side_of(pred, &st.pred)) return NULL;
    int64_t *map = int_list(map_list, &n_map);
    int64_t *rank = map ? int_list(rank_list, &n_types) : NULL;
    int64_t *pred_label = rank ? (int64_t *)malloc((st.pred.n ? st.pred.n : 1) * sizeof(int64_t)) : NULL;
    PyObject *out = NULL;
    if (rank && !pred_label) PyErr_NoMemory();
    if (pred_label) {
        int ok = 1;
        for (size_t i = 0; i < st.gold.n; i++) ok = ok && st.gold.label[i] >= 0 && (size_t)st.gold.label[i] < n_types;
        for (size_t i = 0; i < st.pred.n && ok; i++) {
            ok = st.pred.label[i] >= 0 && (size_t)st.pred.label[i] < n_map;
            pred_label[i] = ok ? map[st.pred.label[i]] : 0;
            ok = ok && pred_label[i] >= 0 && (size_t)pred_label[i] < n_types;
        }
        if (!ok) PyErr_SetString(PyExc_ValueError, "a label id out of range");
        st.pred.label = pred_label;
        st.rank = rank;
        st.n_types = n_types;
        st.n_docs = n_docs;
        st.want_muc = want_muc;
        if (ok) {
            Py_BEGIN_ALLOW_THREADS mc_match(&st);
            Py_END_ALLOW_THREADS
        }
        PyObject *chosen = NULL;
        if (!ok) {
        } else if (st.status == NS_NOMEM) {
            PyErr_NoMemory();
        } else if (st.status == NS_HANDOVER) {
            out = PyUnicode_FromString("span keys beyond 64 bits");
        } else if (st.general.n && !(chosen = solve(&st, solver))) {
        } else {
            const unsigned char *c = chosen ? (const unsigned char *)PyBytes_AsString(chosen) : NULL;
            Py_BEGIN_ALLOW_THREADS mc_count(&st, c);
            Py_END_ALLOW_THREADS
            /* many tuples and no cycles: the collector would walk them all for nothing */
            int collecting = PyGC_Disable();
            out = results(&st, pred_label, want_pairs);
            if (collecting) {
                PyGC_Enable();
            }
        }
        Py_XDECREF(chosen);
    }
    mc_free(&st);
    free(map);
    free(rank);
    free(pred_label);
    return out;
}

PyMethodDef nerve_muc_methods[] = {
    {"muc_count", muc_count, METH_VARARGS,
     "muc_count(gold, pred, pred_map, rank, n_docs, want_muc, solver): exact matches and the four MUC "
     "modes' counts of span columns, or a str saying why the Python engine should count them."},
    {NULL, NULL, 0, NULL},
};

#endif /* NERVE_NO_PYTHON */
