/* The pure-C core of the CoNLL column counter (csrc/conll.c): no Python API, so a fuzz target can drive it.
 *
 * One state reads one merged file, or a gold and a prediction file in lockstep, line by line, and
 * counts what `nerve.score` needs: exact chunk counts per type (begin and discard decoding, or
 * conlleval.pl's state machine), transitions by pair code, tokens, sentences and documents. It
 * handles the common input and stops (NC_HANDOVER) on anything else: the caller then reads the input
 * with the numpy engine, which gives the result or its own error.
 *
 * Use: nc_new, then per file pair nc_start; loop on nc_run: NC_NEED_GOLD/NC_NEED_PRED ask for
 * nc_feed (len 0: the end of that file); NC_FILE_DONE ends the pair; nc_free at the end.
 */
#ifndef NERVE_CONLL_H
#define NERVE_CONLL_H

#include <stddef.h>

#define NC_CODES 50
#define NC_NEED_GOLD 1
#define NC_NEED_PRED 2
#define NC_FILE_DONE 3
#define NC_HANDOVER 4
#define NC_NO_MEMORY 5

/* What a tag is: the caller's id for it (one per distinct tag, the outside tag 0), its kind (0
 * outside, 1 begin, 2 inside, 3 end, 4 single), its type id (-1 outside), and conlleval.pl's code
 * (0 O, 1 B, 2 I, 3 E, 7 other) and type (0: none). */
typedef struct {
    int vid, kind, type, pcode, ptype;
} nc_tag;

/* Resolves a new tag; returns 0, or anything else when the tag does not fit (then: handover). */
typedef int (*nc_resolve_fn)(void *ctx, const char *tag, size_t len, nc_tag *out);

typedef struct {
    int comments;         /* '#' lines are comments */
    int check_tokens;     /* gold and prediction tokens must agree */
    int policy;           /* 0 begin, 1 discard, 2 error (counted as begin), 3 conlleval */
    unsigned char bad_start[NC_CODES], bad_end[NC_CODES]; /* discard's tables, by pair code */
    nc_resolve_fn resolve;
    void *ctx;
} nc_options;

typedef struct nc_state nc_state;

typedef struct {
    long long tokens, correct, sentences, documents, docs_unpaired;
    long long codes[2][NC_CODES];
    size_t n_types; /* gold, pred, matched by type id; perl_* by conlleval.pl type */
    long long *gold, *pred, *matched;
    size_t n_ptypes;
    long long *perl_gold, *perl_pred, *perl_correct;
    size_t n_vids;
    long long *used[2]; /* occurrences of each tag id on each side, sentence ends as the outside tag */
} nc_totals;

nc_state *nc_new(const nc_options *options);
/* A new file pair (paired: a gold and a prediction file; else one merged file); delimiters per
 * file: -1 runs of spaces and tabs, else the byte each occurrence of which separates columns. */
void nc_start(nc_state *s, int paired, int gold_delimiter, int pred_delimiter);
int nc_feed(nc_state *s, int side, const char *data, size_t len);
int nc_run(nc_state *s);
const nc_totals *nc_finish(nc_state *s);
const char *nc_reason(const nc_state *s);
void nc_free(nc_state *s);
/* Whether a file's first bytes are tab-separated (nerve.io.tags.delimiters); -1: no memory. */
int nc_sniff_tab(const char *data, size_t len);

#endif
