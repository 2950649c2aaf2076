/* searcher.c — the Searcher's life cycle: options, the TT and per-thread
 * state, the background search thread, stop/ponderhit/wait, probe, stats. */
#define _POSIX_C_SOURCE 200809L

#include <stdlib.h>
#include <string.h>

#include "search_internal.h"

void search_limits_init(SearchLimits *l) { memset(l, 0, sizeof *l); }

void search_options_init(SearchOptions *o)
{
    memset(o, 0, sizeof *o);
    o->hash_mb = 16;
    o->threads = 1;
    o->multipv = 1;
    o->move_overhead_ms = 30;
    o->null_move = true;
    o->pruning = 3;
    o->knowledge = 3;
    o->randomness = 0;
    o->random_seed = 0;
    o->skill = SKILL_MAX;
#define SEARCH_TUNE_DEFAULT(name, lo, hi) o->tune[TUNE_##name] = (name);
    SEARCH_TUNABLES(SEARCH_TUNE_DEFAULT)
#undef SEARCH_TUNE_DEFAULT
}

_Static_assert((int)TUNE_NB <= (int)SEARCH_TUNE_MAX, "SearchOptions.tune must hold every tunable");

int search_tunables(const SearchTunable **list)
{
#define SEARCH_TUNE_ENTRY(name, lo, hi) {#name, (lo), (hi)},
    static const SearchTunable all[TUNE_NB] = {SEARCH_TUNABLES(SEARCH_TUNE_ENTRY)};
#undef SEARCH_TUNE_ENTRY
    *list = all;
#ifdef CHARIOT_SPSA
    return TUNE_NB;
#else
    return 0;
#endif
}

int search_skill_for_elo(int elo)
{
    static const int table[][2] = SKILL_ELO_TABLE;
    int best = SKILL_MAX, best_gap = -1;
    for (size_t i = 0; i < sizeof table / sizeof table[0]; i++) {
        int gap = elo > table[i][1] ? elo - table[i][1] : table[i][1] - elo;
        if (best_gap < 0 || gap < best_gap) {
            best = table[i][0];
            best_gap = gap;
        }
    }
    return best;
}

/* log2(x) in 1/256 units, integers only, so that every compiler and build
 * type fills the LMR table identically (bench must not depend on them). */
static int log2_fixed(unsigned x)
{
    int ip = 0;
    while ((x >> ip) > 1)
        ip++;
    uint64_t y = ((uint64_t)x << 16) >> ip; /* x / 2^ip in [1, 2), 16 fraction bits */
    int frac = 0;
    for (int i = 0; i < 8; i++) {
        y = (y * y) >> 16;
        frac <<= 1;
        if (y >= (2u << 16)) {
            y >>= 1;
            frac |= 1;
        }
    }
    return ip * 256 + frac;
}

static void init_lmr(Searcher *s)
{
    for (int d = 0; d < 64; d++)
        for (int m = 0; m < 64; m++) {
            if (d == 0 || m == 0) {
                s->lmr[d][m] = 0;
                continue;
            }
            /* ln = log2 * 0.6931 (177/256); reduction in hundredths of a ply. */
            int64_t ld = (int64_t)log2_fixed((unsigned)d) * 177 / 256;
            int64_t lm = (int64_t)log2_fixed((unsigned)m) * 177 / 256;
            int64_t r = TUNED(s, LMR_BASE) + ld * lm * 100 * 100 / (256 * 256) / TUNED(s, LMR_DIV);
            s->lmr[d][m] = (int)(r / 100);
        }
}

static void free_threads(SearchThread **th, int n)
{
    if (!th)
        return;
    for (int i = 0; i < n; i++)
        free(th[i]);
    free(th);
}

static SearchThread **alloc_threads(Searcher *s, int n)
{
    SearchThread **th = calloc((size_t)n, sizeof *th);
    if (!th)
        return NULL;
    for (int i = 0; i < n; i++) {
        th[i] = calloc(1, sizeof(SearchThread));
        if (!th[i]) {
            free_threads(th, i);
            return NULL;
        }
        th[i]->s = s;
        th[i]->id = i;
    }
    return th;
}

Searcher *searcher_new(void)
{
    Searcher *s = calloc(1, sizeof *s);
    if (!s)
        return NULL;
    search_options_init(&s->opt);
    if (!tt_init(&s->tt, s->opt.hash_mb)) {
        free(s);
        return NULL;
    }
    s->threads = alloc_threads(s, s->opt.threads);
    s->egtb = egtb_new(&s->stop); /* a stop need not wait for a table build */
    if (!s->threads || !s->egtb) {
        free_threads(s->threads, s->opt.threads);
        egtb_free(s->egtb);
        tt_free(&s->tt);
        free(s);
        return NULL;
    }
    s->nthreads = s->opt.threads;
    init_lmr(s);
    atomic_init(&s->stop, false);
    atomic_init(&s->helper_mate, false);
    atomic_init(&s->pondering, false);
    atomic_init(&s->running, false);
    atomic_init(&s->clock_start_ms, 0);
    pthread_mutex_init(&s->lock, NULL);
    pthread_mutex_init(&s->report_lock, NULL);
    atomic_init(&s->helper_proof_moves, 0);
    pthread_cond_init(&s->done_cond, NULL);
    return s;
}

void searcher_free(Searcher *s)
{
    if (!s)
        return;
    searcher_stop(s);
    searcher_wait(s);
    free_threads(s->threads, s->nthreads);
    egtb_free(s->egtb);
    tt_free(&s->tt);
    pthread_mutex_destroy(&s->lock);
    pthread_mutex_destroy(&s->report_lock);
    pthread_cond_destroy(&s->done_cond);
    free(s);
}

bool searcher_set_options(Searcher *s, const SearchOptions *o)
{
    if (o->hash_mb < 1 || o->hash_mb > 65536 || o->threads < 1 || o->threads > 256 || o->multipv < 1 ||
        o->multipv > MAX_MULTIPV || o->move_overhead_ms < 0 || o->move_overhead_ms > 5000 || o->pruning < 0 ||
        o->pruning > 3 || o->knowledge < 0 || o->knowledge > 3 || o->randomness < 0 || o->randomness > 3 ||
        o->skill < 0 || o->skill > SKILL_MAX)
        return false;
    const SearchTunable *tunables;
    const int ntune = search_tunables(&tunables);
    for (int i = 0; i < ntune; i++)
        if (o->tune[i] < tunables[i].min || o->tune[i] > tunables[i].max)
            return false;
    if (atomic_load(&s->running))
        return false;
    TT tt = s->tt;
    bool new_tt = o->hash_mb != s->opt.hash_mb;
    if (new_tt && !tt_init(&tt, o->hash_mb))
        return false;
    if (o->threads != s->nthreads) {
        SearchThread **th = alloc_threads(s, o->threads);
        if (!th) {
            if (new_tt)
                tt_free(&tt);
            return false;
        }
        /* Learned tables move with the threads that exist in both sets. */
        for (int i = 0; i < o->threads && i < s->nthreads; i++) {
            th[i]->tables = s->threads[i]->tables;
        }
        free_threads(s->threads, s->nthreads);
        s->threads = th;
        s->nthreads = o->threads;
    }
    if (new_tt) {
        tt_free(&s->tt);
        s->tt = tt;
    } else if (o->knowledge != s->opt.knowledge) {
        tt_clear(&s->tt); /* cached static evals depend on the knowledge level */
    }
    /* The LMR table's constants are tunables in an SPSA build. */
    const bool new_lmr =
        o->tune[TUNE_LMR_BASE] != s->opt.tune[TUNE_LMR_BASE] || o->tune[TUNE_LMR_DIV] != s->opt.tune[TUNE_LMR_DIV];
    s->opt = *o;
    if (new_lmr)
        init_lmr(s);
    return true;
}

const SearchOptions *searcher_options(const Searcher *s) { return &s->opt; }

void searcher_new_game(Searcher *s)
{
    searcher_stop(s);
    searcher_wait(s);
    tt_clear(&s->tt);
    for (int i = 0; i < s->nthreads; i++) {
        SearchThread *t = s->threads[i];
        memset(&t->tables, 0, sizeof t->tables);
        memset(t->stack, 0, sizeof t->stack);
    }
}

static void *bg_entry(void *arg)
{
    Searcher *s = arg;
    SearchResult r = search_execute(s);
    if (s->cb.on_bestmove)
        s->cb.on_bestmove(s->cb.ctx, &r);
    pthread_mutex_lock(&s->lock);
    s->bg_done = true;
    atomic_store(&s->running, false);
    pthread_cond_broadcast(&s->done_cond);
    pthread_mutex_unlock(&s->lock);
    return NULL;
}

void searcher_start(Searcher *s, const Board *b, const SearchLimits *l, const SearchCallbacks *cb)
{
    /* One search at a time: a new start ends the previous one first. */
    searcher_stop(s);
    searcher_wait(s);
    search_prepare(s, b, l, cb);
    atomic_store(&s->running, true);

    pthread_attr_t attr;
    pthread_attr_init(&attr);
    pthread_attr_setstacksize(&attr, 8u << 20);
    pthread_mutex_lock(&s->lock);
    s->bg_done = false;
    s->bg_active = pthread_create(&s->bg, &attr, bg_entry, s) == 0;
    pthread_mutex_unlock(&s->lock);
    pthread_attr_destroy(&attr);
    if (!s->bg_active) {
        /* No thread available: search here rather than never answering. */
        SearchResult r = search_execute(s);
        if (s->cb.on_bestmove)
            s->cb.on_bestmove(s->cb.ctx, &r);
        atomic_store(&s->running, false);
    }
}

SearchResult searcher_run(Searcher *s, const Board *b, const SearchLimits *l, const SearchCallbacks *cb)
{
    searcher_stop(s);
    searcher_wait(s);
    search_prepare(s, b, l, cb);
    atomic_store(&s->running, true);
    SearchResult r = search_execute(s);
    if (s->cb.on_bestmove)
        s->cb.on_bestmove(s->cb.ctx, &r);
    atomic_store(&s->running, false);
    return r;
}

void searcher_stop(Searcher *s) { atomic_store(&s->stop, true); }

void searcher_ponderhit(Searcher *s)
{
    /* Only a pondering search restarts its clock; a stray ponderhit must not
     * hand a normal search more time. */
    if (atomic_load(&s->pondering)) {
        atomic_store(&s->clock_start_ms, tm_now_ms());
        atomic_store(&s->pondering, false);
    }
}

void searcher_wait(Searcher *s)
{
    pthread_mutex_lock(&s->lock);
    if (!s->bg_active || pthread_equal(pthread_self(), s->bg)) {
        pthread_mutex_unlock(&s->lock);
        return;
    }
    while (!s->bg_done)
        pthread_cond_wait(&s->done_cond, &s->lock);
    pthread_t th = s->bg;
    s->bg_active = false;
    pthread_mutex_unlock(&s->lock);
    pthread_join(th, NULL);
}

bool searcher_is_running(const Searcher *s) { return atomic_load(&s->running); }

bool searcher_probe(Searcher *s, const Board *b, TTProbe *out)
{
    TTEntry te;
    if (!tt_probe(&s->tt, b->key, 0, &te) || te.bound == TT_BOUND_NONE)
        return false;
    out->move = te.move != MOVE_NONE && board_is_legal(b, te.move) ? te.move : MOVE_NONE;
    out->score = te.score;
    out->depth = te.depth;
    out->bound = te.bound == TT_BOUND_EXACT ? BOUND_EXACT : te.bound == TT_BOUND_LOWER ? BOUND_LOWER : BOUND_UPPER;
    return true;
}

SearchStats searcher_stats(const Searcher *s)
{
    SearchStats sum;
    memset(&sum, 0, sizeof sum);
    for (int i = 0; i < s->nthreads; i++) {
        const SearchStats *st = &s->threads[i]->stats;
        sum.null_tried += st->null_tried;
        sum.null_cutoffs += st->null_cutoffs;
        sum.null_verifications += st->null_verifications;
        sum.null_verify_failures += st->null_verify_failures;
        sum.null_mate_threats += st->null_mate_threats;
    }
    return sum;
}
