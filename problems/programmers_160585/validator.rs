//! Validator for programmers_160585 ("Tic-tac-toe played alone"): reads one input file on
//! stdin, exits 0 when it is one the statement allows, else 1 with the line and what is
//! wrong on stderr.
//!
//! Each non-blank line is one board as the judge shows the parameter: `["O.X", ".O.", "..X"]`,
//! three strings of three characters over `O`, `X` and `.` (whitespace between the elements
//! is free). Any such board is legal: whether play reaches it is the question.

use std::io::Read;
use std::process::exit;

fn reject(line: usize, what: &str) -> ! {
    eprintln!("line {line}: {what}");
    exit(1);
}

/// The three rows of a board line, or what is wrong with it.
fn board(line: &str) -> Result<Vec<&str>, String> {
    let inner = line
        .trim()
        .strip_prefix('[')
        .and_then(|rest| rest.strip_suffix(']'))
        .ok_or("expected a list in brackets, like [\"O.X\", \".O.\", \"..X\"]")?;
    let rows: Vec<&str> = inner.split(',').map(str::trim).collect();
    if rows.len() != 3 {
        return Err(format!("expected three rows, got {}", rows.len()));
    }
    rows.iter()
        .map(|row| {
            let cells = row
                .strip_prefix('"')
                .and_then(|rest| rest.strip_suffix('"'))
                .ok_or(format!("expected a quoted row, got {row}"))?;
            match cells.len() == 3 && cells.bytes().all(|cell| b"OX.".contains(&cell)) {
                true => Ok(cells),
                false => Err(format!("expected three of O, X, . in a row, got {row}")),
            }
        })
        .collect()
}

fn main() {
    let mut input = String::new();
    if std::io::stdin().read_to_string(&mut input).is_err() {
        reject(1, "the input is not readable text");
    }
    if !input.is_empty() && !input.ends_with('\n') {
        reject(input.lines().count(), "the input must end with a newline");
    }
    let mut boards = 0;
    for (index, line) in input.lines().enumerate() {
        if line.trim().is_empty() {
            continue;
        }
        if let Err(what) = board(line) {
            reject(index + 1, &what);
        }
        boards += 1;
    }
    if boards == 0 {
        reject(1, "no board");
    }
}
