// Written by the judge: calls FUNCTION_NAME once per input line.
#include <cctype>
#include <charconv>
#include <ctime>
#include <iostream>
#include <string>
#include <vector>

RETURN_TYPE FUNCTION_NAME(PARAMETER_LIST);

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
template <> struct Read<std::string> {
    static std::string of(Cursor& c) {
        c.skip();
        std::string s;
        c.at++;
        while (c.text[c.at] != '"') {
            char d = c.text[c.at++];
            if (d == '\\') {
                char e = c.text[c.at++];
                s += e == 'n' ? '\n' : e == 't' ? '\t' : e;
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
void show(std::ostream& o, long long v) { o << v; }
void show(std::ostream& o, int v) { o << v; }
void show(std::ostream& o, bool v) { o << (v ? "true" : "false"); }
void show(std::ostream& o, double v) {
    char buffer[64];
    auto end = std::to_chars(buffer, buffer + sizeof buffer, v).ptr;
    std::string s(buffer, end);
    if (s.find_first_of(".eni") == std::string::npos) s += ".0";
    o << s;
}
void show(std::ostream& o, const std::string& v) {
    o << '"';
    for (char ch : v) { if (ch == '"' || ch == '\\') o << '\\'; if (ch == '\n') { o << "\\n"; continue; } o << ch; }
    o << '"';
}
template <class T> void show(std::ostream& o, const std::vector<T>& v) {
    o << '[';
    for (size_t i = 0; i < v.size(); i++) { if (i) o << ", "; show(o, (T)v[i]); }
    o << ']';
}
long long cpu_us() {
    timespec t;
    clock_gettime(CLOCK_PROCESS_CPUTIME_ID, &t);
    return t.tv_sec * 1000000LL + t.tv_nsec / 1000;
}
}  // namespace judge_call

int main() {
    std::ios::sync_with_stdio(false);
    std::string line, times;
    while (std::getline(std::cin, line)) {
        if (line.find_first_not_of(" \t\r") == std::string::npos) continue;
        judge_call::Cursor c{line, 0};
        // READ_ARGUMENTS
        long long start = judge_call::cpu_us();
        auto result = FUNCTION_NAME(CALL_ARGUMENTS);
        long long used = judge_call::cpu_us() - start;
        times += (times.empty() ? "" : ",") + std::to_string(used);
        judge_call::show(std::cout, result);
        std::cout << '\n';
    }
    std::cout.flush();
    std::cerr << "\nCALL_TIMES_MARKER" << times << "\n";
}
