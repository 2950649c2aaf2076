/* match_json.c — a small JSON reader for the runner's own files: shard summaries and progress journals. */
#include <ctype.h>
#include <errno.h>
#include <stdlib.h>
#include <string.h>

#include "match.h"

/* Deeper nesting than this is not ours: refuse it rather than recurse without bound. */
enum { MATCH_JSON_DEPTH_MAX = 32 };

typedef struct JsonParser {
    const char *text;
    size_t pos, len;
    char *err;
    size_t errlen;
} JsonParser;

static bool json_fail(JsonParser *p, const char *what)
{
    if (p->err && p->err[0] == '\0')
        snprintf(p->err, p->errlen, "%s at offset %zu", what, p->pos);
    return false;
}

static void json_skip_space(JsonParser *p)
{
    while (p->pos < p->len && isspace((unsigned char)p->text[p->pos]))
        p->pos++;
}

static MatchJson *json_new(MatchJsonType type, size_t start)
{
    MatchJson *v = calloc(1, sizeof *v);
    if (v) {
        v->type = type;
        v->start = start;
    }
    return v;
}

/* Appends one UTF-8 encoded code point. */
static size_t json_put_utf8(char *out, unsigned cp)
{
    if (cp < 0x80) {
        out[0] = (char)cp;
        return 1;
    }
    if (cp < 0x800) {
        out[0] = (char)(0xC0 | (cp >> 6));
        out[1] = (char)(0x80 | (cp & 0x3F));
        return 2;
    }
    if (cp < 0x10000) {
        out[0] = (char)(0xE0 | (cp >> 12));
        out[1] = (char)(0x80 | ((cp >> 6) & 0x3F));
        out[2] = (char)(0x80 | (cp & 0x3F));
        return 3;
    }
    out[0] = (char)(0xF0 | (cp >> 18));
    out[1] = (char)(0x80 | ((cp >> 12) & 0x3F));
    out[2] = (char)(0x80 | ((cp >> 6) & 0x3F));
    out[3] = (char)(0x80 | (cp & 0x3F));
    return 4;
}

static bool json_hex4(JsonParser *p, unsigned *out)
{
    if (p->pos + 4 > p->len)
        return json_fail(p, "short \\u escape");
    unsigned v = 0;
    for (int i = 0; i < 4; i++) {
        char c = p->text[p->pos++];
        v <<= 4;
        if (c >= '0' && c <= '9')
            v |= (unsigned)(c - '0');
        else if (c >= 'a' && c <= 'f')
            v |= (unsigned)(c - 'a' + 10);
        else if (c >= 'A' && c <= 'F')
            v |= (unsigned)(c - 'A' + 10);
        else
            return json_fail(p, "bad \\u escape");
    }
    *out = v;
    return true;
}

/* Reads a string literal (p->pos at the opening quote) into a new buffer. */
static bool json_string(JsonParser *p, char **out)
{
    p->pos++;
    /* escapes never make the text longer, except \u (6 bytes -> at most 4) */
    char *s = malloc(p->len - p->pos + 1), *w = s;
    if (!s)
        return json_fail(p, "out of memory");
    for (;;) {
        if (p->pos >= p->len) {
            free(s);
            return json_fail(p, "unterminated string");
        }
        char c = p->text[p->pos++];
        if (c == '"')
            break;
        if ((unsigned char)c < 0x20) {
            free(s);
            return json_fail(p, "control character in string");
        }
        if (c != '\\') {
            *w++ = c;
            continue;
        }
        if (p->pos >= p->len) {
            free(s);
            return json_fail(p, "unterminated escape");
        }
        c = p->text[p->pos++];
        unsigned cp;
        switch (c) {
        case '"': case '\\': case '/': *w++ = c; break;
        case 'b': *w++ = '\b'; break;
        case 'f': *w++ = '\f'; break;
        case 'n': *w++ = '\n'; break;
        case 'r': *w++ = '\r'; break;
        case 't': *w++ = '\t'; break;
        case 'u':
            if (!json_hex4(p, &cp)) {
                free(s);
                return false;
            }
            /* a surrogate pair makes one code point; a lone half is kept as is */
            if (cp >= 0xD800 && cp < 0xDC00 && p->pos + 6 <= p->len && p->text[p->pos] == '\\' &&
                p->text[p->pos + 1] == 'u') {
                size_t save = p->pos;
                unsigned lo;
                p->pos += 2;
                if (json_hex4(p, &lo) && lo >= 0xDC00 && lo < 0xE000)
                    cp = 0x10000 + ((cp - 0xD800) << 10) + (lo - 0xDC00);
                else
                    p->pos = save;
            }
            w += json_put_utf8(w, cp);
            break;
        default:
            free(s);
            return json_fail(p, "bad escape");
        }
    }
    *w = '\0';
    *out = s;
    return true;
}

static MatchJson *json_value(JsonParser *p, int depth);

static MatchJson *json_container(JsonParser *p, int depth, bool object)
{
    MatchJson *v = json_new(object ? MATCH_JSON_OBJECT : MATCH_JSON_ARRAY, p->pos);
    if (!v) {
        json_fail(p, "out of memory");
        return NULL;
    }
    char close = object ? '}' : ']';
    MatchJson **tail = &v->child;
    p->pos++;
    json_skip_space(p);
    if (p->pos < p->len && p->text[p->pos] == close) {
        p->pos++;
        v->end = p->pos;
        return v;
    }
    for (;;) {
        char *key = NULL;
        json_skip_space(p);
        if (object) {
            if (p->pos >= p->len || p->text[p->pos] != '"' || !json_string(p, &key)) {
                json_fail(p, "expected a member name");
                break;
            }
            json_skip_space(p);
            if (p->pos >= p->len || p->text[p->pos] != ':') {
                free(key);
                json_fail(p, "expected ':'");
                break;
            }
            p->pos++;
        }
        MatchJson *item = json_value(p, depth + 1);
        if (!item) {
            free(key);
            break;
        }
        item->key = key;
        *tail = item;
        tail = &item->next;
        json_skip_space(p);
        if (p->pos < p->len && p->text[p->pos] == ',') {
            p->pos++;
            continue;
        }
        if (p->pos < p->len && p->text[p->pos] == close) {
            p->pos++;
            v->end = p->pos;
            return v;
        }
        json_fail(p, object ? "expected ',' or '}'" : "expected ',' or ']'");
        break;
    }
    match_json_free(v);
    return NULL;
}

static MatchJson *json_value(JsonParser *p, int depth)
{
    if (depth > MATCH_JSON_DEPTH_MAX) {
        json_fail(p, "nested too deeply");
        return NULL;
    }
    json_skip_space(p);
    if (p->pos >= p->len) {
        json_fail(p, "unexpected end");
        return NULL;
    }
    char c = p->text[p->pos];
    size_t start = p->pos;
    if (c == '{' || c == '[')
        return json_container(p, depth, c == '{');
    MatchJson *v = NULL;
    if (c == '"') {
        char *s;
        if (!json_string(p, &s))
            return NULL;
        if (!(v = json_new(MATCH_JSON_STRING, start))) {
            free(s);
            json_fail(p, "out of memory");
            return NULL;
        }
        v->str = s;
    } else if (c == '-' || isdigit((unsigned char)c)) {
        /* keep the text: integers are read with strtoll, others with strtod */
        size_t end = p->pos + 1;
        while (end < p->len && (isdigit((unsigned char)p->text[end]) || strchr("+-.eE", p->text[end])))
            end++;
        char *s = malloc(end - p->pos + 1);
        if (!s || !(v = json_new(MATCH_JSON_NUMBER, start))) {
            free(s);
            json_fail(p, "out of memory");
            return NULL;
        }
        memcpy(s, p->text + p->pos, end - p->pos);
        s[end - p->pos] = '\0';
        char *stop;
        errno = 0;
        (void)strtod(s, &stop);
        if (*stop || errno == EINVAL) {
            free(s);
            free(v);
            json_fail(p, "bad number");
            return NULL;
        }
        v->str = s;
        p->pos = end;
    } else {
        static const struct {
            const char *word;
            MatchJsonType type;
            bool value;
        } words[] = {{"true", MATCH_JSON_BOOL, true}, {"false", MATCH_JSON_BOOL, false}, {"null", MATCH_JSON_NULL, false}};
        for (size_t i = 0; i < sizeof words / sizeof words[0]; i++) {
            size_t n = strlen(words[i].word);
            if (p->pos + n <= p->len && strncmp(p->text + p->pos, words[i].word, n) == 0) {
                if (!(v = json_new(words[i].type, start))) {
                    json_fail(p, "out of memory");
                    return NULL;
                }
                v->boolean = words[i].value;
                p->pos += n;
                break;
            }
        }
        if (!v) {
            json_fail(p, "unexpected character");
            return NULL;
        }
    }
    v->end = p->pos;
    return v;
}

MatchJson *match_json_parse(const char *text, size_t len, char *err, size_t errlen)
{
    JsonParser p = {text, 0, len, err, errlen};
    if (err && errlen)
        err[0] = '\0';
    MatchJson *v = json_value(&p, 0);
    if (!v)
        return NULL;
    json_skip_space(&p);
    if (p.pos != p.len) {
        json_fail(&p, "trailing characters");
        match_json_free(v);
        return NULL;
    }
    return v;
}

void match_json_free(MatchJson *v)
{
    while (v) {
        MatchJson *next = v->next;
        match_json_free(v->child);
        free(v->key);
        free(v->str);
        free(v);
        v = next;
    }
}

const MatchJson *match_json_get(const MatchJson *obj, const char *key)
{
    if (!obj || obj->type != MATCH_JSON_OBJECT)
        return NULL;
    for (const MatchJson *c = obj->child; c; c = c->next)
        if (strcmp(c->key, key) == 0)
            return c;
    return NULL;
}

const MatchJson *match_json_at(const MatchJson *arr, int index)
{
    if (!arr || arr->type != MATCH_JSON_ARRAY || index < 0)
        return NULL;
    const MatchJson *c = arr->child;
    while (c && index-- > 0)
        c = c->next;
    return c;
}

bool match_json_ll(const MatchJson *v, long long *out)
{
    if (!v || v->type != MATCH_JSON_NUMBER)
        return false;
    char *end;
    errno = 0;
    long long n = strtoll(v->str, &end, 10);
    if (*end || errno)
        return false;
    *out = n;
    return true;
}

bool match_json_double(const MatchJson *v, double *out)
{
    if (!v || v->type != MATCH_JSON_NUMBER)
        return false;
    *out = strtod(v->str, NULL);
    return true;
}

const char *match_json_str(const MatchJson *v)
{
    return v && v->type == MATCH_JSON_STRING ? v->str : NULL;
}

bool match_json_equal(const MatchJson *a, const MatchJson *b)
{
    if (!a || !b || a->type != b->type)
        return a == b;
    switch (a->type) {
    case MATCH_JSON_NULL:
        return true;
    case MATCH_JSON_BOOL:
        return a->boolean == b->boolean;
    case MATCH_JSON_NUMBER:
    case MATCH_JSON_STRING:
        return strcmp(a->str, b->str) == 0;
    case MATCH_JSON_ARRAY:
    case MATCH_JSON_OBJECT: {
        const MatchJson *x = a->child, *y = b->child;
        for (; x && y; x = x->next, y = y->next)
            if ((x->key || y->key) && (!x->key || !y->key || strcmp(x->key, y->key) != 0))
                return false;
            else if (!match_json_equal(x, y))
                return false;
        return !x && !y;
    }
    }
    return false;
}

char *match_file_read(const char *path, size_t *len)
{
    FILE *f = fopen(path, "rb");
    if (!f)
        return NULL;
    size_t cap = 1 << 16, n = 0;
    char *buf = malloc(cap + 1);
    while (buf) {
        size_t got = fread(buf + n, 1, cap - n, f);
        n += got;
        if (n < cap)
            break;
        char *grown = realloc(buf, cap * 2 + 1);
        if (!grown) {
            free(buf);
            buf = NULL;
            break;
        }
        buf = grown;
        cap *= 2;
    }
    bool bad = ferror(f);
    fclose(f);
    if (!buf || bad) {
        free(buf);
        return NULL;
    }
    buf[n] = '\0';
    *len = n;
    return buf;
}
