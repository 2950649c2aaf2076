/* search_params.h — every tuning constant of the search, named, in one place.
 *
 * Each was kept because a match showed it to gain (the commit that set it
 * holds the measurement; docs/RESULTS.md lists the main ones). Units are
 * centipawns unless said otherwise; material margins are in BOARD_MATERIAL
 * units (rook 900, cannon 450, horse 400, pawn 100; advisors, elephants and
 * the king count nothing).
 */
#ifndef CHARIOT_SEARCH_PARAMS_H
#define CHARIOT_SEARCH_PARAMS_H

/* ------------------------------------------------------------ null move */

/* Depth reduction R of the null-move search: ElephantEye's NULL_DEPTH of 2,
 * plus one ply per NULL_R_DEPTH_DIV plies of depth (~40 Elo over a fixed 2). */
enum { NULL_R = 2 };
enum { NULL_R_DEPTH_DIV = 4 };
/* The reduction itself, as a constant expression so that the null step and
 * its unit test share one formula instead of each restating it. */
#define NULL_REDUCTION(depth) (NULL_R + (depth) / NULL_R_DEPTH_DIV)
/* NullMoveOkay: the side to move may pass only with more attacking material
 * than this. Five pawns (500) must fail, so pawn-and-advisor endings never
 * try a null move (zugzwang is the rule there, not the exception). */
enum { NULL_OKAY_MARGIN = 500 };
/* NullMoveSafe: above this much attacking material a null fail-high cuts at
 * once; at or below it the cut needs a verification search. A rook with a
 * pawn (1000) is not safe, a rook with a horse (1300) is. */
enum { NULL_SAFE_MARGIN = 1000 };

/* ------------------------------------------------------------ quiescence */

/* EGain pruning margin: a capture is skipped when static eval + SEE gain +
 * QS_DELTA <= alpha, at every quiescence ply. Threats, mobility and king
 * danger move the eval by more than a pawn when a piece falls (~18 Elo
 * over 100). */
enum { QS_DELTA = 200 };
/* Quiescence also searches quiet checks on its first QS_CHECK_PLIES plies. */
enum { QS_CHECK_PLIES = 1 };

/* ------------------------------------------------------------ extensions */

/* Extensions stop once the path is this many times the iteration depth long,
 * so check sequences cannot run the tree to MAX_PLY. */
enum { EXTENSION_PLY_FACTOR = 2 };

/* Singular extension: from SE_DEPTH on, a hash move whose lower bound was
 * searched at least depth - SE_TT_DEPTH_MARGIN deep is tested against the
 * other moves at half depth, below its score by SE_MARGIN per ply; with
 * multi-cut and a negative extension (search.c, singular_step) (~15 Elo).
 * The reported depth drops, as the extended lines run deeper than it says. */
enum { SE_DEPTH = 6, SE_TT_DEPTH_MARGIN = 3, SE_MARGIN = 2 };

/* ------------------------------------------------ pruning and reductions */

/* Reverse futility (static null move): at depth <= RFP_DEPTH a non-PV node
 * whose static eval is at least RFP_MARGIN * depth above beta returns (one
 * ply less of margin when the eval is improving). */
enum { RFP_DEPTH = 7, RFP_MARGIN = 120 };
/* The pruning eval of reverse futility and futility, and quiescence's
 * stand pat (bounded_eval): a TT bound of a searched entry (depth >= 1)
 * that lies beyond the static eval on its own side replaces the eval,
 * moved at most TT_EVAL_CAP. Uncapped, the idea lost. */
enum { TT_EVAL_CAP = 200 };
/* Futility: a quiet non-checking move whose reduced depth (the node's depth
 * less one less the base LMR reduction at its move number, "lmr depth") is
 * at most FUTILITY_DEPTH is skipped when static eval + FUTILITY_BASE +
 * FUTILITY_MARGIN * lmr depth <= alpha. */
enum { FUTILITY_DEPTH = 3, FUTILITY_BASE = 100, FUTILITY_MARGIN = 150 };
/* A quiet move whose summed quiet histories are below zero is judged a ply
 * lower per FUTILITY_HISTORY_DIV points by futility and SEE pruning (never
 * below 0). Only a bad history counts: a good one could lift a move above
 * the lmr depth that the wholesale quiet skip of Step 10a-10b tested. */
enum { FUTILITY_HISTORY_DIV = 3000 };

/* Late-move reductions: r = LMR_BASE + ln(depth) * ln(moves) / LMR_DIV, in
 * hundredths; applied from LMR_MIN_DEPTH and after LMR_MIN_MOVES moves to
 * every move that was not extended (good captures LMR_GOOD_CAPTURE_BONUS
 * plies less); one ply more when the eval is not improving, and for quiet
 * moves when the hash move is a capture; one ply less at a PV node or one
 * the TT marks as once on a PV (TT_PV). */
enum { LMR_MIN_DEPTH = 2, LMR_MIN_MOVES = 2, LMR_BASE = 50, LMR_DIV = 200 };
/* History adjusts the reduction by one ply per LMR_HISTORY_DIV points. */
enum { LMR_HISTORY_DIV = 6000 };
/* Late good captures (the picker's, so those that lose by SEE no more than
 * their capture history excuses, CAPT_GOOD_SEE_DIV) are reduced this much
 * less (~5 Elo). */
enum { LMR_GOOD_CAPTURE_BONUS = 1 };

/* Late-move pruning: at depth <= LMP_DEPTH a quiet non-checking move is
 * skipped after (LMP_BASE + depth^2) moves, half that when not improving.
 * It and SEE pruning were kept together (~45 Elo). */
enum { LMP_DEPTH = 5, LMP_BASE = 3 };
/* SEE pruning: a quiet move at lmr depth <= SEE_PRUNE_DEPTH whose exchange
 * loses more than SEE_QUIET_MARGIN * (lmr depth)^2 is skipped, and so is a
 * capture at depth <= SEE_PRUNE_DEPTH that loses more than
 * SEE_CAPTURE_MARGIN * depth. */
enum { SEE_PRUNE_DEPTH = 4, SEE_QUIET_MARGIN = 30, SEE_CAPTURE_MARGIN = 100 };

/* Hindsight depth: a node reached by a reduction of at least
 * HINDSIGHT_EXTEND_R plies, where the reduced move did not worsen its
 * mover's static eval (ours is no better than the parent's, negated), is
 * searched a ply deeper: the late move was not the blunder its reduction
 * guessed. One reached by at least HINDSIGHT_REDUCE_R plies where the two
 * evals, each from its own side, sum above HINDSIGHT_MARGIN (both sides
 * think they stand well, so the evals disagree and the line is unclear
 * rather than critical) is searched a ply shallower. */
enum { HINDSIGHT_EXTEND_R = 3, HINDSIGHT_REDUCE_R = 2, HINDSIGHT_MARGIN = 80 };

/* Internal iterative reduction: nodes without a hash move from this depth. */
enum { IIR_DEPTH = 4 };

/* ------------------------------------------------------------ ordering */

/* Butterfly history is kept within +-HISTORY_MAX (gravity update). */
enum { HISTORY_MAX = 16384, HISTORY_BONUS_MAX = 1200 };
/* A cutoff's bonus (and the malus of the quiet moves tried before it) is
 * depth^2 + HISTORY_BONUS_LINEAR * depth, at most HISTORY_BONUS_MAX: the
 * linear part lets the shallow nodes, where most cutoffs happen, teach the
 * tables within a few hits instead of hundreds (~20 Elo). */
enum { HISTORY_BONUS_LINEAR = 64 };
/* The quiet malus, given to the quiet moves searched before the best move
 * (Step 10f), is QUIET_MALUS_PCT percent of the best move's bonus. Several
 * moves usually fail before one works; a larger malus moves the failed ones
 * below the good ones in fewer visits (~15 Elo over 100). */
enum { QUIET_MALUS_PCT = 200 };
/* The capture malus, given to the captures tried before the best move
 * (Step 10f), is CAPTURE_MALUS_PCT percent of the best move's bonus, for
 * the quiet malus's reason (~10 Elo over 100; 200 did not gain). */
enum { CAPTURE_MALUS_PCT = 150 };
/* The gravity update keeps an entry within +-HISTORY_MAX only for steps no
 * larger than HISTORY_MAX, and the continuation and capture tables are
 * int16: the largest malus must stay inside. */
_Static_assert(HISTORY_BONUS_MAX * QUIET_MALUS_PCT / 100 <= HISTORY_MAX, "the quiet malus fits the gravity range");
_Static_assert(HISTORY_BONUS_MAX * CAPTURE_MALUS_PCT / 100 <= HISTORY_MAX, "the capture malus fits the gravity range");
/* Capture history: a capture's order key is its MVV-LVA key plus its
 * capture-history entry divided by CAPT_HIST_DIV (MVV-LVA steps 8 points per
 * point of victim value, so a full entry moves a capture by about a rook's
 * worth of victim over a cannon). */
enum { CAPT_HIST_DIV = 4 };
/* A capture stays among the good captures (before the killers) while its
 * exchange loses no more than its positive capture-history entry divided by
 * CAPT_GOOD_SEE_DIV: one that keeps cutting nodes off despite a losing SEE
 * (a sacrifice that works here, or an exchange SEE misjudges because of a
 * pin or a screen) is worth trying early. A full entry allows 1024
 * (~14 Elo over SEE >= 0 alone). */
enum { CAPT_GOOD_SEE_DIV = 16 };
/* Quiet-move order by threats (board_threats): a rook that steps off a point
 * a cheaper enemy piece attacks, to a point none does, ranks
 * THREAT_ORDER_ROOK higher; one that steps onto such a point ranks that much
 * lower. A horse or cannon the same by THREAT_ORDER_MINOR, against pawns,
 * advisors and elephants. A threat the histories cannot see, since they
 * score a move by its piece and squares only, not by what attacks them now.
 * Four histories sum to at most 4 * HISTORY_MAX. The same test moves a late
 * quiet move's reduction by a ply: one less for the escape, one more for the
 * step into the attack (Step 10d). */
enum { THREAT_ORDER_ROOK = 12000, THREAT_ORDER_MINOR = 6000 };
/* Static-eval correction history: per side to move, one table per board
 * structure key (by the pawns, by each side's guards: king, advisors,
 * elephants, and by each side's attackers: horses, rooks, cannons), and one
 * more by the last move's piece and target square, learns the average error
 * of the static eval against the searches' results; the correction is the
 * tables' average. Entries are in 1/CORR_GRAIN centipawns, kept within
 * +-CORR_MAX; an update moves an entry min(depth + 1, CORR_WEIGHT_MAX) /
 * CORR_WEIGHT_SCALE of the way. Most updates come from shallow nodes, so
 * the scale sets how fast a table follows a game's new structures. */
enum { CORR_SIZE = 1 << 14, CORR_GRAIN = 16, CORR_MAX = 300 * CORR_GRAIN };
enum { CORR_WEIGHT_MAX = 16, CORR_WEIGHT_SCALE = 128 };
/* Static evals cached per thread, direct-mapped by the position key
 * (a power of two; 8 bytes an entry, so 128 KB a thread stays in L2). The
 * hash table keeps evals too, but only of positions it stores; quiescence
 * and pruned nodes meet the same positions again from other move orders. */
enum { EVAL_CACHE_SIZE = 1 << 14 };
/* Counter-move heuristic on/off (kept only where it reduces bench nodes). */
enum { USE_COUNTER_MOVE = 1 };

/* ------------------------------------------------------------ root */

/* Aspiration windows from ASP_MIN_DEPTH on, starting at +-ASP_DELTA and
 * growing by half on every failure. */
enum { ASP_MIN_DEPTH = 4, ASP_DELTA = 25 };
/* Score of a draw by repetition, the natural limit or bare material. */
enum { DRAW_SCORE = 0 };
/* The natural limit in the static eval. Past R60_FREE plies without a
 * capture, the corrected eval shrinks linearly toward the draw score, by
 * 1/R60_SPAN of itself per ply, down to (R60_SPAN - (BOARD_RULE60_PLIES -
 * R60_FREE)) / R60_SPAN of itself (a fifth) at the limit of 120 plies. An
 * edge that has captured nothing for that long may never turn into a win
 * before the limit, and the shrinking eval steers the search toward the
 * captures and exchanges that reset the counter (~5 Elo). */
enum { R60_FREE = 40, R60_SPAN = 100 };
/* Skill levels below SKILL_MAX: a node budget of SKILL_BASE_NODES at level 0,
 * multiplied by SKILL_NODES_GROWTH_PCT/100 per level (about 300k nodes at
 * level 19), and root noise of up to SKILL_NOISE_CP at level 0, falling
 * linearly to nothing at SKILL_MAX. */
enum { SKILL_BASE_NODES = 256, SKILL_NODES_GROWTH_PCT = 145, SKILL_NOISE_CP = 240 };
/* Measured ratings of skill levels, {level, Elo}, for UCI_Elo, which picks
 * the level nearest in rating. Scale: fairy-stockfish 11.1 at 1+0.01 = 2000
 * (docs/RESULTS.md, "Strength levels", has the matches). Levels 14, 16 and 18
 * measured the same as 12 within their error bars, so 12 stands for them. */
#define SKILL_ELO_TABLE {{0, 1095}, {4, 1380}, {8, 1681}, {10, 1785}, {12, 2053}, {20, 2436}}

/* Root noise amplitude per SearchOptions.randomness level (centipawns). */
#define RANDOMNESS_AMPLITUDE {0, 8, 20, 50}

/* ------------------------------------------------------------ time (ms) */

/* At most this many moves are planned for when movestogo is larger. */
enum { TM_MOVES_MAX = 50 };
/* In sudden death the moves assumed left fall as the game goes on:
 * TM_GAME_MOVES less the move number, within TM_SUDDEN_MIN..TM_SUDDEN_MAX.
 * A fixed count starves the late moves of long xiangqi games and leaves
 * clock unused at the end. */
enum { TM_GAME_MOVES = 65, TM_SUDDEN_MIN = 20, TM_SUDDEN_MAX = 40 };
/* Share of the increment spent per move, in percent. */
enum { TM_INC_PERCENT = 75 };
/* Hard limit = soft limit * TM_HARD_FACTOR, never more than
 * TM_HARD_MAX_PERCENT of the time the limits share out (below). */
enum { TM_HARD_FACTOR = 5, TM_HARD_MAX_PERCENT = 70 };
/* The clock less the move overhead and TM_RESERVE_MS is what the limits
 * share out (tm_init), so that much stays in hand whenever a move is due:
 * a host that stalls the engine for about that long (another job, a virtual
 * machine's steal; tools/stall_host.c) no longer flags it. */
enum { TM_RESERVE_MS = 100 };
/* Soft-limit scaling after each iteration (tm_soft_scaled), in percent of
 * the soft limit: TM_SOFT_PERCENT, then these factors multiplied:
 *  - instability: +TM_UNSTABLE_PERCENT per recent change of the best move,
 *    a change counting 1 in its iteration and half as much each iteration
 *    after, so that a move that keeps changing gets the most time;
 *  - stability: TM_STABLE_PERCENT once the best move has stood for
 *    TM_STABLE_ITERS iterations in a row: more depth rarely changes it;
 *  - the score's trend: +TM_TREND_PER_CP percent per centipawn the score
 *    fell below the mean of the two iterations before (the mean, because
 *    the score swings between odd and even depths), a rise saving time
 *    alike, within TM_TREND_MIN..TM_TREND_MAX;
 *  - effort: TM_EFFORT_CUT_PERCENT when the best move took at least
 *    TM_EFFORT_SHARE percent of the search's nodes: the other moves were
 *    refuted cheaply, so the choice is clear. */
/* TM_SOFT_PERCENT lifts the base so that a typical move, stable and clear,
 * still gets about the soft limit (130 * 80% * 80% = 83%), and the time the
 * cuts save goes to the moves that are in doubt. */
enum { TM_SOFT_PERCENT = 130 };
enum { TM_UNSTABLE_PERCENT = 60 };
enum { TM_STABLE_ITERS = 6, TM_STABLE_PERCENT = 80 };
enum { TM_TREND_PER_CP = 1, TM_TREND_MIN = 75, TM_TREND_MAX = 160 };
enum { TM_EFFORT_SHARE = 90, TM_EFFORT_CUT_PERCENT = 80 };
/* Clock checks happen every TM_CHECK_NODES nodes (a power of two). */
enum { TM_CHECK_NODES = 1024 };
/* on_currmove is sent only after this long, and then at most this often. */
enum { CURRMOVE_DELAY_MS = 1000, CURRMOVE_INTERVAL_MS = 250 };

/* ------------------------------------------------------------ TT */

/* Entries per bucket (one 64-byte cache line). */
enum { TT_BUCKET_SIZE = 4 };
/* In replacement, each search generation of age costs this much depth. */
enum { TT_AGE_WEIGHT = 4 };

/* ------------------------------------------------------------ mate prover */

/* The mate prover (mate.c, df-pn) takes a turn when SearchLimits.mate > 0
 * (analysis_mate_search in analysis.c). Its own table holds
 * 2^MATE_TABLE_BITS buckets of 64 bytes, three entries each (20: 64 MB). */
enum { MATE_TABLE_BITS = 20 };
/* Outside sparse endings, a mate search first runs the normal search for
 * this share of the hard limit (or of the node limit), then the prover
 * until MATE_PROVER_TIME_PERCENT of it has passed since the start, then the
 * normal search again if the prover disproves the mate. Many puzzles fall
 * to the search at once; most others the prover proves within a few
 * hundred thousand nodes. */
enum { MATE_FIRST_SEARCH_PERCENT = 5 };
/* Share of a timed search's hard limit (or of its node limit) after which
 * the prover gives way to the normal search. Outside sparse endings the
 * last search phase solves nothing the prover would not, so the prover
 * keeps the rest of the time. */
enum { MATE_PROVER_TIME_PERCENT = 100 };
/* Sparse endings have at most MATE_SPARSE_PIECES pieces besides the two
 * generals. Their mates are long quiet manoeuvres, which the prover's
 * narrow tree rarely proves: a mate search there under a clock or a node
 * limit is the normal search alone, and analysis gives the prover no turn. */
enum { MATE_SPARSE_PIECES = 8 };
/* Node budget of the prover when the search has no clock (depth or node
 * limits only, or infinite), so "go mate N depth D" still ends. */
enum { MATE_PROVER_MAX_NODES = 20000000 };
/* Most quiet (non-checking) attacker moves a prover line may hold. */
enum { MATE_MAX_QUIET = 14 };
/* Starting proof number of a quiet attacker move (a check starts at the
 * defender's reply count): df-pn turns to quiet moves when checks look hard. */
enum { MATE_QUIET_PN = 8 };
/* The 1+epsilon trick: a child's threshold is the second-best number times
 * 1 + 1/MATE_PN_EPSILON_DIV. */
enum { MATE_PN_EPSILON_DIV = 4 };
/* Replacement bonus of a proven or disproven table entry over the work
 * spent on an open one, in bits of the work count (2^20 nodes). */
enum { MATE_SOLVED_WORK_BITS = 20 };
/* After a proof, tightening (proving a shorter mate) may spend
 * MATE_TIGHTEN_MIN_NODES plus 1/MATE_TIGHTEN_DIV of the nodes of the proof. */
enum { MATE_TIGHTEN_MIN_NODES = 20000 };
enum { MATE_TIGHTEN_DIV = 8 };
/* Each tightening pass starts with a clear table once the passes since the
 * last clearing have spent buckets / MATE_CLEAR_DIV nodes (a node stores a
 * few entries, so fewer leave most of the table free). */
enum { MATE_CLEAR_DIV = 8 };
/* Analysis (a search without "go mate N": go infinite, go ponder, clocked
 * searches) runs the prover beside the search, bounded to mates of at most
 * MATE_ANALYSIS_MOVES moves; tightening then reports shorter ones. */
enum { MATE_ANALYSIS_MOVES = 20 };
/* With helper threads, helper 1 runs the prover instead of the Lazy SMP
 * search: for the whole node budget in analysis, for this share of the hard
 * limit in a clocked search; then it joins the Lazy SMP search. */
enum { MATE_HELPER_TIMED_PERCENT = 30 };
/* ...and only when the side to move has a check and the opposing general
 * has at most this many free palace points next to it. */
enum { MATE_KING_FREE_MAX = 0 };
/* With one thread, analysis (go infinite) alternates the search and the
 * prover when the position is forcing (a check at hand, the opposing
 * general with at most MATE_KING_FREE_MAX free points, more than
 * MATE_SPARSE_PIECES pieces): the search until MATE_SLICE_FIRST_MS, the
 * prover until MATE_SLICE_PROVER_FACTOR times the time passed, the search
 * until MATE_SLICE_SEARCH_PERCENT of the time passed, and so on, until the
 * prover proves or disproves a mate within its bound. The general's test
 * keeps ordinary middlegames free of turns that would cost them depth; the
 * turns grow geometrically because the prover's table starts afresh. */
enum { MATE_SLICE_FIRST_MS = 250, MATE_SLICE_PROVER_FACTOR = 4 };
enum { MATE_SLICE_SEARCH_PERCENT = 150 };
/* In endings of at most MATE_SLICE_ENDING_PIECES pieces (and more than
 * MATE_SPARSE_PIECES) the general may have up to MATE_SLICE_KING_FREE_MAX
 * free points: an exposed general there is the rule in a mating attack,
 * not a guarded one. Positions let in only by this test lose their turns
 * when the first one proves nothing (analysis_search), since the search
 * finds many of those mates itself. */
enum { MATE_SLICE_ENDING_PIECES = 10, MATE_SLICE_KING_FREE_MAX = 2 };
/* The prover reads the clock every this many nodes (a power of two); node
 * caps and the stop flag are checked at every node. */
enum { MATE_CHECK_NODES = 4096 };

/* ------------------------------------------------------------ SPSA */

/* The constants above that SPSA tunes (tools/spsa.py): each with the range
 * a tuner may set it in. A build with the CMake option CHARIOT_SPSA reads
 * them from SearchOptions.tune, set by engine options SPSA_<name>; a normal
 * build compiles them in, so TUNED(s, NAME) is the constant itself and
 * costs nothing. Names stay those of the constants, so a tuned result is
 * copied back into this file by hand, as a reviewed change. */
#define SEARCH_TUNABLES(X)                                                                                           \
    X(RFP_MARGIN, 40, 300)                                                                                         \
    X(FUTILITY_BASE, 0, 400)                                                                                       \
    X(FUTILITY_MARGIN, 40, 400)                                                                                    \
    X(LMR_BASE, -50, 200)                                                                                          \
    X(LMR_DIV, 100, 400)                                                                                           \
    X(LMR_HISTORY_DIV, 1000, 20000)                                                                                \
    X(LMP_BASE, 0, 12)                                                                                             \
    X(SEE_QUIET_MARGIN, 5, 120)                                                                                    \
    X(SEE_CAPTURE_MARGIN, 20, 300)                                                                                 \
    X(QS_DELTA, 0, 500)                                                                                            \
    X(HINDSIGHT_MARGIN, 0, 300)                                                                                    \
    X(TT_EVAL_CAP, 0, 500)

#define SEARCH_TUNE_ID(name, lo, hi) TUNE_##name,
enum { SEARCH_TUNABLES(SEARCH_TUNE_ID) TUNE_NB };
#undef SEARCH_TUNE_ID

#ifdef CHARIOT_SPSA
#define TUNED(s, name) ((s)->opt.tune[TUNE_##name])
#else
#define TUNED(s, name) ((void)(s), (name))
#endif

#endif
