// seeds: 0007:examples/*.conll 2105:tests/data/formats/hipe/*.tsv tests/fuzz/seeds/conll/*
/* Fuzz target: the CoNLL column counter of csrc/conll.c (nc_new, nc_start, nc_feed / nc_run,
 * nc_finish; and nc_sniff_tab).
 *
 * An input is two header bytes, then the file(s). Byte 0 picks the options: comments, the check of
 * tokens, the repair policy (0-3), a merged file or a gold and prediction pair (the pair split at
 * the first 0xFF byte, which no UTF-8 file holds), and the delimiter (runs of spaces and tabs, a
 * tab, a space or ';'). Byte 1 picks the block size the reads are fed in, and discard's tables.
 * Tags resolve as the shared rule reads B-, I-, E-/L-, S-/U- and O (anything else hands over).
 *
 * The input is counted in blocks of that size and whole: both must agree on everything (status,
 * reason and every total: where a block ends changes nothing), and counts must stay within what
 * was read (correct <= tokens, matched <= gold and pred). A counter that reads it twice, as two
 * file pairs, must count twice the tokens. The scanners' chunk_mask must flag every byte that
 * matters, at every alignment. Build with -DNERVE_CONLL_SCAN=1/2/3 to fuzz another way of
 * finding those bytes (bytes, 8-byte words, SSE2; the default is the compiler's best).
 */
#define NERVE_CONLL_CORE_ONLY
#include <stdint.h>

#include "conll.c"

#define MAX_TAGS 64
#define MAX_TYPES 16

typedef struct {
    char tags[MAX_TAGS][32];
    size_t tag_len[MAX_TAGS];
    size_t n_tags;
    char types[MAX_TYPES][32];
    size_t type_len[MAX_TYPES];
    size_t n_types;
} resolver_t;

static int intern(char table[][32], size_t *lens, size_t *n, size_t max, const char *s, size_t len) {
    if (len >= 32) {
        return -1;
    }
    for (size_t i = 0; i < *n; i++) {
        if (lens[i] == len && memcmp(table[i], s, len) == 0) {
            return (int)i;
        }
    }
    if (*n == max) {
        return -1;
    }
    memcpy(table[*n], s, len);
    lens[*n] = len;
    return (int)(*n)++;
}

static int resolve(void *ctx, const char *tag, size_t len, nc_tag *out) {
    resolver_t *r = (resolver_t *)ctx;
    int vid = intern(r->tags, r->tag_len, &r->n_tags, MAX_TAGS, tag, len);
    if (vid < 0) {
        return 1;
    }
    out->vid = vid + 1; /* 0 is the outside tag's */
    if (len == 1 && tag[0] == 'O') {
        *out = (nc_tag){0, K_OUT, -1, P_O, 0};
        return 0;
    }
    if (len < 3 || tag[1] != '-') {
        return 1;
    }
    const char *kinds = "BIELSU";
    const char *k = memchr(kinds, tag[0], 6);
    int type = intern(r->types, r->type_len, &r->n_types, MAX_TYPES, tag + 2, len - 2);
    if (k == NULL || type < 0) {
        return 1;
    }
    static const int kind_of[] = {K_BEGIN, K_INSIDE, K_END, K_END, K_SINGLE, K_SINGLE};
    static const int pcode_of[] = {P_B, P_I, P_E, P_OTHER, P_OTHER, P_OTHER};
    out->kind = kind_of[k - kinds];
    out->pcode = pcode_of[k - kinds];
    out->type = type;
    out->ptype = type + 1;
    return 0;
}

typedef struct {
    int status;
    const char *reason;
    nc_totals t;
} outcome_t;

/* One file pair through the counter, fed in blocks of `block`. */
static int count(nc_state *s, const uint8_t *gold, size_t n_gold, const uint8_t *pred, size_t n_pred,
                 int paired, int delimiter, size_t block) {
    const uint8_t *data[2] = {gold, pred};
    size_t left[2] = {n_gold, n_pred};
    nc_start(s, paired, delimiter, delimiter);
    size_t rounds = (n_gold + n_pred) / block + 8;
    for (size_t round = 0; round < 4 * rounds + 64; round++) {
        int status = nc_run(s);
        if (status != NC_NEED_GOLD && status != NC_NEED_PRED) {
            return status;
        }
        int side = status == NC_NEED_PRED;
        if (side && !paired) {
            abort(); /* a merged file has no prediction side */
        }
        size_t take = left[side] < block ? left[side] : block;
        if (nc_feed(s, side, (const char *)data[side], take) < 0) {
            return NC_NO_MEMORY;
        }
        data[side] += take;
        left[side] -= take;
    }
    abort(); /* the core keeps asking for input after the end of both files */
}

static void check(const nc_totals *t) {
    if (t->tokens < 0 || t->correct < 0 || t->correct > t->tokens || t->sentences < 0 || t->documents < 0) {
        abort();
    }
    for (size_t i = 0; i < t->n_types; i++) {
        if (t->matched[i] < 0 || t->matched[i] > t->gold[i] || t->matched[i] > t->pred[i]) {
            abort();
        }
    }
    for (size_t i = 0; i < t->n_ptypes; i++) {
        if (t->perl_correct[i] > t->perl_gold[i] || t->perl_correct[i] > t->perl_pred[i]) {
            abort();
        }
    }
}

/* chunk_mask flags every byte a line's scanner must see (it may flag more, never fewer), at every
 * alignment: a byte it missed would be read as a plain byte of a field. */
static void check_mask(const uint8_t *data, size_t size, int delimiter) {
    for (size_t i = 0; i + CHUNK <= size; i++) {
        unsigned m = chunk_mask(data + i, delimiter);
        for (unsigned b = 0; b < CHUNK; b++) {
            unsigned c = data[i + b];
            if ((c < 0x21 || c >= 0x80 || (int)c == delimiter) && !(m & (1u << b))) {
                abort();
            }
        }
    }
}

static int same(const long long *a, const long long *b, size_t n) { return n == 0 || memcmp(a, b, n * sizeof *a) == 0; }

/* The occurrences of each tag id: one array (`used`) or one a side (`used[2]`), as the core has it. */
static int same_used(const nc_totals *x, const nc_totals *y) {
    long long *a[2] = {NULL, NULL}, *b[2] = {NULL, NULL};
    memcpy(a, &x->used, sizeof x->used);
    memcpy(b, &y->used, sizeof y->used);
    for (size_t k = 0; k < sizeof x->used / sizeof(long long *); k++) {
        if (!same(a[k], b[k], x->n_vids)) {
            return 0;
        }
    }
    return 1;
}

static void agree(const outcome_t *a, const outcome_t *b) {
    if (a->status != b->status || strcmp(a->reason, b->reason) != 0) {
        abort();
    }
    if (a->status != NC_FILE_DONE) {
        return;
    }
    const nc_totals *x = &a->t, *y = &b->t;
    if (x->tokens != y->tokens || x->correct != y->correct || x->sentences != y->sentences ||
        x->documents != y->documents || x->docs_unpaired != y->docs_unpaired || x->n_types != y->n_types ||
        x->n_ptypes != y->n_ptypes || x->n_vids != y->n_vids || memcmp(x->codes, y->codes, sizeof x->codes) != 0 ||
        !same(x->gold, y->gold, x->n_types) || !same(x->pred, y->pred, x->n_types) ||
        !same(x->matched, y->matched, x->n_types) || !same(x->perl_gold, y->perl_gold, x->n_ptypes) ||
        !same(x->perl_pred, y->perl_pred, x->n_ptypes) || !same(x->perl_correct, y->perl_correct, x->n_ptypes) ||
        !same_used(x, y)) {
        abort();
    }
}

int LLVMFuzzerTestOneInput(const uint8_t *data, size_t size) {
    if (size < 2) {
        return 0;
    }
    nc_options o;
    memset(&o, 0, sizeof o);
    uint8_t flags = data[0], sizes = data[1];
    o.comments = flags & 1;
    o.check_tokens = (flags >> 1) & 1;
    o.policy = (flags >> 2) & 3;
    int paired = (flags >> 4) & 1;
    static const int delimiters[] = {-1, '\t', ' ', ';'};
    int delimiter = delimiters[(flags >> 5) & 3];
    for (int i = 0; i < NC_CODES; i++) {
        o.bad_start[i] = (unsigned char)((sizes >> (i % 8)) & 1);
        o.bad_end[i] = (unsigned char)((sizes >> ((i + 3) % 8)) & 1);
    }
    size_t block = (size_t)(sizes % 23) + 1;
    data += 2;
    size -= 2;
    const uint8_t *cut = paired ? memchr(data, 0xFF, size) : NULL;
    size_t n_gold = cut ? (size_t)(cut - data) : size;
    const uint8_t *pred = cut ? cut + 1 : data + size;
    size_t n_pred = cut ? size - n_gold - 1 : 0;

    outcome_t out[2];
    resolver_t r[2];
    nc_state *s[2];
    for (int k = 0; k < 2; k++) {
        memset(&r[k], 0, sizeof r[k]);
        o.resolve = resolve;
        o.ctx = &r[k];
        s[k] = nc_new(&o);
        if (s[k] == NULL) {
            return 0;
        }
        out[k].status = count(s[k], data, n_gold, pred, n_pred, paired, delimiter, k == 0 ? block : size + 1);
        out[k].reason = nc_reason(s[k]);
        if (out[k].status == NC_FILE_DONE) {
            out[k].t = *nc_finish(s[k]);
            check(&out[k].t);
        }
    }
    agree(&out[0], &out[1]);
    nc_free(s[0]);
    nc_free(s[1]);
    if (out[1].status == NC_FILE_DONE) { /* twice as a file pair of one counter: twice the tokens */
        resolver_t again;
        memset(&again, 0, sizeof again);
        o.ctx = &again;
        nc_state *twice = nc_new(&o);
        if (twice == NULL) {
            return 0;
        }
        int first = count(twice, data, n_gold, pred, n_pred, paired, delimiter, size + 1);
        if (first == NC_FILE_DONE && count(twice, data, n_gold, pred, n_pred, paired, delimiter, size + 1) == NC_FILE_DONE) {
            const nc_totals *t = nc_finish(twice);
            check(t);
            if (t->tokens != 2 * out[1].t.tokens || t->correct != 2 * out[1].t.correct) {
                abort();
            }
        }
        nc_free(twice);
    }
    nc_sniff_tab((const char *)data, size);
    check_mask(data, size, delimiter);
    return 0;
}
