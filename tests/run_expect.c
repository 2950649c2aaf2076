/* run_expect.c — runs a command and checks its exit code, that it finishes
 * within a time limit, and that stdout/stderr contain given text.
 * usage: run_expect CODE [--stdout TEXT] [--stderr TEXT] [--timeout S] -- CMD ARGS... */
#include <poll.h>
#include <signal.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <sys/wait.h>
#include <time.h>
#include <unistd.h>

static char out_buf[1 << 20], err_buf[1 << 16];

int main(int argc, char **argv)
{
    int i = 1;
    if (argc < 4) {
        fprintf(stderr, "usage: run_expect CODE [--stdout T] [--stderr T] [--timeout S] -- CMD...\n");
        return 2;
    }
    int want = atoi(argv[i++]);
    const char *want_out = NULL, *want_err = NULL;
    int timeout = 120;
    for (; i < argc && strcmp(argv[i], "--") != 0; i++) {
        if (strcmp(argv[i], "--stdout") == 0 && i + 1 < argc)
            want_out = argv[++i];
        else if (strcmp(argv[i], "--stderr") == 0 && i + 1 < argc)
            want_err = argv[++i];
        else if (strcmp(argv[i], "--timeout") == 0 && i + 1 < argc)
            timeout = atoi(argv[++i]);
    }
    if (i >= argc - 1) {
        fprintf(stderr, "run_expect: no command\n");
        return 2;
    }
    char **cmd = argv + i + 1;
    int po[2], pe[2];
    if (pipe(po) || pipe(pe))
        return 2;
    pid_t pid = fork();
    if (pid == 0) {
        dup2(po[1], 1);
        dup2(pe[1], 2);
        close(po[0]);
        close(pe[0]);
        execv(cmd[0], cmd);
        _exit(127);
    }
    close(po[1]);
    close(pe[1]);
    size_t no = 0, ne = 0;
    time_t start = time(NULL);
    int open_fds = 2;
    struct pollfd fds[2] = {{po[0], POLLIN, 0}, {pe[0], POLLIN, 0}};
    while (open_fds > 0) {
        if (time(NULL) - start > timeout) {
            kill(pid, SIGKILL);
            fprintf(stderr, "run_expect: timed out after %d s\n", timeout);
            return 1;
        }
        if (poll(fds, 2, 1000) <= 0)
            continue;
        for (int k = 0; k < 2; k++) {
            if (fds[k].fd < 0 || !(fds[k].revents & (POLLIN | POLLHUP)))
                continue;
            char *buf = k ? err_buf : out_buf;
            size_t *n = k ? &ne : &no;
            size_t cap = (k ? sizeof err_buf : sizeof out_buf) - 1;
            char tmp[4096];
            ssize_t r = read(fds[k].fd, tmp, sizeof tmp);
            if (r <= 0) {
                close(fds[k].fd);
                fds[k].fd = -1;
                open_fds--;
                continue;
            }
            size_t take = (size_t)r < cap - *n ? (size_t)r : cap - *n;
            memcpy(buf + *n, tmp, take);
            *n += take;
        }
    }
    out_buf[no] = 0;
    err_buf[ne] = 0;
    int status;
    waitpid(pid, &status, 0);
    int code = WIFEXITED(status) ? WEXITSTATUS(status) : 128 + WTERMSIG(status);
    int bad = 0;
    if (code != want) {
        fprintf(stderr, "run_expect: exit code %d, expected %d\n", code, want);
        bad = 1;
    }
    if (want_out && !strstr(out_buf, want_out)) {
        fprintf(stderr, "run_expect: stdout lacks '%s'\n", want_out);
        bad = 1;
    }
    if (want_err && !strstr(err_buf, want_err)) {
        fprintf(stderr, "run_expect: stderr lacks '%s'\n", want_err);
        bad = 1;
    }
    if (bad)
        fprintf(stderr, "--- stdout ---\n%.4000s\n--- stderr ---\n%.4000s\n", out_buf, err_buf);
    return bad;
}
