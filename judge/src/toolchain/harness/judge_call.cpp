// Written by the judge after the user's last line: calls FUNCTION_NAME once per input line,
// each call in a child forked before it (where the file may keep state), so that every call
// starts from the state the program had when it began (globals and statics as initialised),
// as a new process per test does.
// Here, and not in a file of its own, so that the compiler picks the function as a caller in
// the user's file would (a `const&` parameter, `auto`, an overload).
#ifdef int
#undef int  // `#define int long long` would make this file's `int main` another function
#endif
#undef main  // the user's, kept for trying the file, was renamed (`harness::prelude`)
#include <sched.h>
#include <sys/mman.h>
#include <sys/resource.h>
#include <sys/wait.h>
#include <unistd.h>

#include <cctype>
#include <cerrno>
#include <charconv>
#include <csignal>
#include <cstdio>
#include <ctime>
#include <iostream>
#include <string>
#include <string_view>
#include <type_traits>
#include <vector>

namespace judge_call {
struct Cursor {
    const std::string& text;
    size_t at;
    void skip() { while (at < text.size() && std::isspace((unsigned char)text[at])) at++; }
    void comma() { skip(); if (at < text.size() && text[at] == ',') at++; }
};
template <class T> struct Read;
template <> struct Read<long long> {
    static long long of(Cursor& c) { c.skip(); size_t used; long long v = std::stoll(c.text.substr(c.at), &used); c.at += used; return v; }
};
template <> struct Read<int> { static int of(Cursor& c) { return (int)Read<long long>::of(c); } };
template <> struct Read<double> {
    static double of(Cursor& c) { c.skip(); size_t used; double v = std::stod(c.text.substr(c.at), &used); c.at += used; return v; }
};
template <> struct Read<bool> {
    static bool of(Cursor& c) { c.skip(); bool v = c.text.compare(c.at, 4, "true") == 0; c.at += v ? 4 : 5; return v; }
};
// After `\u`: its code unit (and a low surrogate's after it), appended as UTF-8.
inline void unescape_utf16(Cursor& c, std::string& s) {
    auto unit = [&c]() {
        unsigned v = std::stoul(std::string(c.text.substr(c.at, 4)), nullptr, 16);
        c.at += 4;
        return v;
    };
    unsigned point = unit();
    if (point >= 0xD800 && point < 0xDC00 && c.text.substr(c.at, 2) == "\\u") {
        c.at += 2;
        point = 0x10000 + ((point - 0xD800) << 10) + (unit() - 0xDC00);
    }
    if (point < 0x80) {
        s += char(point);
    } else if (point < 0x800) {
        s += char(0xC0 | point >> 6), s += char(0x80 | (point & 0x3F));
    } else if (point < 0x10000) {
        s += char(0xE0 | point >> 12), s += char(0x80 | (point >> 6 & 0x3F)), s += char(0x80 | (point & 0x3F));
    } else {
        s += char(0xF0 | point >> 18), s += char(0x80 | (point >> 12 & 0x3F));
        s += char(0x80 | (point >> 6 & 0x3F)), s += char(0x80 | (point & 0x3F));
    }
}
template <> struct Read<std::string> {
    static std::string of(Cursor& c) {
        c.skip();
        std::string s;
        c.at++;
        while (c.text[c.at] != '"') {
            char d = c.text[c.at++];
            if (d == '\\') {
                char e = c.text[c.at++];
                if (e == 'u') {
                    unescape_utf16(c, s);
                    continue;
                }
                s += e == 'n' ? '\n' : e == 't' ? '\t' : e == 'r' ? '\r' : e == 'b' ? '\b' : e == 'f' ? '\f' : e;
            } else s += d;
        }
        c.at++;
        return s;
    }
};
template <class T> struct Read<std::vector<T>> {
    static std::vector<T> of(Cursor& c) {
        std::vector<T> v;
        c.skip();
        c.at++;
        c.skip();
        if (c.text[c.at] == ']') { c.at++; return v; }
        while (true) {
            v.push_back(Read<T>::of(c));
            c.skip();
            if (c.text[c.at++] == ']') return v;
        }
    }
};
// As JSON writes a string (Python's and JavaScript's callers print the same).
inline void show_text(std::ostream& o, std::string_view v) {
    o << '"';
    for (char ch : v) {
        switch (ch) {
            case '"': o << "\\\""; break;
            case '\\': o << "\\\\"; break;
            case '\n': o << "\\n"; break;
            case '\r': o << "\\r"; break;
            case '\t': o << "\\t"; break;
            case '\b': o << "\\b"; break;
            case '\f': o << "\\f"; break;
            default:
                if ((unsigned char)ch < 0x20) {
                    char code[8];
                    std::snprintf(code, sizeof code, "\\u%04x", ch);
                    o << code;
                } else {
                    o << ch;
                }
        }
    }
    o << '"';
}
// Whatever the function returns, as the judge's page writes it.
template <class T> void show(std::ostream& o, const T& v) {
    if constexpr (std::is_same_v<T, bool>) {
        o << (v ? "true" : "false");
    } else if constexpr (std::is_floating_point_v<T>) {
        char buffer[64];
        auto end = std::to_chars(buffer, buffer + sizeof buffer, (double)v).ptr;
        std::string s(buffer, end);
        if (s.find_first_of(".eni") == std::string::npos) s += ".0";
        o << s;
    } else if constexpr (std::is_integral_v<T>) {
        o << +v;
    } else if constexpr (std::is_convertible_v<const T&, std::string_view>) {
        show_text(o, v);
    } else {
        o << '[';
        bool first = true;
        // By value: a `vector<bool>`'s items are proxies.
        for (typename T::value_type item : v) {
            if (!first) o << ", ";
            first = false;
            show(o, item);
        }
        o << ']';
    }
}
// The results go out on the standard output the judge reads, kept here as `results`; what the
// file prints goes to standard error, as Programmers shows it beside the result and never
// grades it.
static int results = -1;
inline void to_results(bool on) {
    std::cout.flush();
    std::fflush(stdout);
    dup2(on ? results : 2, 1);
}
// Each call's CPU time, last on standard error, where the judge reads it.
inline void report_times(const std::string& times) {
    to_results(false);
    std::cerr << "\nCALL_TIMES_MARKER" << times << "\n";
}
inline long long cpu_us() {
    timespec t;
    clock_gettime(CLOCK_PROCESS_CPUTIME_ID, &t);
    return t.tv_sec * 1000000LL + t.tv_nsec / 1000;
}
// A call that fails in this process (the file keeps no state, so no child runs it) still
// reports the times, its own last, before the run ends as it would have: from a signal
// handler, so with `write` alone.
static const std::string* done_times = nullptr;
static volatile long long call_started = -1;
inline void write_all(const char* text, size_t size) {
    for (ssize_t n; size > 0 && (n = write(2, text, size)) > 0; text += n, size -= (size_t)n) {}
}
inline void on_fatal_signal(int signal) {
    if (call_started >= 0 && done_times) {
        long long spent = cpu_us() - call_started;
        char figure[24];
        size_t at = sizeof figure;
        do { figure[--at] = char('0' + spent % 10); spent /= 10; } while (spent > 0 && at > 0);
        const char marker[] = "\nCALL_TIMES_MARKER";
        write_all(marker, sizeof marker - 1);
        write_all(done_times->data(), done_times->size());
        if (!done_times->empty()) write_all(",", 1);
        write_all(figure + at, sizeof figure - at);
        write_all("\n", 1);
    }
    std::signal(signal, SIG_DFL);
    std::raise(signal);
}
inline void report_failed_calls(const std::string& times) {
    done_times = &times;
    // Its own stack, for a call that overflowed the program's.
    static char alternate[1 << 16];
    stack_t stack{};
    stack.ss_sp = alternate;
    stack.ss_size = sizeof alternate;
    sigaltstack(&stack, nullptr);
    struct sigaction action {};
    action.sa_handler = on_fatal_signal;
    action.sa_flags = SA_ONSTACK;
    for (int signal : {SIGSEGV, SIGBUS, SIGFPE, SIGILL, SIGABRT}) sigaction(signal, &action, nullptr);
}
// Runs `call` (which prints its result and returns its CPU time) in a forked child and
// appends that time to `times`; a child that fails ends this process the same way. The child
// hands its time back through shared memory, so the parent wakes once, when it ends; both
// stay on the CPU the parent is on, where the child's memory already is. The judge writes
// `false` for a file that keeps no state between calls: then every call runs here.
template <class Call> void in_child(Call call, std::string& times) {
    if (!FORK_EACH_CALL) {
        call_started = cpu_us();
        long long spent = call();
        call_started = -1;
        // Out before the next call, which may crash: the report names the call that did.
        std::cout.flush();
        times += (times.empty() ? "" : ",") + std::to_string(spent);
        return;
    }
    static long long* used = (long long*)mmap(nullptr, sizeof(long long), PROT_READ | PROT_WRITE, MAP_SHARED | MAP_ANONYMOUS, -1, 0);
    if (used == MAP_FAILED) { std::perror("judge_call: mmap"); std::exit(1); }
    *used = -1;
    cpu_set_t everywhere, here;
    bool pinned = sched_getaffinity(0, sizeof everywhere, &everywhere) == 0 && sched_getcpu() >= 0;
    if (pinned) {
        CPU_ZERO(&here);
        CPU_SET(sched_getcpu(), &here);
        pinned = sched_setaffinity(0, sizeof here, &here) == 0;
    }
    pid_t child = fork();
    if (child < 0) { std::perror("judge_call: fork"); std::exit(1); }
    if (child == 0) {
        long long spent = call();
        std::cout.flush();
        *used = spent;
        _exit(std::cout ? 0 : 1);
    }
    int status = 0;
    rusage usage{};
    while (wait4(child, &status, 0, &usage) < 0 && errno == EINTR) {}
    if (pinned) sched_setaffinity(0, sizeof everywhere, &everywhere);
    if (!WIFEXITED(status) || WEXITSTATUS(status) != 0 || *used < 0) {
        // The failed call's time goes out with the others: the judge holds it to the limit.
        long long spent = (usage.ru_utime.tv_sec + usage.ru_stime.tv_sec) * 1000000LL
            + usage.ru_utime.tv_usec + usage.ru_stime.tv_usec;
        report_times(times + (times.empty() ? "" : ",") + std::to_string(spent));
    }
    if (WIFSIGNALED(status)) {
        std::signal(WTERMSIG(status), SIG_DFL);
        std::raise(WTERMSIG(status));
    }
    if (!WIFEXITED(status) || WEXITSTATUS(status) != 0) std::exit(WIFEXITED(status) ? WEXITSTATUS(status) : 1);
    if (*used < 0) {
        std::cerr << "the call ended the program before it returned (exit 0)\n";
        std::exit(1);
    }
    times += (times.empty() ? "" : ",") + std::to_string(*used);
}
}  // namespace judge_call

int main() {
    std::ios::sync_with_stdio(false);
    judge_call::results = dup(1);
    if (judge_call::results < 0 || dup2(2, 1) < 0) { std::perror("judge_call: dup"); return 1; }
    std::string line, times;
    if (!FORK_EACH_CALL) judge_call::report_failed_calls(times);
    while (std::getline(std::cin, line)) {
        if (line.find_first_not_of(" \t\r") == std::string::npos) continue;
        judge_call::Cursor c{line, 0};
        // READ_ARGUMENTS
        judge_call::in_child([&] {
            long long start = judge_call::cpu_us();
            auto result = FUNCTION_NAME(CALL_ARGUMENTS);
            long long used = judge_call::cpu_us() - start;
            judge_call::to_results(true);
            judge_call::show(std::cout, result);
            std::cout << '\n';
            judge_call::to_results(false);
            return used;
        }, times);
    }
    judge_call::report_times(times);
}
