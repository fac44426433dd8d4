// Written by the judge after the user's last line: calls FUNCTION_NAME once per input line,
// as Programmers' C template declares it (an array comes with its length, `arr_len`, a table
// with `arr_rows` and `arr_cols`), each call in a child forked before it, so that every call
// starts from the state the program had when it began (globals and statics as initialised).
#undef main  // the user's, kept for trying the file, was renamed (`harness::prelude`)
#include <errno.h>
#include <signal.h>
#include <stdbool.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <sys/mman.h>
#include <sys/resource.h>
#include <sys/wait.h>
#include <time.h>
#include <unistd.h>

typedef struct { const char* text; size_t at; } judge_call_cursor;

static void judge_call_skip(judge_call_cursor* c) {
    while (c->text[c->at] == ' ' || c->text[c->at] == '\t' || c->text[c->at] == '\r') c->at++;
}
static void judge_call_comma(judge_call_cursor* c) {
    judge_call_skip(c);
    if (c->text[c->at] == ',') c->at++;
}
static long long judge_call_long(judge_call_cursor* c) {
    judge_call_skip(c);
    char* end;
    long long v = strtoll(c->text + c->at, &end, 10);
    c->at = (size_t)(end - c->text);
    return v;
}
static double judge_call_double(judge_call_cursor* c) {
    judge_call_skip(c);
    char* end;
    double v = strtod(c->text + c->at, &end);
    c->at = (size_t)(end - c->text);
    return v;
}
static bool judge_call_bool(judge_call_cursor* c) {
    judge_call_skip(c);
    bool v = strncmp(c->text + c->at, "true", 4) == 0;
    c->at += v ? 4 : 5;
    return v;
}
/* After `\u`: its code unit (and a low surrogate's after it) as UTF-8 at `out`; its length. */
static size_t judge_call_unescape_utf16(judge_call_cursor* c, char* out) {
    char digits[5] = {0};
    memcpy(digits, c->text + c->at, 4);
    c->at += 4;
    unsigned long point = strtoul(digits, NULL, 16);
    if (point >= 0xD800 && point < 0xDC00 && strncmp(c->text + c->at, "\\u", 2) == 0) {
        memcpy(digits, c->text + c->at + 2, 4);
        c->at += 6;
        point = 0x10000 + ((point - 0xD800) << 10) + (strtoul(digits, NULL, 16) - 0xDC00);
    }
    if (point < 0x80) {
        out[0] = (char)point;
        return 1;
    }
    if (point < 0x800) {
        out[0] = (char)(0xC0 | point >> 6), out[1] = (char)(0x80 | (point & 0x3F));
        return 2;
    }
    if (point < 0x10000) {
        out[0] = (char)(0xE0 | point >> 12), out[1] = (char)(0x80 | (point >> 6 & 0x3F));
        out[2] = (char)(0x80 | (point & 0x3F));
        return 3;
    }
    out[0] = (char)(0xF0 | point >> 18), out[1] = (char)(0x80 | (point >> 12 & 0x3F));
    out[2] = (char)(0x80 | (point >> 6 & 0x3F)), out[3] = (char)(0x80 | (point & 0x3F));
    return 4;
}
static char* judge_call_string(judge_call_cursor* c) {
    judge_call_skip(c);
    c->at++;
    size_t cap = 16, n = 0;
    char* s = malloc(cap);
    while (c->text[c->at] != '"') {
        char d = c->text[c->at++];
        if (n + 5 > cap) s = realloc(s, cap *= 2);
        if (d == '\\') {
            char e = c->text[c->at++];
            if (e == 'u') {
                n += judge_call_unescape_utf16(c, s + n);
                continue;
            }
            d = e == 'n' ? '\n' : e == 't' ? '\t' : e == 'r' ? '\r' : e == 'b' ? '\b' : e == 'f' ? '\f' : e;
        }
        s[n++] = d;
    }
    c->at++;
    s[n] = '\0';
    return s;
}
// Each reads one item into `out`.
static void judge_call_read_int(judge_call_cursor* c, void* out) { *(int*)out = (int)judge_call_long(c); }
static void judge_call_read_long(judge_call_cursor* c, void* out) { *(long long*)out = judge_call_long(c); }
static void judge_call_read_double(judge_call_cursor* c, void* out) { *(double*)out = judge_call_double(c); }
static void judge_call_read_bool(judge_call_cursor* c, void* out) { *(bool*)out = judge_call_bool(c); }
static void judge_call_read_string(judge_call_cursor* c, void* out) { *(char**)out = judge_call_string(c); }

// A list of items of `size` bytes, each read by `read`; its length in `len`.
static void* judge_call_list(judge_call_cursor* c, size_t size, void (*read)(judge_call_cursor*, void*), size_t* len) {
    size_t cap = 4;
    char* items = malloc(cap * size);
    *len = 0;
    judge_call_skip(c);
    c->at++;
    judge_call_skip(c);
    if (c->text[c->at] == ']') { c->at++; return items; }
    for (;;) {
        if (*len == cap) items = realloc(items, (cap *= 2) * size);
        read(c, items + *len * size);
        ++*len;
        judge_call_skip(c);
        if (c->text[c->at++] == ']') return items;
    }
}
// A list of lists, as Programmers passes `int[][]`: its rows, and the length of the first.
static void** judge_call_table(judge_call_cursor* c, size_t size, void (*read)(judge_call_cursor*, void*), size_t* rows, size_t* cols) {
    size_t cap = 4;
    void** table = malloc(cap * sizeof *table);
    *rows = 0;
    *cols = 0;
    judge_call_skip(c);
    c->at++;
    judge_call_skip(c);
    if (c->text[c->at] == ']') { c->at++; return table; }
    for (;;) {
        if (*rows == cap) table = realloc(table, (cap *= 2) * sizeof *table);
        size_t len;
        table[*rows] = judge_call_list(c, size, read, &len);
        if (*rows == 0) *cols = len;
        ++*rows;
        judge_call_skip(c);
        if (c->text[c->at++] == ']') return table;
    }
}

// Whatever the function returns, as the judge's page writes it.
static void judge_call_show_long(long long v) { printf("%lld", v); }
static void judge_call_show_bool(bool v) { fputs(v ? "true" : "false", stdout); }
static void judge_call_show_double(double v) {
    char text[64];
    snprintf(text, sizeof text, "%.17g", v);
    // The shortest of the forms that read back as the same number.
    for (int digits = 1; digits < 17; digits++) {
        char shorter[64];
        snprintf(shorter, sizeof shorter, "%.*g", digits, v);
        if (strtod(shorter, NULL) == v) { strcpy(text, shorter); break; }
    }
    fputs(text, stdout);
    if (!strpbrk(text, ".eni")) fputs(".0", stdout);
}
/* As JSON writes a string (Python's and JavaScript's callers print the same). */
static void judge_call_show_text(const char* v) {
    putchar('"');
    for (; *v; v++) {
        switch (*v) {
            case '"': fputs("\\\"", stdout); break;
            case '\\': fputs("\\\\", stdout); break;
            case '\n': fputs("\\n", stdout); break;
            case '\r': fputs("\\r", stdout); break;
            case '\t': fputs("\\t", stdout); break;
            case '\b': fputs("\\b", stdout); break;
            case '\f': fputs("\\f", stdout); break;
            default:
                if ((unsigned char)*v < 0x20) printf("\\u%04x", *v);
                else putchar(*v);
        }
    }
    putchar('"');
}
#define JUDGE_CALL_SHOW(v) _Generic((v), \
    bool: judge_call_show_bool, \
    float: judge_call_show_double, \
    double: judge_call_show_double, \
    char*: judge_call_show_text, \
    const char*: judge_call_show_text, \
    default: judge_call_show_long)(v)

static long long judge_call_cpu_us(void) {
    struct timespec t;
    clock_gettime(CLOCK_PROCESS_CPUTIME_ID, &t);
    return t.tv_sec * 1000000LL + t.tv_nsec / 1000;
}

int main(void) {
    // The results go out on the standard output the judge reads; what the file prints goes to
    // standard error, as Programmers shows it beside the result and never grades it.
    int results = dup(1);
    if (results < 0 || dup2(2, 1) < 0) { perror("judge_call: dup"); return 1; }
    // The child hands its CPU time back through shared memory.
    long long* used = mmap(NULL, sizeof *used, PROT_READ | PROT_WRITE, MAP_SHARED | MAP_ANONYMOUS, -1, 0);
    if (used == MAP_FAILED) { perror("judge_call: mmap"); return 1; }
    size_t times_cap = 1024, times_len = 0;
    char* times = malloc(times_cap);
    times[0] = '\0';
    char* line = NULL;
    size_t line_cap = 0;
    while (getline(&line, &line_cap, stdin) >= 0) {
        if (strspn(line, " \t\r\n") == strlen(line)) continue;
        judge_call_cursor c = {line, 0};
        *used = -1;
        fflush(stdout);
        pid_t child = fork();
        if (child < 0) { perror("judge_call: fork"); return 1; }
        if (child == 0) {
        // READ_ARGUMENTS
            long long start = judge_call_cpu_us();
            __typeof__(FUNCTION_NAME(CALL_ARGUMENTS)) result = FUNCTION_NAME(CALL_ARGUMENTS);
            long long spent = judge_call_cpu_us() - start;
            fflush(stdout);
            dup2(results, 1);
            JUDGE_CALL_SHOW(result);
            putchar('\n');
            int failed = fflush(stdout) != 0;
            *used = spent;
            _exit(failed);
        }
        int status = 0;
        struct rusage usage = {0};
        while (wait4(child, &status, 0, &usage) < 0 && errno == EINTR) {}
        int failed = !WIFEXITED(status) || WEXITSTATUS(status) != 0 || *used < 0;
        // A failed call's time is its child's, and goes out with the others: the judge holds
        // it to the limit.
        long long spent = failed
            ? (usage.ru_utime.tv_sec + usage.ru_stime.tv_sec) * 1000000LL + usage.ru_utime.tv_usec + usage.ru_stime.tv_usec
            : *used;
        char figure[32];
        int n = snprintf(figure, sizeof figure, "%s%lld", times_len ? "," : "", spent);
        if (times_len + (size_t)n + 1 > times_cap) times = realloc(times, times_cap *= 2);
        memcpy(times + times_len, figure, (size_t)n + 1);
        times_len += (size_t)n;
        if (!failed) continue;
        fprintf(stderr, "\nCALL_TIMES_MARKER%s\n", times);
        if (WIFSIGNALED(status)) {
            signal(WTERMSIG(status), SIG_DFL);
            raise(WTERMSIG(status));
        }
        if (WIFEXITED(status) && WEXITSTATUS(status) != 0) return WEXITSTATUS(status);
        fputs("the call ended the program before it returned (exit 0)\n", stderr);
        return 1;
    }
    fprintf(stderr, "\nCALL_TIMES_MARKER%s\n", times);
    return 0;
}
