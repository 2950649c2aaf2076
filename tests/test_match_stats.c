/* test_match_stats.c — Elo, error bars, LOS and SPRT LLR of `chariot match` against values computed by hand (python3). */
#include <math.h>

#include "match.h"
#include "test.h"

#define CHECK_NEAR(a, b, tol)                                                                  \
    do {                                                                                       \
        double a_ = (a), b_ = (b);                                                             \
        if (!(fabs(a_ - b_) <= (tol))) {                                                       \
            fprintf(stderr, "%s:%d: %s = %.6f, expected %.6f\n", __FILE__, __LINE__, #a, a_, b_); \
            test_failures++;                                                                   \
        }                                                                                      \
    } while (0)

int main(void)
{
    /* Reference numbers: s = (W + D/2)/N, Elo = -400 log10(1/s - 1), sigma^2
     * the per-game (per-pair) variance, 95% interval s +- 1.959964 sqrt(sigma^2/N)
     * mapped to Elo, error = half its width; LOS = (1 + erf((W-L)/sqrt(2(W+L))))/2;
     * LLR = sum n_i log(p1_i/p0_i) with p_j the MLE under mean score s(elo_j),
     * solved by Newton's method in python (the C code bisects). */

    /* W 30, D 40, L 20 */
    MatchElo e = match_elo_trinomial(30, 40, 20);
    CHECK(e.valid);
    CHECK_NEAR(e.score, 0.5555555556, 1e-9);
    CHECK_NEAR(e.elo, 38.764005, 1e-4);
    CHECK_NEAR(e.error, 54.011913, 1e-4);
    CHECK_NEAR(e.lo, -14.307697, 1e-4);
    CHECK_NEAR(e.hi, 93.716129, 1e-4);
    CHECK_NEAR(match_los(30, 20), 0.921350, 1e-5);
    CHECK_NEAR(match_sprt_llr_trinomial(30, 40, 20, 0, 5), 0.242529, 1e-4);

    /* W 100, D 250, L 130 */
    e = match_elo_trinomial(100, 250, 130);
    CHECK_NEAR(e.elo, -21.743065, 1e-4);
    CHECK_NEAR(e.error, 21.539211, 1e-4);
    CHECK_NEAR(match_los(100, 130), 0.023956, 1e-5);
    CHECK_NEAR(match_sprt_llr_trinomial(100, 250, 130, 0, 5), -1.003600, 1e-4);

    /* 50 game pairs scoring 0, 0.5, 1, 1.5, 2 points: 2, 10, 20, 13, 5 */
    const int penta[5] = {2, 10, 20, 13, 5};
    e = match_elo_pentanomial(penta);
    CHECK_NEAR(e.score, 0.545, 1e-9);
    CHECK_NEAR(e.elo, 31.354042, 1e-4);
    CHECK_NEAR(e.error, 48.564039, 1e-4);
    CHECK_NEAR(e.lo, -16.595168, 1e-4);
    CHECK_NEAR(e.hi, 80.532910, 1e-4);
    CHECK_NEAR(match_sprt_llr_pentanomial(penta, 0, 5), 0.237211, 1e-4);
    CHECK_NEAR(match_sprt_llr_pentanomial(penta, -5, 0), 0.276586, 1e-4);

    /* bounds for alpha = beta = 0.05 */
    double lo, hi;
    match_sprt_bounds(0.05, 0.05, &lo, &hi);
    CHECK_NEAR(lo, -2.944439, 1e-5);
    CHECK_NEAR(hi, 2.944439, 1e-5);

    /* Edge cases: no games, all wins, score/Elo conversions. */
    CHECK(!match_elo_trinomial(0, 0, 0).valid);
    CHECK(!match_elo_trinomial(5, 0, 0).valid);
    CHECK_NEAR(match_sprt_llr_trinomial(0, 0, 0, 0, 5), 0.0, 1e-12);
    CHECK_NEAR(match_los(0, 0), 0.5, 1e-12);
    CHECK_NEAR(match_elo_to_score(0), 0.5, 1e-12);
    CHECK_NEAR(match_score_to_elo(match_elo_to_score(123.0)), 123.0, 1e-9);
    const int one_sided[5] = {0, 0, 0, 0, 3};
    double llr = match_sprt_llr_pentanomial(one_sided, 0, 5);
    CHECK(isfinite(llr) && llr > 0 && llr < 2.94); /* three won pairs decide nothing yet */

    TEST_END();
}
