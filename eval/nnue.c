/* nnue.c — the network's file and its integer evaluation from scratch (nnue.h). */
#include "nnue.h"

#include <string.h>

enum { NNUE_HEADER_BYTES = 16, NNUE_CHECKSUM_BYTES = 4 };
static const uint8_t NNUE_MAGIC[4] = {'C', 'X', 'N', 'N'};

size_t nnue_file_size(void)
{
    return NNUE_HEADER_BYTES + 2 * ((size_t)NNUE_INPUTS * NNUE_HIDDEN + NNUE_HIDDEN + 2 * NNUE_HIDDEN) + 4 +
           NNUE_CHECKSUM_BYTES;
}

static uint32_t fnv1a(uint32_t h, const uint8_t *p, size_t n)
{
    for (size_t i = 0; i < n; i++)
        h = (h ^ p[i]) * 16777619u;
    return h;
}

/* Writes bytes to f and folds them into the checksum. */
static bool put_bytes(FILE *f, uint32_t *h, const uint8_t *p, size_t n)
{
    *h = fnv1a(*h, p, n);
    return fwrite(p, 1, n, f) == n;
}

static bool put_i16s(FILE *f, uint32_t *h, const int16_t *v, size_t n)
{
    uint8_t buf[512];
    for (size_t i = 0; i < n;) {
        size_t k = 0;
        for (; k + 2 <= sizeof buf && i < n; i++, k += 2) {
            const uint16_t u = (uint16_t)v[i];
            buf[k] = (uint8_t)u;
            buf[k + 1] = (uint8_t)(u >> 8);
        }
        if (!put_bytes(f, h, buf, k))
            return false;
    }
    return true;
}

bool nnue_write(FILE *f, const NnueNet *net)
{
    uint32_t h = 2166136261u;
    uint8_t head[NNUE_HEADER_BYTES];
    const uint16_t fields[6] = {NNUE_FILE_VERSION, NNUE_INPUTS, NNUE_HIDDEN, NNUE_QA, NNUE_QB, NNUE_SCALE};
    memcpy(head, NNUE_MAGIC, 4);
    for (int i = 0; i < 6; i++) {
        head[4 + 2 * i] = (uint8_t)fields[i];
        head[5 + 2 * i] = (uint8_t)(fields[i] >> 8);
    }
    uint8_t b2[4], sum[4];
    for (int i = 0; i < 4; i++)
        b2[i] = (uint8_t)((uint32_t)net->b2 >> (8 * i));
    bool ok = put_bytes(f, &h, head, sizeof head) && put_i16s(f, &h, net->w1, (size_t)NNUE_INPUTS * NNUE_HIDDEN) &&
              put_i16s(f, &h, net->b1, NNUE_HIDDEN) && put_i16s(f, &h, net->w2, 2 * NNUE_HIDDEN) &&
              put_bytes(f, &h, b2, sizeof b2);
    for (int i = 0; i < 4; i++)
        sum[i] = (uint8_t)(h >> (8 * i));
    return ok && fwrite(sum, 1, sizeof sum, f) == sizeof sum;
}

static int16_t get_i16(const uint8_t *p) { return (int16_t)(uint16_t)(p[0] | p[1] << 8); }

bool nnue_read(const uint8_t *data, size_t size, NnueNet *net, char *err, size_t errlen)
{
    if (size < NNUE_HEADER_BYTES || memcmp(data, NNUE_MAGIC, 4) != 0) {
        snprintf(err, errlen, "not a Chariot network (no CXNN header)");
        return false;
    }
    const int want[6] = {NNUE_FILE_VERSION, NNUE_INPUTS, NNUE_HIDDEN, NNUE_QA, NNUE_QB, NNUE_SCALE};
    for (int i = 0; i < 6; i++)
        if ((uint16_t)get_i16(data + 4 + 2 * i) != want[i]) {
            snprintf(err, errlen,
                     "a network of another shape (version %d, %d inputs, %d neurons, QA %d, QB %d, scale %d; "
                     "this build: %d, %d, %d, %d, %d, %d)",
                     (uint16_t)get_i16(data + 4), (uint16_t)get_i16(data + 6), (uint16_t)get_i16(data + 8),
                     (uint16_t)get_i16(data + 10), (uint16_t)get_i16(data + 12), (uint16_t)get_i16(data + 14),
                     want[0], want[1], want[2], want[3], want[4], want[5]);
            return false;
        }
    if (size != nnue_file_size()) {
        snprintf(err, errlen, "%zu bytes, expected %zu (truncated or padded)", size, nnue_file_size());
        return false;
    }
    const size_t body = size - NNUE_CHECKSUM_BYTES;
    const uint8_t *s = data + body;
    const uint32_t stored = (uint32_t)s[0] | (uint32_t)s[1] << 8 | (uint32_t)s[2] << 16 | (uint32_t)s[3] << 24;
    if (fnv1a(2166136261u, data, body) != stored) {
        snprintf(err, errlen, "checksum mismatch (a damaged file)");
        return false;
    }
    const uint8_t *p = data + NNUE_HEADER_BYTES;
    for (size_t i = 0; i < (size_t)NNUE_INPUTS * NNUE_HIDDEN; i++, p += 2)
        net->w1[i] = get_i16(p);
    for (int i = 0; i < NNUE_HIDDEN; i++, p += 2)
        net->b1[i] = get_i16(p);
    for (int i = 0; i < 2 * NNUE_HIDDEN; i++, p += 2)
        net->w2[i] = get_i16(p);
    net->b2 = (int32_t)((uint32_t)p[0] | (uint32_t)p[1] << 8 | (uint32_t)p[2] << 16 | (uint32_t)p[3] << 24);
    return true;
}

int nnue_evaluate_pieces(const NnueNet *net, int count, const uint8_t *sq, const uint8_t *piece, int side)
{
    int32_t acc[2][NNUE_HIDDEN];
    for (int v = 0; v < 2; v++) {
        const int view = v == 0 ? side : side ^ 1;
        for (int j = 0; j < NNUE_HIDDEN; j++)
            acc[v][j] = net->b1[j];
        for (int i = 0; i < count; i++) {
            const int16_t *row = &net->w1[(size_t)nnue_feature(view, piece[i], sq[i]) * NNUE_HIDDEN];
            for (int j = 0; j < NNUE_HIDDEN; j++)
                acc[v][j] += row[j];
        }
    }
    int64_t sum = 0;
    for (int v = 0; v < 2; v++)
        for (int j = 0; j < NNUE_HIDDEN; j++) {
            const int32_t c = acc[v][j] < 0 ? 0 : acc[v][j] > NNUE_QA ? NNUE_QA : acc[v][j];
            sum += (int64_t)(c * net->w2[v * NNUE_HIDDEN + j]) * c;
        }
    sum = sum / NNUE_QA + net->b2;
    return (int)(sum * NNUE_SCALE / ((int64_t)NNUE_QA * NNUE_QB));
}
