//! Validator for boj_7682 ("Tic-tac-toe"): reads one input file on stdin, exits 0 when it is
//! one the statement allows, else 1 with the line and what is wrong on stderr.
//!
//! The input: lines of nine characters over `X`, `O` and `.` (a board, row by row; whether
//! play can end there is the question, so any such board is legal), then a last line `end`,
//! and nothing after it.

use std::io::Read;
use std::process::exit;

fn reject(line: usize, what: &str) -> ! {
    eprintln!("line {line}: {what}");
    exit(1);
}

fn main() {
    let mut input = Vec::new();
    if std::io::stdin().read_to_end(&mut input).is_err() {
        reject(1, "the input is not readable");
    }
    let Some(body) = input.strip_suffix(b"\n") else {
        reject(1, "the input must end with a newline");
    };
    let lines: Vec<&[u8]> = body.split(|&b| b == b'\n').collect();
    let last = lines.len() - 1;
    for (index, line) in lines.iter().enumerate() {
        if index == last {
            if *line != b"end" {
                reject(index + 1, "the last line must be `end`");
            }
        } else if *line == b"end" {
            reject(index + 1, "`end` before the last line");
        } else if line.len() != 9 || !line.iter().all(|cell| b"XO.".contains(cell)) {
            let shown = String::from_utf8_lossy(line);
            reject(index + 1, &format!("expected nine of X, O, . but got {shown:?}"));
        }
    }
}
