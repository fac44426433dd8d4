/* The floor: the least a judge must do per case. For each case it spawns the solution with
 * stdin from the .in file, reads stdout through a pipe a chunk at a time and compares each
 * chunk with the same range of the expected file, read a chunk at a time too: no output is
 * ever held whole, so memory stays small and the compared bytes stay in cache. After a
 * mismatch the rest of the output is still drained, as a judge must to see all of it.
 * With -j N, N threads take cases from a shared counter.
 *
 * usage: floor [-j N] SOLUTION CASE_DIR [SOLUTION CASE_DIR ...]
 * Every NAME.in below CASE_DIR (recursively) with its NAME.out is a case of SOLUTION.
 * Prints the number of cases and of mismatches; exit 1 when any case mismatches. */
#define _GNU_SOURCE
#include <fcntl.h>
#include <ftw.h>
#include <pthread.h>
#include <spawn.h>
#include <stdatomic.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <sys/wait.h>
#include <unistd.h>

extern char **environ;

struct job {
    char *solution;
    char *input;
};

static char *current_solution;
static struct job *jobs_list;
static size_t capacity;
static size_t case_count;
static atomic_size_t next_case;
static atomic_size_t mismatches;

/* Bytes compared at a time: a pipe's default capacity, and small enough to stay in cache. */
#define CHUNK (1 << 16)

/* Reads until `buffer` holds `length` bytes or the file ends; returns the bytes read. */
static size_t read_full(int fd, char *buffer, size_t length) {
    size_t used = 0;
    while (used < length) {
        ssize_t got = read(fd, buffer + used, length - used);
        if (got <= 0) break;
        used += (size_t)got;
    }
    return used;
}

static void judge_one(const char *solution, const char *input) {
    int out[2];
    if (pipe2(out, O_CLOEXEC) != 0) abort();
    posix_spawn_file_actions_t actions;
    posix_spawn_file_actions_init(&actions);
    posix_spawn_file_actions_addopen(&actions, 0, input, O_RDONLY, 0);
    posix_spawn_file_actions_adddup2(&actions, out[1], 1);
    char *argv[] = {(char *)solution, NULL};
    pid_t pid;
    if (posix_spawn(&pid, solution, &actions, NULL, argv, environ) != 0) abort();
    posix_spawn_file_actions_destroy(&actions);
    close(out[1]);

    char expected_path[4096];
    snprintf(expected_path, sizeof expected_path, "%.*s.out", (int)(strlen(input) - 3), input);
    int expected = open(expected_path, O_RDONLY | O_CLOEXEC);
    if (expected < 0) abort();
    char got[CHUNK], want[CHUNK];
    int same = 1;
    for (;;) {
        ssize_t count = read(out[0], got, sizeof got);
        if (count <= 0) break;
        if (same && (read_full(expected, want, (size_t)count) != (size_t)count || memcmp(got, want, (size_t)count) != 0)) same = 0;
    }
    /* The output ended: it matches only if the expected file ends there too. */
    if (same && read(expected, want, 1) != 0) same = 0;
    close(expected);
    close(out[0]);
    int status;
    waitpid(pid, &status, 0);
    if (!same) atomic_fetch_add(&mismatches, 1);
}

static void *worker(void *unused) {
    (void)unused;
    for (;;) {
        size_t index = atomic_fetch_add(&next_case, 1);
        if (index >= case_count) return NULL;
        judge_one(jobs_list[index].solution, jobs_list[index].input);
    }
}

static int add_case(const char *path, const struct stat *info, int kind, struct FTW *where) {
    (void)info;
    (void)where;
    size_t length = strlen(path);
    if (kind != FTW_F || length < 4 || strcmp(path + length - 3, ".in") != 0) return 0;
    if (case_count == capacity) jobs_list = realloc(jobs_list, (capacity = capacity ? capacity * 2 : 64) * sizeof *jobs_list);
    jobs_list[case_count].solution = current_solution;
    jobs_list[case_count].input = strdup(path);
    case_count++;
    return 0;
}

int main(int argc, char **argv) {
    int jobs = 1, first = 1;
    if (argc > 2 && strcmp(argv[1], "-j") == 0) {
        jobs = atoi(argv[2]);
        first = 3;
    }
    if (argc - first < 2 || (argc - first) % 2 != 0 || jobs < 1) {
        fprintf(stderr, "usage: floor [-j N] SOLUTION CASE_DIR [SOLUTION CASE_DIR ...]\n");
        return 2;
    }
    for (int i = first; i < argc; i += 2) {
        current_solution = argv[i];
        if (nftw(argv[i + 1], add_case, 16, FTW_PHYS) != 0) return 2;
    }
    pthread_t threads[64];
    if (jobs > 64) jobs = 64;
    for (int i = 0; i < jobs; i++) pthread_create(&threads[i], NULL, worker, NULL);
    for (int i = 0; i < jobs; i++) pthread_join(threads[i], NULL);
    printf("%zu cases, %zu mismatches\n", case_count, (size_t)mismatches);
    return mismatches ? 1 : 0;
}
