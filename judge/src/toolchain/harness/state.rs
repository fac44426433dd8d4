//! Whether a C, C++ or Rust file's calls could see anything an earlier call left (a
//! non-constant global, a `static`, memory never freed, the C library's hidden state, a way
//! out of the process). Only a file with none of them runs all calls in one process; any
//! other, or one this reading is unsure of, gets a forked child per call.

use crate::toolchain::language::LanguageId;

/// Words that anywhere in a C or C++ file may carry state between calls. (`static` is read
/// where it stands: on a function it keeps nothing.)
const C_WORDS: &str =
    "thread_local _Thread_local extern new malloc calloc realloc strdup rand srand random srandom \
    drand48 srand48 lrand48 mrand48 strtok setlocale signal atexit exit _exit quick_exit abort \
    setjmp longjmp asm __asm__ putenv setenv random_shuffle fopen freopen ofstream ifstream \
    fstream thread async pthread_create mmap sbrk brk";

/// The same for Rust; `unsafe` could reach anything.
const RUST_WORDS: &str =
    "static thread_local lazy_static unsafe extern leak forget ManuallyDrop Rc Arc exit abort \
    set_var remove_var set_current_dir set_hook File into_raw spawn";

fn listed(words: &str, word: &str) -> bool {
    words.split_whitespace().any(|listed| listed == word)
}

/// `true` where unsure.
pub fn may_keep_state(language: LanguageId, code: &str) -> bool {
    let words = match language {
        LanguageId::Rust => RUST_WORDS,
        LanguageId::C | LanguageId::Cpp => C_WORDS,
        _ => return true,
    };
    let Some(tokens) = tokens(code, language == LanguageId::Rust) else {
        return true;
    };
    let named = |token: &Token| matches!(token, Token::Word(word) if listed(words, word));
    tokens.iter().any(named) || (language != LanguageId::Rust && has_variable_kept(&tokens))
}

#[derive(Debug, Clone, PartialEq, Eq)]
enum Token<'a> {
    Word(&'a str),
    /// A number, string or character literal.
    Literal,
    Punct(char),
}

/// The tokens of `code`, without comments, preprocessor lines and literals' text; `None` for
/// what this reading does not follow (a raw string).
fn tokens(code: &str, rust: bool) -> Option<Vec<Token<'_>>> {
    let bytes = code.as_bytes();
    let mut tokens = Vec::new();
    let mut at = 0;
    let mut line_start = true;
    while at < bytes.len() {
        let c = bytes[at];
        if c == b'\n' {
            line_start = true;
            at += 1;
            continue;
        }
        if c.is_ascii_whitespace() {
            at += 1;
            continue;
        }
        if c == b'#' && line_start && !rust {
            // A preprocessor line, with its `\` continuations.
            let start = at;
            while at < bytes.len() && !(bytes[at] == b'\n' && bytes[at - 1] != b'\\') {
                at += 1;
            }
            if define_hides_state(&code[start..at])? {
                return None;
            }
            continue;
        }
        line_start = false;
        if code[at..].starts_with("//") {
            at = code[at..].find('\n').map_or(bytes.len(), |n| at + n);
        } else if code[at..].starts_with("/*") {
            at = code[at + 2..]
                .find("*/")
                .map_or(bytes.len(), |n| at + 2 + n + 2);
        } else if c == b'"' {
            at = past_quoted(bytes, at, b'"')?;
            tokens.push(Token::Literal);
        } else if c == b'\'' {
            let lifetime = rust && bytes.get(at + 2).is_some_and(|&next| next != b'\'');
            match lifetime && bytes.get(at + 1) != Some(&b'\\') {
                // `'static` is a lifetime: its word is not a `static` item.
                true => at = past_word(bytes, at + 1),
                false => {
                    at = past_quoted(bytes, at, b'\'')?;
                    tokens.push(Token::Literal);
                }
            }
        } else if c.is_ascii_digit() {
            // Digits, suffixes, exponents and C++14's `1'000'000`.
            while at < bytes.len()
                && (is_word(bytes[at]) || bytes[at] == b'.' || bytes[at] == b'\'')
            {
                at += 1;
            }
            tokens.push(Token::Literal);
        } else if is_word(c) {
            let end = past_word(bytes, at);
            let word = &code[at..end];
            // Raw strings (`R"(...)"`, `r#"..."#`) hold quotes this reading does not follow.
            if matches!(word, "R" | "u8R" | "LR" | "r" | "br")
                && matches!(bytes.get(end), Some(b'"' | b'#'))
            {
                return None;
            }
            tokens.push(Token::Word(word));
            at = end;
        } else {
            tokens.push(Token::Punct(code[at..].chars().next()?));
            at += code[at..].chars().next()?.len_utf8();
        }
    }
    Some(tokens)
}

/// Whether a `#define` could hide a declaration, a `static` or a word of state where it is
/// used; `None` where its text is not followed.
fn define_hides_state(directive: &str) -> Option<bool> {
    if !directive
        .trim_start_matches(['#', ' ', '\t'])
        .starts_with("define")
    {
        return Some(false);
    }
    let body = tokens(&directive[1..], true)?;
    Some(body.iter().any(|token| match token {
        Token::Punct(';' | '{') => true,
        Token::Word(word) => listed(C_WORDS, word) || *word == "static",
        _ => false,
    }))
}

fn is_word(c: u8) -> bool {
    c.is_ascii_alphanumeric() || c == b'_' || c >= 0x80
}

fn past_word(bytes: &[u8], mut at: usize) -> usize {
    while at < bytes.len() && is_word(bytes[at]) {
        at += 1;
    }
    at
}

/// Just past the literal opening with `quote` at `at`; `None` if it never closes.
fn past_quoted(bytes: &[u8], mut at: usize, quote: u8) -> Option<usize> {
    at += 1;
    while at < bytes.len() {
        match bytes[at] {
            b'\\' => at += 2,
            c if c == quote => return Some(at + 1),
            b'\n' if quote == b'\'' => return None,
            _ => at += 1,
        }
    }
    None
}

/// Whether a C or C++ file defines a variable that outlives a call: a non-constant one
/// outside every function and class, or any `static` inside one (a static member function
/// counts too, to be sure). A top-level declaration that is neither a function, a type, an
/// alias nor a constant counts as a variable.
fn has_variable_kept(tokens: &[Token]) -> bool {
    let mut item: Vec<&Token> = Vec::new();
    let mut at = 0;
    while at < tokens.len() {
        match &tokens[at] {
            Token::Punct('{') => {
                let words = words_of(&item);
                if words.first() == Some(&"namespace") || words == ["extern"] {
                    // Its declarations are at the top too.
                    item.clear();
                    at += 1;
                    continue;
                }
                let Some(end) = matching_brace(tokens, at) else {
                    return true;
                };
                let kept = |token: &Token| matches!(token, Token::Word("static"));
                if tokens[at..end].iter().any(kept) {
                    return true;
                }
                if is_function_head(&item) {
                    item.clear();
                } else {
                    // A class, union or enum body, or a braced initializer: the declaration
                    // goes on to its `;`, and the body is left out of it.
                    item.push(&Token::Literal);
                }
                at = end + 1;
                continue;
            }
            // The `}` of a namespace.
            Token::Punct('}') => item.clear(),
            Token::Punct(';') => {
                if declares_variable(&item) {
                    return true;
                }
                item.clear();
            }
            token => item.push(token),
        }
        at += 1;
    }
    !item.is_empty() && declares_variable(&item)
}

fn words_of<'a>(item: &[&Token<'a>]) -> Vec<&'a str> {
    item.iter()
        .filter_map(|token| match token {
            Token::Word(word) => Some(*word),
            _ => None,
        })
        .collect()
}

fn matching_brace(tokens: &[Token], open: usize) -> Option<usize> {
    let mut depth = 0usize;
    for (offset, token) in tokens[open..].iter().enumerate() {
        match token {
            Token::Punct('{') => depth += 1,
            Token::Punct('}') => {
                depth -= 1;
                if depth == 0 {
                    return Some(open + offset);
                }
            }
            _ => {}
        }
    }
    None
}

/// Whether the declaration before a `{` is a function's head: a parameter list, then only
/// what may follow one (`const`, `noexcept`, `-> T`, a constructor's initializers), and no
/// `=` before it (which would make the braces a lambda's or an initializer's).
fn is_function_head(item: &[&Token]) -> bool {
    let Some(open) = item.iter().position(|token| **token == Token::Punct('(')) else {
        return false;
    };
    let assigned = assigned_before(item, open);
    let keyword = matches!(
        words_of(item).first(),
        Some(&("struct" | "class" | "union" | "enum"))
    );
    !assigned && !keyword
}

/// Whether a `=` stands before `item[open]` other than in an operator's name (`operator==`).
fn assigned_before(item: &[&Token], open: usize) -> bool {
    let name = (item[..open].iter()).position(|token| **token == Token::Word("operator"));
    item[..name.unwrap_or(open)]
        .iter()
        .any(|token| **token == Token::Punct('='))
}

/// Whether a top-level declaration (up to its `;`) defines a variable that is not constant.
fn declares_variable(item: &[&Token]) -> bool {
    let words = words_of(item);
    let Some(&first) = words.first() else {
        return false;
    };
    if matches!(
        first,
        "using" | "typedef" | "template" | "static_assert" | "friend" | "namespace"
    ) {
        return false;
    }
    if matches!(first, "struct" | "class" | "union" | "enum") {
        // `struct S {...} s;` defines one; `struct S;` and `struct S {...};` do not.
        let body = item.iter().position(|token| **token == Token::Literal);
        return body
            .is_some_and(|body| item[body + 1..].iter().any(|t| matches!(t, Token::Word(_))));
    }
    // `const` among the leading words (`map<const int, int>` is no constant); a pointer to
    // constants is itself a variable.
    let leading = item
        .iter()
        .take_while(|token| matches!(token, Token::Word(_)))
        .count();
    let leading = words_of(&item[..leading]);
    let pointer = item.iter().any(|token| **token == Token::Punct('*'));
    let constant = leading.contains(&"constexpr") || (leading.contains(&"const") && !pointer);
    if constant {
        return false;
    }
    let Some(open) = item.iter().position(|token| **token == Token::Punct('(')) else {
        // `int n;`, `long long memo[100];`, `vector<int> graph;`
        return true;
    };
    if assigned_before(item, open) {
        return true;
    }
    // `int f(int a, const vector<int>& v);` is a function: each parameter has a type and a
    // name. `vector<int> v(100);` or `T x(n);` may be a variable, so counts as one.
    !parameters_look_declared(&item[open + 1..])
}

/// Whether the tokens after a `(` read as parameters: none, `void`, or each one two words
/// or more (a type, then a name, `&` and `*` between).
fn parameters_look_declared(rest: &[&Token]) -> bool {
    let Some(close) = rest.iter().rposition(|token| **token == Token::Punct(')')) else {
        return false;
    };
    let inside = &rest[..close];
    if inside.is_empty() || words_of(inside) == ["void"] {
        return true;
    }
    if inside.iter().any(|token| **token == Token::Literal) {
        return false;
    }
    inside
        .split(|token| **token == Token::Punct(','))
        .all(|parameter| words_of(parameter).len() >= 2)
}

#[cfg(test)]
mod tests {
    use super::*;

    fn cpp(code: &str) -> bool {
        may_keep_state(LanguageId::Cpp, code)
    }

    fn rust(code: &str) -> bool {
        may_keep_state(LanguageId::Rust, code)
    }

    #[test]
    fn a_cpp_file_of_functions_types_and_constants_keeps_nothing() {
        let clean = r#"#include <bits/stdc++.h>
#define ALL(v) (v).begin(), \
    (v).end()
using namespace std;
typedef long long ll;
using Board = vector<string>;
const int N = 3;
constexpr int dx[] = {1, 0, -1, 0};
const string WINS[] = {"OOO", "XXX"};
struct Point { int x, y; bool operator<(const Point& o) const { return x < o.x; } };
bool operator==(const Point& a, const Point& b) { return a.x == b.x && a.y == b.y; }
bool operator!=(const Point& a, const Point& b);
enum class Side { O, X };
template <class T> T largest(const vector<T>& v) { return *max_element(v.begin(), v.end()); }
static bool
wins(const Board& b, char m) { return static_cast<int>(b.size()) > 0 && m; }
static const int LIMIT = 9;
int count(const Board& board, char c);
namespace helpers { int twice(int x) { return 2 * x; } }
int count(const Board& board, char c) {
    int n = 0; // static in a comment is nothing
    for (auto& row : board) for (char d : row) n += d == c;
    string s = "a static // string";
    return n + helpers::twice(0) + 1'000 * 0;
}
int solution(vector<string> board) {
    auto wins = [&](char c) { return count(board, c) > N; };
    return wins('O') ? 1 : 0;
}
"#;
        assert!(!cpp(clean));
    }

    #[test]
    fn a_cpp_variable_outside_every_function_or_a_static_keeps_state() {
        let stateful = [
            "int visited[3][3];\nint solution(vector<string> b) { return visited[0][0]++; }",
            "vector<int> memo(100);\nint solution(int n) { return memo[n]++; }",
            "int calls = 0;\nint solution(int n) { return calls++; }",
            "namespace { int seen; }\nint solution(int n) { return seen++; }",
            "struct State { int n; } state;\nint solution(int n) { return state.n++; }",
            "int solution(int n) { static int calls; return calls++; }",
            "static int calls;\nint solution(int n) { return calls++; }",
            "struct C { static int made; };\nint C::made;\nint solution(int n) { return 0; }",
            "int solution(int n) { return rand() % n; }",
            "int solution(int n) { int* p = new int(n); return *p; }",
            "const char* last = \"\";\nint solution(int n) { return 0; }",
            "int dx[] = {1, 0};\nint solution(int n) { return dx[0]; }",
            "auto f = [](int x) { return x; };\nint solution(int n) { return f(n); }",
            "int solution(int n) { exit(0); }",
            "map<const int, int> cache;\nint solution(int n) { return cache[n]++; }",
            "int solution(int n) { const char* s = R\"(x)\"; return 0; }",
            "#define KEEP static int kept\nint solution(int n) { KEEP; return kept++; }",
            "#define G int g;\nG\nint solution(int n) { return g++; }",
        ];
        for code in stateful {
            assert!(cpp(code), "{code}");
        }
    }

    #[test]
    fn a_rust_file_keeps_state_only_through_statics_leaks_or_unsafe() {
        let clean = "use std::collections::HashMap;\nconst N: usize = 3;\n\
            fn solution(board: Vec<String>) -> i32 {\n\
            let name: &'static str = \"static\";\n let c = 'x';\n\
            let mut seen = HashMap::new(); seen.insert(c, N); name.len() as i32 }\n";
        assert!(!rust(clean));
        let stateful = [
            "static mut CALLS: i32 = 0;\nfn solution(n: i32) -> i32 { 0 }",
            "use std::sync::atomic::AtomicI32;\nstatic CALLS: AtomicI32 = AtomicI32::new(0);",
            "thread_local! { static SEEN: std::cell::Cell<i32> = std::cell::Cell::new(0); }",
            "fn solution(n: i32) -> i32 { Box::leak(Box::new(n)); n }",
            "fn solution(n: i32) -> i32 { std::process::exit(0) }",
            "fn solution(n: i32) -> i32 { let s = r#\"x\"#; n }",
        ];
        for code in stateful {
            assert!(rust(code), "{code}");
        }
    }
}
