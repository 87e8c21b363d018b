// seeds: 01:tests/data/formats/doccano/*.jsonl 09:tests/data/formats/nested/*.jsonl 11:tests/data/formats/spacy/*.jsonl tests/fuzz/seeds/spans/*
/* Fuzz target: the span reader of csrc/spans.c (nervaluate's JSON, nerve's JSONL: ns_init,
 * ns_feed, ns_free) and, on what it reads, the MUC matching of csrc/muc.c (mc_match, mc_count,
 * mc_free).
 *
 * Byte 0 of an input picks the format (bit 0: nervaluate or JSONL), the units (bits 1-2), for
 * JSONL how many lines go in each piece fed (bits 3-5; the core takes pieces of whole lines), and
 * whether MUC is counted or exact matches only (bit 6); the rest is the file. A JSONL file fed in pieces and whole must give the same columns. The columns
 * must be sound (start <= end, labels and documents in range); then both sides, their labels in one
 * vocabulary, are matched: the edges left to the general solver must name real rows, a greedy
 * one-to-one choice of them stands in for the solver, and in each of the four modes the counts must
 * add up to the spans of each side.
 */
#include <stdint.h>

#include "spans.c"
#include "muc.c"

static void read_all(ns_state *st, int format, int units, const uint8_t *data, size_t size, size_t lines) {
    ns_init(st, units);
    if (format == NS_NERVALUATE || lines == 0) {
        ns_feed(st, (const char *)data, size, format);
        return;
    }
    size_t at = 0;
    while (at < size) { /* pieces of `lines` whole lines */
        size_t end = at, seen = 0;
        while (end < size && seen < lines) {
            const uint8_t *nl = memchr(data + end, '\n', size - end);
            end = nl ? (size_t)(nl - data) + 1 : size;
            seen++;
        }
        ns_feed(st, (const char *)data + at, end - at, format);
        at = end;
    }
}

static int same_side(const ns_side *a, const ns_side *b) {
    size_t bytes = a->n * sizeof(int64_t);
    if (a->n != b->n || a->n_docs != b->n_docs || a->n_names != b->n_names) {
        return 0;
    }
    if (a->n && (memcmp(a->doc, b->doc, bytes) || memcmp(a->start, b->start, bytes) ||
                 memcmp(a->end, b->end, bytes) || memcmp(a->label, b->label, bytes))) {
        return 0;
    }
    for (size_t i = 0; i < a->n_names; i++) {
        if (a->name_len[i] != b->name_len[i] || memcmp(a->names[i], b->names[i], a->name_len[i]) != 0) {
            return 0;
        }
    }
    return 1;
}

static void check_side(const ns_side *s) {
    for (size_t i = 0; i < s->n; i++) {
        if (s->start[i] < 0 || s->start[i] > s->end[i] || s->label[i] < 0 || (size_t)s->label[i] >= s->n_names ||
            s->doc[i] < 0 || s->doc[i] >= s->n_docs) {
            abort();
        }
    }
}

static int by_name(const ns_side *s, const char *name, size_t len) {
    for (size_t i = 0; i < s->n_names; i++) {
        if (s->name_len[i] == len && memcmp(s->names[i], name, len) == 0) {
            return (int)i;
        }
    }
    return -1;
}

/* Both sides' labels in one vocabulary (gold's names, then the prediction's new ones), matched. */
static void match(const ns_state *st, int want_muc) {
    const ns_side *g = &st->side[0], *p = st->sides == 2 ? &st->side[1] : &st->side[0];
    size_t n_types = g->n_names;
    int64_t *label = malloc((p->n + 1) * sizeof *label), *rank = malloc((g->n_names + p->n_names + 1) * sizeof *rank);
    const char **names = malloc((g->n_names + p->n_names + 1) * sizeof *names);
    size_t *lens = malloc((g->n_names + p->n_names + 1) * sizeof *lens);
    if (!label || !rank || !names || !lens) {
        abort();
    }
    for (size_t i = 0; i < g->n_names; i++) {
        names[i] = g->names[i];
        lens[i] = g->name_len[i];
    }
    for (size_t i = 0; i < p->n_names; i++) {
        if (by_name(g, p->names[i], p->name_len[i]) < 0) {
            names[n_types] = p->names[i];
            lens[n_types++] = p->name_len[i];
        }
    }
    for (size_t i = 0; i < p->n; i++) {
        const char *name = p->names[p->label[i]];
        int at = by_name(g, name, p->name_len[p->label[i]]);
        if (at < 0) { /* among the new names, after gold's */
            at = (int)g->n_names;
            while (lens[at] != p->name_len[p->label[i]] || memcmp(names[at], name, lens[at]) != 0) {
                at++;
            }
        }
        label[i] = at;
    }
    for (size_t i = 0; i < n_types; i++) { /* rank: place in sorted order of the names' bytes */
        rank[i] = 0;
        for (size_t j = 0; j < n_types; j++) {
            size_t m = lens[i] < lens[j] ? lens[i] : lens[j];
            int c = memcmp(names[j], names[i], m);
            rank[i] += c < 0 || (c == 0 && lens[j] < lens[i]);
        }
    }
    mc_state m;
    memset(&m, 0, sizeof m);
    m.gold = (mc_side){g->doc, g->start, g->end, g->label, g->n};
    m.pred = (mc_side){p->doc, p->start, p->end, label, p->n};
    m.rank = rank;
    m.n_types = n_types;
    m.n_docs = g->n_docs > p->n_docs ? g->n_docs : p->n_docs;
    m.want_muc = want_muc;
    mc_match(&m);
    if (m.status == NS_OK && !want_muc) { /* exact matches only: the wrapper still calls mc_count */
        mc_count(&m, NULL);
    } else if (m.status == NS_OK) {
        unsigned char *chosen = calloc(m.general.n + 1, 1), *g_used = calloc(g->n + 1, 1), *p_used = calloc(p->n + 1, 1);
        if (!chosen || !g_used || !p_used) {
            abort();
        }
        for (size_t k = 0; k < m.general.n; k++) {
            int64_t a = m.general.g[k], b = m.general.p[k];
            if (a < 0 || (size_t)a >= g->n || b < 0 || (size_t)b >= p->n || m.general.overlap[k] <= 0) {
                abort();
            }
            if (!g_used[a] && !p_used[b] && m.g_match[a] < 0 && m.p_match[b] < 0) {
                chosen[k] = g_used[a] = p_used[b] = 1;
            }
        }
        mc_count(&m, chosen);
        for (int mode = 0; mode < 4; mode++) {
            int64_t sum[2] = {0, 0};
            for (int field = 0; field < 8; field++) {
                for (size_t t = 0; t < n_types; t++) {
                    sum[field >= 4] += m.counts[(size_t)(mode * 8 + field) * n_types + t];
                }
            }
            if (sum[0] != (int64_t)g->n || sum[1] != (int64_t)p->n) {
                abort();
            }
        }
        for (size_t t = 0; t < n_types; t++) {
            if (m.hits[t] < 0) {
                abort();
            }
        }
        free(chosen);
        free(g_used);
        free(p_used);
    }
    mc_free(&m);
    free(label);
    free(rank);
    free(names);
    free(lens);
}

int LLVMFuzzerTestOneInput(const uint8_t *data, size_t size) {
    if (size < 1) {
        return 0;
    }
    int format = data[0] & 1, units = (data[0] >> 1) & 3, lines = (data[0] >> 3) & 7;
    if (units > NS_UNITS_TOKEN) {
        units = NS_UNITS_AUTO;
    }
    data++;
    size--;
    ns_state whole, pieces;
    read_all(&whole, format, units, data, size, 0);
    read_all(&pieces, format, units, data, size, (size_t)lines + 1);
    if (whole.status != pieces.status || (whole.status == NS_OK && whole.sides != pieces.sides)) {
        abort();
    }
    if (whole.status == NS_OK) {
        for (int k = 0; k < whole.sides; k++) {
            if (!same_side(&whole.side[k], &pieces.side[k])) {
                abort();
            }
            check_side(&whole.side[k]);
        }
        if (whole.sides > 0) {
            match(&whole, !(data[-1] & 0x40));
        }
    }
    ns_free(&whole);
    ns_free(&pieces);
    return 0;
}
