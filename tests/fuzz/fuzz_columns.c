// seeds: tests/data/formats/hipe/*.tsv tests/data/formats/conllu/*.conllu tests/fuzz/seeds/columns/*
/* Fuzz target: the tag-column core of csrc/columns.c (the lines of HIPE and CoNLL-U files, their
 * cells, and the interning of cells).
 *
 * Each input is read in both modes twice: whole, and in blocks whose size its first byte picks.
 * Both reads must find the same lines (where a block ends changes nothing), each within the input.
 * Then each cell of each line is found from the line's end (cell_from_end) and must lie within the
 * line; the lines and the cells are interned (intern_core), and equal ids must mean equal bytes and
 * first occurrences. Last, the core's own entry point, cols_fuzz_one, reads it in growing blocks.
 * A broken property aborts, so libFuzzer keeps the input.
 */
#include "columns.c"

static void read_blocks(cols_state *st, int mode, const uint8_t *data, size_t size, size_t block) {
    cols_init(st, mode);
    for (size_t at = 0; at < size; at += block) {
        cols_feed(st, data + at, size - at < block ? size - at : block);
    }
    cols_finish(st);
}

static void same_lines(const cols_state *a, const cols_state *b, size_t size) {
    if (a->stop != b->stop || (!a->stop && a->n != b->n)) {
        abort();
    }
    for (size_t i = 0; !a->stop && i < a->n; i++) {
        if (a->start[i] != b->start[i] || a->end[i] != b->end[i] || a->kind[i] != b->kind[i] ||
            a->width[i] != b->width[i] || a->start[i] > a->end[i] || a->end[i] > (int64_t)size) {
            abort();
        }
    }
}

static void check_intern(const char *data, const int64_t *start, const int64_t *end, size_t n) {
    int64_t *ids = malloc(n * sizeof *ids + 1);
    size_t *first = malloc(n * sizeof *first + 1);
    if (ids == NULL || first == NULL) {
        abort();
    }
    size_t distinct = intern_core(data, start, end, n, ids, first), next = 0;
    for (size_t i = 0; distinct != (size_t)-1 && i < n; i++) {
        if (ids[i] < 0 || (size_t)ids[i] >= distinct) {
            abort();
        }
        size_t j = first[ids[i]], len = (size_t)(end[i] - start[i]);
        if (j == i ? (size_t)ids[i] != next++ : (j > i || (size_t)ids[i] >= next)) {
            abort(); /* ids in the order first met, first[] each one's first occurrence */
        }
        if ((size_t)(end[j] - start[j]) != len || memcmp(data + start[i], data + start[j], len) != 0) {
            abort(); /* one id, other bytes */
        }
    }
    if (distinct != (size_t)-1 && distinct != next) {
        abort();
    }
    free(ids);
    free(first);
}

static void check_cells(const char *data, const cols_state *st) {
    size_t n = 0;
    for (size_t i = 0; i < st->n; i++) {
        n += st->width[i] > 0 ? (size_t)st->width[i] : 0;
    }
    int64_t *start = malloc(n * sizeof *start + 1), *end = malloc(n * sizeof *end + 1);
    if (start == NULL || end == NULL) {
        abort();
    }
    size_t c = 0;
    for (size_t i = 0; i < st->n; i++) {
        for (int back = 0; back < st->width[i]; back++, c++) {
            cell_from_end(data, st->start[i], st->end[i], back, start + c, end + c);
            if (start[c] < st->start[i] || start[c] > end[c] || end[c] > st->end[i]) {
                abort();
            }
        }
    }
    check_intern(data, start, end, c);
    check_intern(data, st->start, st->end, st->n);
    free(start);
    free(end);
}

int LLVMFuzzerTestOneInput(const uint8_t *data, size_t size) {
    size_t block = size > 0 ? (size_t)data[0] % 17 + 1 : 1;
    for (int mode = COLS_HIPE; mode <= COLS_CONLLU; mode++) {
        cols_state whole, pieces;
        read_blocks(&whole, mode, data, size, size > 0 ? size : 1);
        read_blocks(&pieces, mode, data, size, block);
        same_lines(&whole, &pieces, size);
        if (!whole.stop) {
            check_cells((const char *)data, &whole);
        }
        cols_free(&whole);
        cols_free(&pieces);
    }
    cols_fuzz_one(data, size);
    return 0;
}
