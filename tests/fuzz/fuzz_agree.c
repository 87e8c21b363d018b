// seeds: tests/fuzz/seeds/agree/*
/* Fuzz target: the multi-column CoNLL core of csrc/agree.c (nerve agree's compiled reader).
 *
 * Each input is scanned whole (ag_scan), and again field by field (without ag_repeat): both must
 * read the same. Where the core reads it, what it returns must hold together: documents' first
 * tokens in order and ending at the token count, the first token starting a sentence, each word
 * within the input, each tag id below its column's distinct tags and each distinct tag within the
 * input. Each column is then decoded (ag_decode_from) with kinds
 * and types taken from the tags' bytes: the entities must lie within their documents, in order
 * and not overlapping, the transitions must number the tokens plus the sentences, and decoding in
 * two parts gives one pass. Last the token counts (ag_tally, against the token-by-token reference
 * ag_paint and ag_count; ag_exact): each document's labels number its tokens times the columns,
 * each pair's label pairs number the tokens, and exact matches never exceed either side.
 * A broken property aborts, so libFuzzer keeps the input.
 */
#include "agree.c"

static void check_scan(const ag_scan_t *s, size_t size) {
    if (s->n_tokens == 0 || s->n_docs == 0 || s->doc_start[0] != 0 || s->sentence[0] != 1) abort();
    if ((size_t)s->doc_start[s->n_docs] != s->n_tokens) abort();
    for (size_t d = 0; d < s->n_docs; d++) {
        if (s->doc_start[d] > s->doc_start[d + 1]) abort();
    }
    for (size_t t = 0; t < s->n_tokens; t++) {
        if (s->word_start[t] < 0 || (size_t)s->word_start[t] >= size) abort();
    }
    for (int c = 0; c < s->width - 1; c++) {
        const ag_column *col = &s->col[c];
        for (size_t t = 0; t < s->n_tokens; t++) {
            if ((size_t)col->ids[t] >= col->n) abort();
        }
        for (size_t k = 0; k < col->n; k++) {
            if (col->keys[k].offset < 0 || (size_t)(col->keys[k].offset + col->keys[k].len) > size) abort();
        }
    }
}

/* Kinds and types from the tags' bytes: the first byte picks the kind, the last the type. */
static void tables(const ag_column *col, const uint8_t *data, int8_t *kind, int32_t *type) {
    for (size_t k = 0; k < col->n; k++) {
        const uint8_t *p = data + col->keys[k].offset;
        size_t n = (size_t)col->keys[k].len;
        kind[k] = (int8_t)(n ? p[0] % 5 : 0);
        type[k] = kind[k] == 0 ? -1 : (int32_t)(p[n - 1] % 3);
    }
}

static void check_spans(const ag_spans *o, const ag_scan_t *s) {
    for (size_t e = 0; e < o->n; e++) {
        int64_t d = o->doc[e];
        if (d < 0 || (size_t)d >= s->n_docs || o->start[e] < 0 || o->end[e] <= o->start[e]) abort();
        if (o->end[e] > s->doc_start[d + 1] - s->doc_start[d] || o->label[e] < 0 || o->label[e] > 2) abort();
        if (e && (d < o->doc[e - 1] || (d == o->doc[e - 1] && o->start[e] < o->end[e - 1]))) abort();
    }
}

/* The reference for ag_tally: every token's labels painted in one array, then counted token by
 * token (what agree_tokens did before it counted a document at a time). */
/* Each annotator's label of each token (type + 1 of the entity covering it, 0 where none): the
 * entities are flat. -1 when an entity lies outside its document. */
static int ag_paint(const ag_side *a, const int64_t *doc_start, size_t n_docs, int64_t k, uint16_t *out) {
    for (size_t e = 0; e < a->n; e++) {
        int64_t d = a->doc[e], lo = a->start[e], hi = a->end[e], y = a->label[e];
        if (d < 0 || (size_t)d >= n_docs || lo < 0 || hi < lo || hi > doc_start[d + 1] - doc_start[d] || y < 0 ||
            y + 1 >= k) {
            return -1;
        }
        for (int64_t t = doc_start[d] + lo; t < doc_start[d] + hi; t++) out[t] = (uint16_t)(y + 1);
    }
    return 0;
}

/* Per pair (i < j) the k x k label-pair counts, and per document the pairs of equal labels
 * (sum over tokens of sum_c n_c (n_c - 1)) and the labels given (n_c). */
static void ag_count(const uint16_t *lab, int m, size_t n, const int64_t *doc_start, size_t n_docs, int64_t k,
                     int64_t *pairs, int64_t *same, int64_t *by_label) {
    size_t np = (size_t)m * (size_t)(m - 1) / 2, kk = (size_t)(k * k);
    for (size_t d = 0; d < n_docs; d++) {
        int64_t quiet = 0; /* tokens of the document that no annotator labels */
        int64_t *mine = by_label + d * (size_t)k;
        for (size_t t = (size_t)doc_start[d]; t < (size_t)doc_start[d + 1]; t++) {
            uint16_t l[64];
            int any = 0;
            for (int a = 0; a < m; a++) any |= (l[a] = lab[(size_t)a * n + t]);
            if (!any) {
                quiet++;
                continue;
            }
            size_t p = 0;
            for (int a = 0; a < m; a++) {
                mine[l[a]]++;
                for (int b = a + 1; b < m; b++, p++) {
                    pairs[p * kk + (size_t)l[a] * (size_t)k + l[b]]++;
                    same[d] += 2 * (l[a] == l[b]);
                }
            }
        }
        same[d] += quiet * m * (m - 1);
        mine[0] += quiet * m;
        for (size_t p = 0; p < np; p++) pairs[p * kk] += quiet;
    }
}

static void check_counts(const ag_side *side, int m, const ag_scan_t *s) {
    const int64_t k = 4;
    size_t n = s->n_tokens, np = (size_t)(m * (m - 1) / 2);
    uint16_t *lab = calloc((size_t)m * n + 1, sizeof *lab);
    int64_t *pairs = calloc(np * 16 + 1, 8), *same = calloc(s->n_docs + 1, 8);
    int64_t *by_label = calloc(s->n_docs * 4 + 1, 8), *exact = calloc(3 * s->n_docs + 1, 8), *hits = calloc(4, 8);
    uint8_t *both_a = calloc(side[0].n + 1, 1), *both_b = calloc(side[1].n + 1, 1);
    if (!lab || !pairs || !same || !by_label || !exact || !hits || !both_a || !both_b) abort();
    for (int a = 0; a < m; a++) {
        if (ag_paint(&side[a], s->doc_start, s->n_docs, k, lab + (size_t)a * n) < 0) abort();
    }
    ag_count(lab, m, n, s->doc_start, s->n_docs, k, pairs, same, by_label);
    int64_t *pairs2 = calloc(np * 16 + 1, 8), *same2 = calloc(s->n_docs + 1, 8);
    int64_t *by_label2 = calloc(s->n_docs * 4 + 1, 8);
    if (!pairs2 || !same2 || !by_label2 || ag_tally(side, m, s->doc_start, s->n_docs, k, pairs2, same2, by_label2) != 0) {
        abort();
    }
    if (memcmp(pairs, pairs2, np * 16 * 8) != 0 || memcmp(same, same2, s->n_docs * 8) != 0 ||
        memcmp(by_label, by_label2, s->n_docs * 4 * 8) != 0) {
        abort(); /* a document at a time counts what token by token counts */
    }
    free(pairs2);
    free(same2);
    free(by_label2);
    for (size_t d = 0; d < s->n_docs; d++) {
        int64_t given = 0;
        for (int c = 0; c < k; c++) given += by_label[d * 4 + (size_t)c];
        if (given != m * (s->doc_start[d + 1] - s->doc_start[d])) abort();
    }
    for (size_t p = 0; p < np; p++) {
        int64_t total = 0;
        for (int c = 0; c < 16; c++) total += pairs[p * 16 + (size_t)c];
        if (total != (int64_t)n) abort();
    }
    ag_exact(&side[0], &side[1], side[0].label, side[1].label, exact, both_a, both_b, hits);
    int64_t tp = 0, matched = 0;
    for (size_t d = 0; d < s->n_docs; d++) {
        if (exact[3 * d] < 0 || exact[3 * d + 1] < 0 || exact[3 * d + 2] < 0) abort();
        tp += exact[3 * d];
    }
    for (size_t e = 0; e < side[1].n; e++) matched += both_b[e];
    if (tp != hits[0] + hits[1] + hits[2] + hits[3] || tp != matched) abort();
    free(lab);
    free(pairs);
    free(same);
    free(by_label);
    free(exact);
    free(hits);
    free(both_a);
    free(both_b);
}

/* Decoded in two parts cut at the last sentence start (as a file scanned in two halves is), the
 * column gives what one pass gave. */
static void check_parts(const ag_column *col, const int8_t *kind, const int32_t *type, const ag_scan_t *s,
                        const int64_t *codes, const ag_spans *whole) {
    size_t cut = s->n_tokens;
    while (cut > 0 && !s->sentence[cut - 1]) cut--;
    if (cut > 0) cut--; /* the last sentence's first token */
    int64_t two[50] = {0};
    ag_spans out;
    memset(&out, 0, sizeof out);
    if (ag_decode_from(col->ids, cut, kind, type, s->sentence, s->doc_start, s->n_docs, two, &out, 0) < 0 ||
        ag_decode_from(col->ids + cut, s->n_tokens - cut, kind, type, s->sentence + cut, s->doc_start, s->n_docs, two,
                       &out, cut) < 0) {
        abort();
    }
    if (memcmp(two, codes, sizeof two) != 0 || out.n != whole->n) abort();
    for (size_t e = 0; e < out.n; e++) {
        if (out.doc[e] != whole->doc[e] || out.start[e] != whole->start[e] || out.end[e] != whole->end[e] ||
            out.label[e] != whole->label[e]) {
            abort();
        }
    }
    free(out.doc);
    free(out.start);
    free(out.end);
    free(out.label);
}

/* The scan with lines that repeat the last read at once (ag_repeat) is the scan field by field. */
static void check_repeats(const uint8_t *data, size_t size, const ag_scan_t *s, int got) {
    ag_scan_t f;
    ag_repeat_lines = 0;
    int slow = ag_scan(data, size, &f);
    ag_repeat_lines = 1;
    if ((got < 0) != (slow < 0)) abort();
    if (got == 0) {
        size_t n = s->n_tokens;
        if (f.n_tokens != n || f.n_docs != s->n_docs || f.width != s->width || f.leading != s->leading ||
            f.before != s->before || memcmp(f.doc_start, s->doc_start, (s->n_docs + 1) * 8) != 0 ||
            memcmp(f.word_start, s->word_start, n * 8) != 0 || memcmp(f.sentence, s->sentence, n) != 0) {
            abort();
        }
        for (int c = 0; c < s->width - 1; c++) {
            const ag_column *a = &s->col[c], *b = &f.col[c];
            if (a->n != b->n || memcmp(a->ids, b->ids, n * 2) != 0) abort();
            for (size_t k = 0; k < a->n; k++) {
                if (a->keys[k].len != b->keys[k].len ||
                    memcmp(data + a->keys[k].offset, data + b->keys[k].offset, (size_t)a->keys[k].len) != 0) {
                    abort();
                }
            }
        }
    }
    ag_scan_free(&f);
}

int LLVMFuzzerTestOneInput(const uint8_t *data, size_t size) {
    ag_scan_t s;
    int got = ag_scan(data, size, &s);
    check_repeats(data, size, &s, got);
    if (got < 0) {
        ag_scan_free(&s);
        return 0;
    }
    check_scan(&s, size);
    int m = s.width - 1;
    ag_spans out[64];
    ag_side side[64];
    memset(out, 0, sizeof out);
    for (int c = 0; c < m; c++) {
        const ag_column *col = &s.col[c];
        int8_t *kind = malloc(col->n + 1);
        int32_t *type = malloc(col->n * 4 + 4);
        int64_t codes[50] = {0}, total = 0;
        if (!kind || !type) abort();
        tables(col, data, kind, type);
        if (ag_decode_from(col->ids, s.n_tokens, kind, type, s.sentence, s.doc_start, s.n_docs, codes, &out[c], 0) < 0) {
            abort();
        }
        check_parts(col, kind, type, &s, codes, &out[c]);
        size_t sentences = 0;
        for (size_t t = 0; t < s.n_tokens; t++) sentences += s.sentence[t];
        for (int i = 0; i < 50; i++) total += codes[i];
        if (total != (int64_t)(s.n_tokens + sentences)) abort();
        check_spans(&out[c], &s);
        side[c] = (ag_side){out[c].doc, out[c].start, out[c].end, out[c].label, out[c].n};
        free(kind);
        free(type);
    }
    check_counts(side, m, &s);
    for (int c = 0; c < m; c++) {
        free(out[c].doc);
        free(out[c].start);
        free(out[c].end);
        free(out[c].label);
    }
    ag_scan_free(&s);
    return 0;
}
