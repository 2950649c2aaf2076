/* mate.c — the mate prover behind "go mate N" and analysis: depth-first proof-number
 * search (df-pn) over a narrow attacking tree, with its own proof table.
 *
 * Move rules. The attacker (the side to move at the root) tries checking
 * moves, any evasion when in check, and a limited number of quiet moves per
 * line (none, then MATE_MAX_QUIET, in two passes); a quiet move starts with
 * a higher proof number so that df-pn turns to it only when the checks look
 * hard. The defender tries every legal reply. A side without a legal move is
 * mated (stalemate loses too).
 *
 * Repetitions. The tree is a game bounded to d plies, and the table keys a
 * position by (position, plies left, quiet budget), not by its path. The
 * attacker's moves ignore repetitions of the path: in the bounded game
 * without repetition rules, "mate within d plies" depends on the position
 * and d alone, and an attacker who always plays a move of shortest mate
 * distance makes that distance fall at every ply, so no position of his
 * line ever comes back (the natural limit only makes things worse for him,
 * so a later, equal position cannot have a shorter distance either). A
 * proof therefore holds under any repetition rule. Treating the path's
 * repetitions as escapes for the attacker's moves too would store
 * path-dependent disproofs in the table, which cost proofs elsewhere.
 * The defender's moves into a repetition (any verdict) still count as his
 * escapes: that only makes him stronger, so no false proof can come of it,
 * and it prunes lines where he shuffles. A position seen twice before the
 * root would be a third occurrence, which the rules judge: the natural limit
 * and such positions end the attack for either side's move.
 * Lines are bounded to 2N-1 plies; a proof is then tightened (re-proved with
 * a shorter bound) while the budget lasts, so the length reported is the
 * shortest the prover could certify. Only proofs are ever reported, and a
 * proof holds against every defence: disproofs may be incomplete (a
 * path-dependent escape stored in the table), which only costs proofs. */
#include <stdlib.h>
#include <string.h>

#include "search_internal.h"

/* Proof and disproof numbers: PN_INF is "proven/disproven", sums saturate
 * just below it. */
#define PN_INF 100000000u

/* One table entry: the df-pn numbers of a position for a given number of
 * plies left and quiet-move budget (both are folded into the key). 20 bytes,
 * so that a bucket of MATE_BUCKET_ENTRIES is one 64-byte cache line: a probe
 * costs one miss at most, and the expansion's prefetch covers all of it. */
typedef struct PnEntry {
    uint32_t key_lo, key_hi; /* the whole 64-bit key: a false hit could fake a proof */
    uint32_t pn, dn;
    Move move;    /* attacker: the proving (or best) move; defender: an escape */
    uint8_t len;  /* when proven: mate in this many plies (0: mated here) */
    uint8_t work; /* bit length of the nodes spent below: the replacement priority */
} PnEntry;

enum { MATE_BUCKET_ENTRIES = 3 };

typedef struct PnBucket {
    PnEntry e[MATE_BUCKET_ENTRIES];
    uint32_t pad;
} PnBucket;

_Static_assert(sizeof(PnBucket) == 64, "a prover bucket must fill one cache line");

/* A child of the node being expanded, with its table key and the numbers
 * it starts with when the table knows nothing of it. */
typedef struct PnChild {
    Move move;
    uint8_t q;      /* quiet-move budget left below */
    uint8_t cached; /* pn, dn and len below hold the child's current numbers */
    uint64_t key;
    uint32_t pn0, dn0;
    uint32_t pn, dn;
    int len;
} PnChild;

typedef struct PnProver {
    Searcher *s;
    Board *b;
    int root_ply;
    int attacker;
    bool r60_in_key;      /* the natural limit can fall inside the tree */
    PnBucket *table;
    uint64_t mask;        /* bucket count - 1 */
    /* Keys seen at least twice before the root since the last capture: a
     * third occurrence, which the rules judge (at most one in two of the
     * BOARD_RULE60_PLIES positions of a window can be one). */
    uint64_t prerep[BOARD_RULE60_PLIES / 2 + 1];
    int prerep_count;
    PnChild *kids;        /* MAX_MOVES children per recursion level */
    int levels;
    const Move *only;     /* root move list */
    int only_count;
    uint64_t nodes;
    uint64_t max_nodes;   /* 0: none */
    uint64_t run_limit;   /* node cap of the current run, 0: none */
    bool timed;
    bool wall;            /* the budget holds while pondering too (a turn of analysis) */
    int64_t budget_ms;
    bool stopped;         /* the whole prover must stop */
    bool run_stopped;     /* this run hit its own cap */
} PnProver;

/* ------------------------------------------------------------- helpers */

/* Counts a node; checks the stop flag every node and the clock and the node
 * budget every MATE_CHECK_NODES nodes. */
static bool pn_tick(PnProver *p)
{
    p->nodes++;
    if (p->stopped || p->run_stopped)
        return true;
    if (atomic_load_explicit(&p->s->stop, memory_order_relaxed) ||
        atomic_load_explicit(&p->s->helper_mate, memory_order_relaxed)) {
        p->stopped = true;
        return true;
    }
    /* Node caps are exact (a node budget must hold); the clock is read
     * only now and then. */
    if (p->max_nodes && p->nodes >= p->max_nodes)
        p->stopped = true;
    if (p->run_limit && p->nodes >= p->run_limit)
        p->run_stopped = true;
    if ((p->nodes & (MATE_CHECK_NODES - 1)) == 0) {
        if (p->timed && (p->wall || !atomic_load_explicit(&p->s->pondering, memory_order_relaxed))) {
            int64_t elapsed = tm_now_ms() - atomic_load_explicit(&p->s->clock_start_ms, memory_order_relaxed);
            if (elapsed >= p->budget_ms)
                p->stopped = true;
        }
    }
    return p->stopped || p->run_stopped;
}

/* Table key of the current position with d plies left and quiet budget q:
 * results for different bounds are different facts. */
static uint64_t pn_key_of(const PnProver *p, uint64_t board_key, int r60, int d, int q)
{
    uint64_t k = board_key ^ ((uint64_t)(d + 1) * 0x9E3779B97F4A7C15ull) ^ ((uint64_t)(q + 1) * 0xC2B2AE3D27D4EB4Full);
    if (p->r60_in_key)
        k ^= (uint64_t)(r60 + 1) * 0x165667B19E3779F9ull;
    return k;
}

static uint64_t pn_key(const PnProver *p, int d, int q)
{
    return pn_key_of(p, p->b->key, board_rule60(p->b), d, q);
}

/* Asks for a child's bucket as soon as its key is known: the probes of the
 * children that follow the expansion are mostly cache misses otherwise. */
static void pn_prefetch(const PnProver *p, uint64_t key)
{
#if defined(__GNUC__)
    __builtin_prefetch(&p->table[key & p->mask]);
#else
    (void)p;
    (void)key;
#endif
}

static bool pn_entry_is(const PnEntry *e, uint64_t key)
{
    return e->key_lo == (uint32_t)key && e->key_hi == (uint32_t)(key >> 32);
}

static const PnEntry *pn_probe(const PnProver *p, uint64_t key)
{
    const PnBucket *bucket = &p->table[key & p->mask];
    for (int i = 0; i < MATE_BUCKET_ENTRIES; i++)
        if (pn_entry_is(&bucket->e[i], key))
            return &bucket->e[i];
    return NULL;
}

/* Bit length of n: work kept on a log scale fits a byte. */
static int pn_bits(uint64_t n) { return n ? 64 - __builtin_clzll(n) : 0; }

/* Stores a node; a new key replaces the entry with the least work, solved
 * entries counting as much more work (they are the proof). Keys are never
 * zero in practice; an all-zero entry is empty. */
static void pn_store(PnProver *p, uint64_t key, uint32_t pn, uint32_t dn, Move move, int len, uint64_t work)
{
    PnBucket *bucket = &p->table[key & p->mask];
    PnEntry *e = NULL;
    for (int i = 0; i < MATE_BUCKET_ENTRIES; i++)
        if (pn_entry_is(&bucket->e[i], key))
            e = &bucket->e[i];
    if (!e) {
        int pick = 0, worst = INT32_MAX;
        for (int i = 0; i < MATE_BUCKET_ENTRIES; i++) {
            const PnEntry *c = &bucket->e[i];
            bool empty = c->key_lo == 0 && c->key_hi == 0;
            int w = empty ? -1 : c->work + ((c->pn == 0 || c->dn == 0) ? MATE_SOLVED_WORK_BITS : 0);
            if (w < worst) {
                worst = w;
                pick = i;
            }
        }
        e = &bucket->e[pick];
        e->work = 0;
    }
    e->key_lo = (uint32_t)key;
    e->key_hi = (uint32_t)(key >> 32);
    e->pn = pn;
    e->dn = dn;
    e->move = move;
    e->len = (uint8_t)(len < 0 ? 255 : len);
    /* Adding work on the log scale: the bit length of old + new. */
    uint64_t old = e->work ? (uint64_t)1 << (e->work - 1) : 0;
    e->work = (uint8_t)pn_bits(old + work);
}

static uint32_t pn_add(uint32_t a, uint32_t b)
{
    uint64_t s = (uint64_t)a + b;
    return s >= PN_INF ? PN_INF - 1 : (uint32_t)s;
}

/* Collects the keys seen at least twice before the root (since the last
 * capture: a position after a capture cannot equal one before it). */
static void pn_collect_prerep(PnProver *p)
{
    const Board *b = p->b;
    int window = b->hist[p->root_ply].rule60;
    if (window > p->root_ply)
        window = p->root_ply;
    /* From BOARD_RULE60_PLIES on, every move but a capture ends the attack
     * by the natural limit, and after a capture nothing can repeat. */
    if (window > BOARD_RULE60_PLIES)
        window = BOARD_RULE60_PLIES;
    const int lo = p->root_ply - window;
    p->prerep_count = 0;
    for (int j = p->root_ply - 1; j >= lo; j--) {
        const uint64_t key = b->hist[j].key;
        bool twice = false, known = false;
        for (int k = j - 2; k >= lo && !twice; k -= 2)
            twice = b->hist[k].key == key;
        for (int i = 0; i < p->prerep_count && !known; i++)
            known = p->prerep[i] == key;
        if (twice && !known)
            p->prerep[p->prerep_count++] = key;
    }
}

/* The attacker's move to key_after (r60_after plies since a capture) ends
 * the attack by rule: the natural limit, or a third occurrence of a
 * position of the game before the root. The path's own repetitions do not
 * count (see the top of the file). */
static bool pn_attacker_move_escapes(const PnProver *p, uint64_t key_after, int r60_after)
{
    if (r60_after >= BOARD_RULE60_PLIES)
        return true;
    for (int i = 0; i < p->prerep_count; i++)
        if (p->prerep[i] == key_after)
            return true;
    return false;
}

/* The defender's move just made ends the attack by rule: the natural limit,
 * or any repetition (of the path, or a third occurrence of a position before
 * the root), whoever the rules blame. A defender who checks or chases
 * perpetually would be banned from it, but counting his repetition as an
 * escape only makes him stronger, so no false mate can come of it. */
static bool pn_defender_escapes(PnProver *p)
{
    Board *b = p->b;
    int r60 = board_rule60(b);
    if (r60 >= BOARD_RULE60_PLIES)
        return true;
    return r60 >= 4 && board_repetition(b, p->root_ply, 2) != REP_NONE;
}

/* Current numbers of a child (from the table, else its starting values). */
static void pn_child(const PnProver *p, const PnChild *c, uint32_t *pn, uint32_t *dn, int *len)
{
    const PnEntry *e = pn_probe(p, c->key);
    if (e) {
        *pn = e->pn;
        *dn = e->dn;
        *len = e->len == 255 ? -1 : e->len;
    } else {
        *pn = c->pn0;
        *dn = c->dn0;
        *len = -1;
    }
}

/* ------------------------------------------------------------- expansion */

/* Children of the current node (d plies left, quiet budget q) into kids.
 * Returns the count, or -1 when the attacker mates at once (*mate set). An
 * attacker's child that can only be a loss for him (bound reached,
 * repetition, natural limit) is left out; a defender's reply that escapes by
 * rule makes the count -2 (*mate set to it). */
static int pn_expand(PnProver *p, int d, int q, bool root, PnChild *kids, Move *mate)
{
    Board *b = p->b;
    const bool attacker = b->side == p->attacker;
    MoveList list;
    if (root) {
        list.count = p->only_count;
        memcpy(list.moves, p->only, (size_t)p->only_count * sizeof(Move));
    } else {
        board_generate(b, GEN_ALL, &list);
    }
    /* An attacker in check may answer with any evasion at no quiet cost:
     * the evasion is forced, and the defender spent a move to force it. */
    const bool evading = attacker && board_in_check(b);
    /* Most of the attacker's moves cannot check; the filter rules them out
     * without the full test (see board_check_filter). */
    BoardCheckFilter filter;
    if (attacker)
        board_check_filter(b, &filter);
    int n = 0;
    if (!attacker) {
        for (int i = 0; i < list.count; i++) {
            const Move m = list.moves[i];
            const int r60 = board_rule60_after(b, m);
            const uint64_t key_after = board_key_after(b, m);
            /* Only a child whose key was seen since the last capture, or
             * that reaches the natural limit, can end the attack by rule;
             * the others need not be made to rule it out. */
            if (r60 >= BOARD_RULE60_PLIES || board_may_repeat_key(b, key_after, r60)) {
                board_make(b, m);
                bool escaped = pn_defender_escapes(p);
                board_unmake(b);
                if (escaped) {
                    *mate = m;
                    return -2;
                }
            }
            PnChild *c = &kids[n++];
            c->move = m;
            c->q = (uint8_t)q;
            c->cached = 0;
            c->key = pn_key_of(p, key_after, r60, d - 1, q);
            pn_prefetch(p, c->key);
            c->pn0 = 1;
            c->dn0 = 1;
        }
        return n;
    }

    /* The attacker. First the moves he may try, with their keys: each
     * child's bucket is asked for at once, so that the probes below find
     * it in the cache instead of waiting for it one by one. */
    uint64_t after[MAX_MOVES];
    int cands = 0;
    for (int i = 0; i < list.count; i++) {
        const Move m = list.moves[i];
        const bool check = board_may_give_check(&filter, m) && board_gives_check(b, m);
        if (!check && q == 0 && !evading)
            continue;
        if (d < 3) {
            /* Only a mate (or stalemate) at once counts here. */
            board_make(b, m);
            bool mated = !board_has_legal_move(b);
            board_unmake(b);
            if (mated) {
                *mate = m;
                return -1;
            }
            continue;
        }
        const int r60 = board_rule60_after(b, m);
        PnChild *c = &kids[cands];
        after[cands++] = board_key_after(b, m);
        c->move = m;
        c->q = (uint8_t)(check || evading ? q : q - 1);
        c->cached = check;              /* until the pass below */
        c->len = r60;                   /* until the pass below */
        c->key = pn_key_of(p, after[cands - 1], r60, d - 1, c->q);
        pn_prefetch(p, c->key);
    }
    /* Then each in turn, in the same order, compacted in place. */
    for (int i = 0; i < cands; i++) {
        const PnChild cand = kids[i];
        const bool check = cand.cached;
        /* Made only when it ends the attack by rule (unless it mates) or
         * when its replies must be counted. */
        const bool rule_end = pn_attacker_move_escapes(p, after[i], cand.len);
        /* A check's starting proof number is the defender's reply count; it
         * is only needed while the table knows nothing of the child, and
         * counting replies is most of the cost of a node. */
        const PnEntry *known = check ? pn_probe(p, cand.key) : NULL;
        if (known && known->pn == 0 && known->len == 0) {
            *mate = cand.move;
            return -1;
        }
        int replies = -1;
        if (rule_end || (check && !known)) {
            board_make(b, cand.move);
            replies = check && !known ? board_count_legal(b) : board_has_legal_move(b) ? -1 : 0;
            board_unmake(b);
            bool escaped = replies != 0 && rule_end;
            if (replies == 0) {
                *mate = cand.move;
                return -1;
            }
            if (escaped)
                continue;
            /* Store the starting numbers (as no work, the first to be
             * replaced), so that the next expansion of this node finds the
             * child known instead of counting its replies again. */
            if (replies > 0)
                pn_store(p, cand.key, (uint32_t)replies, 1, MOVE_NONE, -1, 0);
        }
        PnChild *c = &kids[n++];
        *c = cand;
        c->cached = 0;
        c->pn0 = replies > 0 ? (uint32_t)replies : check ? 1 : MATE_QUIET_PN;
        c->dn0 = 1;
    }
    return n;
}

/* ------------------------------------------------------------- df-pn */

/* Multiple iterative deepening at the current node (d plies left, quiet
 * budget q, table key `key`, children stored at level `lvl`): works below
 * until its proof number reaches thpn or its disproof number thdn, then
 * stores the node. */
static void pn_mid(PnProver *p, int d, int q, int lvl, bool root, uint64_t key, uint32_t thpn, uint32_t thdn)
{
    Board *b = p->b;
    const bool attacker = b->side == p->attacker;
    const uint64_t start_nodes = p->nodes;

    /* Step 1. Count the node; stop if asked. */
    if (pn_tick(p))
        return;

    /* Step 2. Children; the terminal cases. */
    PnChild *kids = &p->kids[(size_t)lvl * MAX_MOVES];
    Move special = MOVE_NONE;
    int n = pn_expand(p, d, q, root, kids, &special);
    if (n == -1) {
        pn_store(p, key, 0, PN_INF, special, 1, 1);
        return;
    }
    if (n == -2) {
        pn_store(p, key, PN_INF, 0, special, -1, 1);
        return;
    }
    if (n == 0) {
        /* Attacker: nothing left to try. Defender: mated (or stalemated). */
        if (attacker)
            pn_store(p, key, PN_INF, 0, MOVE_NONE, -1, 1);
        else
            pn_store(p, key, 0, PN_INF, MOVE_NONE, 0, 1);
        return;
    }
    if (!attacker && d < 2) {
        pn_store(p, key, PN_INF, 0, kids[0].move, -1, 1);
        return;
    }

    /* Step 3. Work on the most proving child until a threshold is met.
     * phi/delta are the numbers from the side to move's view: the
     * attacker's pn, the defender's dn. */
    for (;;) {
        uint32_t phi = PN_INF, delta = 0, phi2 = PN_INF, best_phi_c = 0;
        int best = -1, solved_len = -1;
        bool delta_inf = false, len_unknown = false;
        for (int i = 0; i < n; i++) {
            /* Only the child searched last can have changed (short of a
             * transposition, which the next visit of this node sees), so
             * the others' numbers are kept here instead of probed again:
             * most probes miss the cache. */
            PnChild *k = &kids[i];
            if (!k->cached) {
                pn_child(p, k, &k->pn, &k->dn, &k->len);
                k->cached = 1;
            }
            uint32_t pn = k->pn, dn = k->dn;
            int len = k->len;
            uint32_t c_delta = attacker ? pn : dn; /* child's number that the node minimises */
            uint32_t c_phi = attacker ? dn : pn;   /* and the one it sums */
            if (c_phi == PN_INF)
                delta_inf = true;
            else
                delta = pn_add(delta, c_phi);
            if (c_delta < phi || best < 0) {
                phi2 = phi;
                phi = c_delta;
                best = i;
                best_phi_c = c_phi;
            } else if (c_delta < phi2) {
                phi2 = c_delta;
            }
            /* Proof length: the attacker takes the shortest proven child,
             * the defender the longest. */
            if (pn == 0 && len < 0)
                len_unknown = true;
            if (pn == 0 && len >= 0 && len > solved_len)
                solved_len = len;
        }
        if (delta_inf)
            delta = PN_INF;
        uint32_t pn = attacker ? phi : delta;
        uint32_t dn = attacker ? delta : phi;
        if (pn == 0 || dn == 0 || pn >= thpn || dn >= thdn || p->stopped || p->run_stopped) {
            Move mv = kids[best].move;
            int len = -1;
            if (pn == 0) {
                if (attacker) {
                    /* The shortest proven child proves the node (every
                     * child's numbers were just read into kids). */
                    int shortest = -1;
                    for (int i = 0; i < n; i++) {
                        if (kids[i].pn == 0 && kids[i].len >= 0 && (shortest < 0 || kids[i].len < shortest)) {
                            shortest = kids[i].len;
                            mv = kids[i].move;
                        }
                    }
                    len = shortest < 0 ? d : shortest + 1;
                } else {
                    len = solved_len < 0 || len_unknown ? d : solved_len + 1;
                }
                if (len > d)
                    len = d;
            }
            if (!p->stopped && !p->run_stopped)
                pn_store(p, key, pn, dn, mv, len, p->nodes - start_nodes);
            return;
        }

        /* Step 4. Thresholds of the child (the 1+epsilon trick widens the
         * second-best bound so the search does not thrash between two). */
        uint64_t c_th_delta = (uint64_t)phi2 + phi2 / MATE_PN_EPSILON_DIV + 1;
        uint32_t th_phi = attacker ? thpn : thdn;
        uint32_t th_delta = attacker ? thdn : thpn;
        if (c_th_delta > th_phi)
            c_th_delta = th_phi;
        uint64_t c_th_phi = (uint64_t)th_delta - delta + best_phi_c;
        if (c_th_phi > PN_INF)
            c_th_phi = PN_INF;
        uint32_t c_thpn = attacker ? (uint32_t)c_th_delta : (uint32_t)c_th_phi;
        uint32_t c_thdn = attacker ? (uint32_t)c_th_phi : (uint32_t)c_th_delta;

        PnChild *c = &kids[best];
        board_make(b, c->move);
        pn_mid(p, d - 1, c->q, lvl + 1, false, c->key, c_thpn, c_thdn);
        board_unmake(b);
        c->cached = 0;
    }
}

/* Runs df-pn from the root with d plies; returns 1 proven, 0 disproven,
 * -1 stopped. */
static int pn_run(PnProver *p, int d, int q, int *len)
{
    uint64_t key = pn_key(p, d, q);
    pn_mid(p, d, q, 0, true, key, PN_INF, PN_INF);
    const PnEntry *e = pn_probe(p, key);
    if (e && e->pn == 0) {
        *len = e->len;
        return 1;
    }
    if (e && e->dn == 0)
        return 0;
    return -1;
}

/* ------------------------------------------------------------- main line */

/* The numbers of the child of the current node reached by kids[i], proving
 * it again (with the same bound) when the table lost it. */
static void pn_child_solved(PnProver *p, PnChild *c, int d, int lvl, uint32_t *pn, int *len)
{
    uint32_t dn;
    pn_child(p, c, pn, &dn, len);
    if ((*pn != 0 || *len < 0) && *pn != PN_INF && dn != 0) {
        board_make(p->b, c->move);
        pn_mid(p, d - 1, c->q, lvl + 1, false, c->key, PN_INF, PN_INF);
        board_unmake(p->b);
        pn_child(p, c, pn, &dn, len);
    }
}

/* Rebuilds a main line of a proof of `len` plies from the root (bound d):
 * the attacker plays the shortest proven move, the defender the reply whose
 * proof is longest. Leaves the board as it found it. */
static int pn_main_line(PnProver *p, int d, int q, int len, Move *pv, int max)
{
    Board *b = p->b;
    int n = 0;
    for (int lvl = 0; len > 0 && d > 0 && n < max; lvl++) {
        const bool attacker = b->side == p->attacker;
        PnChild *kids = &p->kids[(size_t)lvl * MAX_MOVES];
        Move special = MOVE_NONE;
        int nk = pn_expand(p, d, q, lvl == 0, kids, &special);
        Move pick = MOVE_NONE;
        int pick_len = -1;
        uint8_t pick_q = (uint8_t)q;
        if (nk == -1 && attacker) {
            pick = special;
            pick_len = 0;
            pick_q = board_gives_check(b, special) || q == 0 ? (uint8_t)q : (uint8_t)(q - 1);
        } else if (nk > 0) {
            for (int i = 0; i < nk && !p->stopped; i++) {
                uint32_t cpn, cdn;
                int clen;
                /* The attacker needs one proven move (the table keeps the
                 * proof); each defence must be known, proven again if lost. */
                if (attacker)
                    pn_child(p, &kids[i], &cpn, &cdn, &clen);
                else
                    pn_child_solved(p, &kids[i], d, lvl, &cpn, &clen);
                if (cpn != 0 || clen < 0)
                    continue;
                if (attacker ? (pick_len < 0 || clen < pick_len) : clen > pick_len) {
                    pick_len = clen;
                    pick = kids[i].move;
                    pick_q = kids[i].q;
                }
            }
        }
        if (pick == MOVE_NONE || pick_len >= len)
            break;
        board_make(b, pick);
        pv[n++] = pick;
        q = pick_q;
        d--;
        len = pick_len;
    }
    for (int i = 0; i < n; i++)
        board_unmake(b);
    return n;
}

/* ------------------------------------------------------------- driver */

/* Hands a proof with its line to the caller's on_proof, if any. */
static void pn_report(const PnProver *p, SearchThread *t, MateProofFn on_proof, MateProof *out)
{
    if (!on_proof || out->pv_len == 0)
        return;
    out->nodes = p->nodes;
    on_proof(t, out);
}

bool mate_prove(SearchThread *t, int max_moves, uint64_t max_nodes, int share_percent, MateProofFn on_proof,
                MateProof *out)
{
    Searcher *s = t->s;
    memset(out, 0, sizeof *out);
    if (max_moves <= 0 || t->root_count == 0)
        return false;
    /* Step 1. The length cap: 2m - 1 plies must fit the history room and
     * the one-byte lengths. */
    if (2 * max_moves + 1 > t->ply_limit)
        max_moves = (t->ply_limit - 1) / 2;
    if (max_moves > 120)
        max_moves = 120;

    PnProver p;
    memset(&p, 0, sizeof p);
    p.s = s;
    p.b = &t->board;
    p.root_ply = t->root_ply;
    p.attacker = t->board.side;
    p.r60_in_key = board_rule60(&t->board) + 2 * max_moves >= BOARD_RULE60_PLIES;
    pn_collect_prerep(&p);
    uint64_t buckets = (uint64_t)1 << MATE_TABLE_BITS;
    /* Zeroed pages, mapped lazily, so a short proof touches little of the
     * table; aligned to a cache line, on huge pages where the system has
     * them (see mem.h). */
    LargeBlock table_block;
    p.table = mem_large_alloc((size_t)buckets * sizeof(PnBucket), &table_block);
    p.levels = 2 * max_moves + 2;
    p.kids = malloc((size_t)p.levels * MAX_MOVES * sizeof(PnChild));
    if (!p.table || !p.kids) {
        mem_large_free(&table_block);
        free(p.kids);
        return false;
    }
    p.mask = buckets - 1;
    p.max_nodes = max_nodes;
    p.timed = s->tm.timed && !s->limits.infinite;
    p.budget_ms = s->tm.hard_ms * share_percent / 100;
    if (t->prover_end_ms > 0) {
        /* A turn of analysis: its own end, whatever the clock says. */
        p.timed = p.wall = true;
        p.budget_ms = t->prover_end_ms;
    }
    if (!p.timed && p.max_nodes == 0)
        p.max_nodes = MATE_PROVER_MAX_NODES;
    /* A node limit is shared like the clock: the prover's nodes count
     * against it, so the search after it needs its share left. */
    uint64_t share = s->limits.nodes / 100 * (uint64_t)share_percent;
    share = share > t->nodes ? share - t->nodes : 0; /* what the search before used */
    if (s->limits.nodes && (p.max_nodes == 0 || share < p.max_nodes))
        p.max_nodes = share > 0 ? share : 1;

    Move root_moves[MAX_MOVES];
    for (int i = 0; i < t->root_count; i++)
        root_moves[i] = t->roots[i].move;
    p.only = root_moves;
    p.only_count = t->root_count;

    /* Step 2. Prove a mate within 2N-1 plies: checks only first (its tree
     * is small enough to be disproven), then with quiet moves. No middle
     * pass: the wide pass proves the same mates as fast, since its quiet
     * moves start with higher proof numbers. */
    int q = 0, len = 0;
    int d = 2 * max_moves - 1;
    int r = pn_run(&p, d, 0, &len);
    if (r == 0 && !p.stopped) {
        q = MATE_MAX_QUIET;
        r = pn_run(&p, d, q, &len);
    }
    out->disproven = r == 0 && q == MATE_MAX_QUIET;

    /* Step 3. Tighten: re-prove with a shorter bound while that succeeds
     * and the tightening budget lasts; keep the line of the last proof. */
    if (r == 1 && len > 0) {
        out->proven = true;
        out->moves = (len + 1) / 2;
        out->pv_len = pn_main_line(&p, d, q, len, out->pv, MAX_PLY);
        /* Report the proof before tightening: it already meets the bound
         * of max_moves, and tightening may take a sixth of the time again. */
        pn_report(&p, t, on_proof, out);
        uint64_t spent = p.nodes;
        p.run_limit = spent + MATE_TIGHTEN_MIN_NODES + spent / MATE_TIGHTEN_DIV;
        /* In analysis the bound is MATE_ANALYSIS_MOVES, not the length the
         * user asked for, so the first proof is often long: tightening gets
         * the rest of the prover's budget. */
        if (s->limits.mate == 0)
            p.run_limit = 0;
        uint64_t cleared_at = 0;
        while (len > 1 && !p.stopped && !p.run_stopped) {
            int shorter = 0;
            d = len - 2;
            /* A fresh table for each shorter bound: the passes before filled
             * it with their solved entries, which the replacement keeps
             * (MATE_SOLVED_WORK_BITS) although the new bound's keys rarely
             * meet them, so the new pass would thrash in what is left. Not
             * after short passes, which used little of it: clearing all of
             * it costs tens of milliseconds. */
            if (p.nodes - cleared_at >= buckets / MATE_CLEAR_DIV) {
                memset(p.table, 0, (size_t)buckets * sizeof(PnBucket));
                cleared_at = p.nodes;
            }
            if (pn_run(&p, d, q, &shorter) != 1 || shorter <= 0 || shorter >= len)
                break;
            len = shorter;
            Move pv[MAX_PLY];
            int pv_len = pn_main_line(&p, d, q, len, pv, MAX_PLY);
            if (p.stopped || p.run_stopped)
                break;
            out->moves = (len + 1) / 2;
            out->pv_len = pv_len;
            memcpy(out->pv, pv, (size_t)pv_len * sizeof(Move));
            pn_report(&p, t, on_proof, out);
        }
        if (out->pv_len == 0) {
            /* Should not happen: the root entry names its proving move. */
            const PnEntry *e = pn_probe(&p, pn_key(&p, 2 * max_moves - 1, q));
            out->pv[0] = e ? e->move : MOVE_NONE;
            out->pv_len = e ? 1 : 0;
        }
    }
    out->nodes = p.nodes;
    free(p.kids);
    mem_large_free(&table_block);
    return out->proven;
}

/* ------------------------------------------------------------- test hook */

int search_test_mate_prove(Searcher *s, const Board *b, int max_moves, uint64_t max_nodes, MateProof *out)
{
    SearchLimits l;
    search_limits_init(&l);
    l.mate = max_moves;
    search_prepare(s, b, &l, NULL);
    return mate_prove(s->threads[0], max_moves, max_nodes, MATE_PROVER_TIME_PERCENT, NULL, out) ? out->moves : 0;
}
