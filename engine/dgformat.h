/* dgformat.h — the training positions of `chariot datagen` as text lines and
 * as packed binary records (docs/NNUE.md, "Data format"), and the
 * conversion between the two.
 *
 * Text: "FEN | RESULT | SCORE", result 1 / 0.5 / 0 and score in centipawns,
 * both from Red's point of view.
 * Binary: a 32-byte header, then 32-byte records, little-endian:
 *   record bytes 0-11   occupancy, bit s = square s (rank * 9 + file) holds a
 *                       piece; bits 90-91 the result (0 Black won, 1 draw,
 *                       2 Red won), bit 92 the side to move (1 Black),
 *                       bits 93-95 zero
 *   record bytes 12-27  one 4-bit piece code (board.h's Piece: Red 1-7,
 *                       Black 9-15) per occupied square in square order,
 *                       the first in the low nibble; unused nibbles zero
 *   record bytes 28-29  score, int16, centipawns, Red's point of view
 *   record bytes 30-31  uint16: bits 0-6 the 60-move counter (plies),
 *                       bits 7-15 the FEN move number
 *   header bytes 0-3    magic "CXDG"; 4-5 version (1); 6-7 record size (32)
 *   header bytes 8-15   the datagen run's seed (0 when not from a run)
 *   header bytes 16-19  the run's settings fingerprint (0: not from a run)
 *   header bytes 20-23  games completed; 24-31 records committed
 * Bytes after the committed records are the remains of a killed run: readers
 * ignore them and datagen cuts them when it continues the run. */
#ifndef CHARIOT_DGFORMAT_H
#define CHARIOT_DGFORMAT_H

#include <stdbool.h>
#include <stddef.h>
#include <stdint.h>
#include <stdio.h>

#include "board.h"

enum {
    DG_RECORD_SIZE = 32,
    DG_HEADER_SIZE = 32,
    DG_FORMAT_VERSION = 1,
    DG_MAX_PIECES = 32,
    DG_MAX_HALFMOVE = 127, /* 7 bits; the 60-move rule ends a game at 120 */
    DG_MAX_FULLMOVE = 511, /* 9 bits; datagen games end by ply 400 */
    DG_LINE_MAX = 192
};

/* Game results as stored: twice Red's score. */
enum { DG_BLACK_WON = 0, DG_DRAW = 1, DG_RED_WON = 2 };

typedef struct DgRecord {
    uint8_t b[DG_RECORD_SIZE];
} DgRecord;

typedef struct DgHeader {
    uint64_t seed;
    uint32_t config;  /* settings fingerprint of the datagen run; 0 when none */
    uint32_t games;   /* games completed (in this file's sequence) */
    uint64_t records; /* records committed */
} DgHeader;

/* A position with its labels, as both formats hold it. */
typedef struct DgEntry {
    Board board;
    int score_red; /* centipawns, Red's point of view */
    int result;    /* DG_BLACK_WON, DG_DRAW or DG_RED_WON */
} DgEntry;

/* Packs b with its labels. False (with a reason) when a field does not fit
 * the record: a score outside int16, a counter above its maximum. */
bool dg_pack(const Board *b, int score_red, int result, DgRecord *out, char *err, size_t errlen);
/* Sets the result of a packed record (datagen packs before the game ends). */
void dg_set_result(DgRecord *rec, int result);
/* Unpacks and checks a record (reserved bits, piece codes, a legal FEN).
 * False with a reason when the record is corrupt. */
bool dg_unpack(const DgRecord *rec, DgEntry *e, char *err, size_t errlen);

/* The fields a trainer needs, without building a Board: the occupied
 * squares in order with their pieces. Checks the codes only. */
typedef struct DgPieces {
    int count;
    uint8_t sq[DG_MAX_PIECES];
    uint8_t piece[DG_MAX_PIECES];
    int side;      /* RED or BLACK to move */
    int score_red;
    int result;
} DgPieces;
bool dg_record_pieces(const DgRecord *rec, DgPieces *out);

/* "FEN | RESULT | SCORE" (no newline) into out, DG_LINE_MAX bytes. */
void dg_format_line(const DgEntry *e, char *out, size_t outlen);
/* Parses a text line (a trailing CR/LF is allowed). False with a reason. */
bool dg_parse_line(const char *line, DgEntry *e, char *err, size_t errlen);

void dg_header_encode(const DgHeader *h, uint8_t out[DG_HEADER_SIZE]);
/* False with a reason when the bytes are not a header of this format. */
bool dg_header_decode(const uint8_t in[DG_HEADER_SIZE], DgHeader *h, char *err, size_t errlen);
/* Whether the first bytes of a file are a binary data header's magic. */
bool dg_is_binary(const uint8_t *start, size_t n);

/* A reader of either format, chosen by the file's first bytes. */
typedef struct DgReader {
    FILE *f;
    bool binary;
    uint64_t records; /* binary: committed records; text: unknown (0) */
    uint64_t index;   /* entries read so far */
    long long line;   /* text: current line number */
    const char *path;
} DgReader;

/* Opens path. False with a reason (unreadable, a binary file shorter than
 * its header says: truncated). */
bool dg_reader_open(DgReader *r, const char *path, char *err, size_t errlen);
/* Reads the next entry: 1 read, 0 at the end, -1 on a corrupt entry (the
 * reason in err, naming the file and the record or line). */
int dg_reader_next(DgReader *r, DgEntry *e, char *err, size_t errlen);
/* The next binary record without unpacking it (binary readers only). */
int dg_reader_next_record(DgReader *r, DgRecord *rec, char *err, size_t errlen);
void dg_reader_close(DgReader *r);

#endif
