/* match_stats.c — match statistics: Elo with its 95% interval, LOS, and the SPRT log-likelihood ratio. */
#include <math.h>

#include "match.h"

/* Two-sided 95% quantile of the normal distribution. */
static const double MATCH_Z95 = 1.959963984540054;
/* Count given to an empty result cell before the MLE, so that a short or
 * one-sided record still has a defined likelihood (fishtest does the same). */
static const double MATCH_EMPTY_CELL = 1e-3;

double match_elo_to_score(double elo)
{
    return 1.0 / (1.0 + pow(10.0, -elo / 400.0));
}

double match_score_to_elo(double score)
{
    if (score <= 0.0)
        return -INFINITY;
    if (score >= 1.0)
        return INFINITY;
    return -400.0 * log10(1.0 / score - 1.0);
}

/* Elo and interval from k result values a[i] seen count[i] times. */
static MatchElo match_elo_from(const double *a, const double *count, int k)
{
    MatchElo r = {0.5, 0, 0, 0, 0, false};
    double n = 0, sum = 0;
    for (int i = 0; i < k; i++) {
        n += count[i];
        sum += count[i] * a[i];
    }
    if (n <= 0)
        return r;
    double s = sum / n, var = 0;
    for (int i = 0; i < k; i++)
        var += count[i] * (a[i] - s) * (a[i] - s);
    var /= n;
    double se = sqrt(var / n);
    r.score = s;
    r.elo = match_score_to_elo(s);
    double lo = s - MATCH_Z95 * se, hi = s + MATCH_Z95 * se;
    r.lo = match_score_to_elo(lo);
    r.hi = match_score_to_elo(hi);
    r.error = (r.hi - r.lo) / 2.0;
    if (r.elo == 0.0)
        r.elo = 0.0; /* no "-0.0" in tables */
    /* One-sided or uniform records (all draws, all wins) give no interval. */
    r.valid = s > 0.0 && s < 1.0 && var > 0.0 && isfinite(r.error);
    return r;
}

MatchElo match_elo_trinomial(int wins, int draws, int losses)
{
    const double a[3] = {0.0, 0.5, 1.0};
    const double c[3] = {losses, draws, wins};
    return match_elo_from(a, c, 3);
}

MatchElo match_elo_pentanomial(const int penta[5])
{
    /* A pair's value is its mean score per game: 0, 1/4, ..., 1. */
    const double a[5] = {0.0, 0.25, 0.5, 0.75, 1.0};
    const double c[5] = {penta[0], penta[1], penta[2], penta[3], penta[4]};
    return match_elo_from(a, c, 5);
}

double match_los(int wins, int losses)
{
    if (wins + losses == 0)
        return 0.5;
    return 0.5 * (1.0 + erf((double)(wins - losses) / sqrt(2.0 * (wins + losses))));
}

void match_sprt_bounds(double alpha, double beta, double *lower, double *upper)
{
    *lower = log(beta / (1.0 - alpha));
    *upper = log((1.0 - beta) / alpha);
}

/* The maximum-likelihood distribution with mean score s near the observed
 * frequencies phat: p[i] = phat[i] / (1 + lambda (a[i] - s)), where lambda
 * makes the mean exactly s. The mean constraint is monotone in lambda, so
 * bisection over lambda's admissible interval finds it. */
static void match_mle(const double *a, const double *phat, int k, double s, double *p)
{
    double amin = a[0], amax = a[0];
    for (int i = 1; i < k; i++) {
        amin = a[i] < amin ? a[i] : amin;
        amax = a[i] > amax ? a[i] : amax;
    }
    double lo = -1.0 / (amax - s), hi = 1.0 / (s - amin);
    for (int it = 0; it < 200; it++) {
        double mid = 0.5 * (lo + hi), f = 0;
        for (int i = 0; i < k; i++)
            f += phat[i] * (a[i] - s) / (1.0 + mid * (a[i] - s));
        if (f > 0)
            lo = mid;
        else
            hi = mid;
    }
    double lambda = 0.5 * (lo + hi);
    for (int i = 0; i < k; i++)
        p[i] = phat[i] / (1.0 + lambda * (a[i] - s));
}

static double match_llr(const double *a, const int *counts, int k, double elo0, double elo1)
{
    double c[5], n = 0, real = 0;
    for (int i = 0; i < k; i++) {
        real += counts[i];
        c[i] = counts[i] > 0 ? counts[i] : MATCH_EMPTY_CELL;
        n += c[i];
    }
    if (real <= 0)
        return 0.0;
    double phat[5], p0[5], p1[5];
    for (int i = 0; i < k; i++)
        phat[i] = c[i] / n;
    match_mle(a, phat, k, match_elo_to_score(elo0), p0);
    match_mle(a, phat, k, match_elo_to_score(elo1), p1);
    double llr = 0;
    for (int i = 0; i < k; i++)
        llr += c[i] * log(p1[i] / p0[i]);
    return llr;
}

double match_sprt_llr_trinomial(int wins, int draws, int losses, double elo0, double elo1)
{
    const double a[3] = {0.0, 0.5, 1.0};
    const int c[3] = {losses, draws, wins};
    return match_llr(a, c, 3, elo0, elo1);
}

double match_sprt_llr_pentanomial(const int penta[5], double elo0, double elo1)
{
    const double a[5] = {0.0, 0.25, 0.5, 0.75, 1.0};
    return match_llr(a, penta, 5, elo0, elo1);
}
