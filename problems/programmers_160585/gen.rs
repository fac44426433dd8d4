//! Generator for programmers_160585 ("Tic-tac-toe played alone", `O` moves first).
//!
//! Usage: `gen SEED [KEY=VALUE ...]`. Prints one input file to stdout: one board per line,
//! written as `["O.X", ".O.", "..X"]`. The same arguments always give the same bytes: the
//! PRNG is splitmix64, seeded from SEED mixed with the other arguments.
//!
//! Keys:
//! - `part=K` and `parts=N` (defaults 1 and 1): exhaustive mode. The 3^9 = 19,683 boards
//!   are numbered in base 3 over the nine cells (cell 1 most significant; `.` = 0, `O` = 1,
//!   `X` = 2) and cut into N contiguous slices of (almost) equal size; print slice K
//!   (1-based). The N slices together hold every board exactly once. SEED is unused.
//! - `count=N` (1..=1000000): random mode instead, N boards. Cannot be combined with
//!   `part` / `parts`.
//! - `kind=...` (random mode only, default `mixed`):
//!   - `play`: a random game with `O` first and the stop rule, cut after a random number of
//!     moves (always reachable);
//!   - `over`: random play that ignores the stop rule (marks keep coming after a win);
//!   - `swapped`: like `play` but with `X` moving first (wrong mover);
//!   - `perturb`: a `play` board with one cell changed to another symbol;
//!   - `uniform`: each cell uniformly `.`, `O` or `X`;
//!   - `mixed`: each board picks one of the above.
//!
//! Unknown keys, repeated keys or bad values: a message on stderr and exit code 2.

use std::io::{self, Write};
use std::process;

const TOTAL: usize = 19_683;
const SYMBOLS: [u8; 3] = [b'.', b'O', b'X'];
const LINES: [[usize; 3]; 8] = [
    [0, 1, 2],
    [3, 4, 5],
    [6, 7, 8],
    [0, 3, 6],
    [1, 4, 7],
    [2, 5, 8],
    [0, 4, 8],
    [2, 4, 6],
];

type Board = [u8; 9];

const USAGE: &str =
    "usage: gen SEED [part=K parts=N | count=N [kind=mixed|play|over|swapped|perturb|uniform]]";

fn fail(message: &str) -> ! {
    eprintln!("gen: {message}");
    eprintln!("{USAGE}");
    process::exit(2);
}

/// splitmix64.
struct Rng(u64);

impl Rng {
    fn next_u64(&mut self) -> u64 {
        self.0 = self.0.wrapping_add(0x9E37_79B9_7F4A_7C15);
        let mut z = self.0;
        z = (z ^ (z >> 30)).wrapping_mul(0xBF58_476D_1CE4_E5B9);
        z = (z ^ (z >> 27)).wrapping_mul(0x94D0_49BB_1331_11EB);
        z ^ (z >> 31)
    }

    /// A number in `0..n` (`n > 0`).
    fn below(&mut self, n: usize) -> usize {
        (self.next_u64() % n as u64) as usize
    }
}

/// FNV-1a, to mix the key=value arguments into the seed.
fn fnv1a(text: &str) -> u64 {
    let mut hash = 0xCBF2_9CE4_8422_2325_u64;
    for byte in text.bytes() {
        hash ^= u64::from(byte);
        hash = hash.wrapping_mul(0x0100_0000_01B3);
    }
    hash
}

fn parse_number(key: &str, value: &str, low: usize, high: usize) -> usize {
    match value.parse::<usize>() {
        Ok(n) if (low..=high).contains(&n) => n,
        _ => fail(&format!(
            "{key}={value}: expected a number in {low}..={high}"
        )),
    }
}

#[derive(Clone, Copy)]
enum Kind {
    Mixed,
    Play,
    Over,
    Swapped,
    Perturb,
    Uniform,
}

fn board_of_index(mut index: usize) -> Board {
    let mut board = [b'.'; 9];
    for cell in (0..9).rev() {
        board[cell] = SYMBOLS[index % 3];
        index /= 3;
    }
    board
}

fn has_line(board: &Board, mark: u8) -> bool {
    LINES
        .iter()
        .any(|line| line.iter().all(|&cell| board[cell] == mark))
}

/// Random play from the empty board: up to `moves` moves, `first` moving first. With
/// `stop`, the game also ends as soon as the mover completes a line.
fn play(rng: &mut Rng, first: u8, moves: usize, stop: bool) -> Board {
    let mut board = [b'.'; 9];
    let mut mover = first;
    for _ in 0..moves {
        let empty: Vec<usize> = (0..9).filter(|&cell| board[cell] == b'.').collect();
        if empty.is_empty() {
            break;
        }
        board[empty[rng.below(empty.len())]] = mover;
        if stop && has_line(&board, mover) {
            break;
        }
        mover = if mover == b'O' { b'X' } else { b'O' };
    }
    board
}

fn random_board(rng: &mut Rng, kind: Kind) -> Board {
    match kind {
        Kind::Mixed => {
            let kind = match rng.below(100) {
                0..=34 => Kind::Play,
                35..=54 => Kind::Over,
                55..=64 => Kind::Swapped,
                65..=84 => Kind::Perturb,
                _ => Kind::Uniform,
            };
            random_board(rng, kind)
        }
        Kind::Play => {
            let moves = rng.below(10);
            play(rng, b'O', moves, true)
        }
        Kind::Over => {
            let moves = 5 + rng.below(5);
            play(rng, b'O', moves, false)
        }
        Kind::Swapped => {
            let moves = 1 + rng.below(9);
            play(rng, b'X', moves, true)
        }
        Kind::Perturb => {
            let moves = rng.below(10);
            let mut board = play(rng, b'O', moves, true);
            let cell = rng.below(9);
            let current = SYMBOLS.iter().position(|&s| s == board[cell]).unwrap_or(0);
            board[cell] = SYMBOLS[(current + 1 + rng.below(2)) % 3];
            board
        }
        Kind::Uniform => board_of_index(rng.below(TOTAL)),
    }
}

fn format_board(board: &Board) -> String {
    let row = |r: usize| String::from_utf8_lossy(&board[3 * r..3 * r + 3]).into_owned();
    format!("[\"{}\", \"{}\", \"{}\"]\n", row(0), row(1), row(2))
}

fn main() {
    let args: Vec<String> = std::env::args().skip(1).collect();
    let Some(seed_text) = args.first() else {
        fail("missing SEED");
    };
    let Ok(seed) = seed_text.parse::<u64>() else {
        fail(&format!(
            "SEED must be a non-negative integer, got {seed_text:?}"
        ));
    };
    let mut part = None;
    let mut parts = None;
    let mut count = None;
    let mut kind = None;
    for arg in &args[1..] {
        let Some((key, value)) = arg.split_once('=') else {
            fail(&format!("expected KEY=VALUE, got {arg:?}"));
        };
        let repeated = match key {
            "part" => part.replace(parse_number(key, value, 1, TOTAL)).is_some(),
            "parts" => parts.replace(parse_number(key, value, 1, TOTAL)).is_some(),
            "count" => count
                .replace(parse_number(key, value, 1, 1_000_000))
                .is_some(),
            "kind" => {
                let parsed = match value {
                    "mixed" => Kind::Mixed,
                    "play" => Kind::Play,
                    "over" => Kind::Over,
                    "swapped" => Kind::Swapped,
                    "perturb" => Kind::Perturb,
                    "uniform" => Kind::Uniform,
                    _ => fail(&format!("unknown kind {value:?}")),
                };
                kind.replace(parsed).is_some()
            }
            _ => fail(&format!("unknown key {key:?}")),
        };
        if repeated {
            fail(&format!("key {key:?} given twice"));
        }
    }

    let mut out = String::new();
    if let Some(count) = count {
        if part.is_some() || parts.is_some() {
            fail("count cannot be combined with part/parts");
        }
        let mut rng = Rng(seed ^ fnv1a(&args[1..].join(" ")));
        let kind = kind.unwrap_or(Kind::Mixed);
        for _ in 0..count {
            out.push_str(&format_board(&random_board(&mut rng, kind)));
        }
    } else {
        if kind.is_some() {
            fail("kind needs count");
        }
        let parts = parts.unwrap_or(1);
        let part = part.unwrap_or(1);
        if part > parts {
            fail(&format!("part={part} exceeds parts={parts}"));
        }
        let start = (part - 1) * TOTAL / parts;
        let end = part * TOTAL / parts;
        for index in start..end {
            out.push_str(&format_board(&board_of_index(index)));
        }
    }
    io::stdout()
        .lock()
        .write_all(out.as_bytes())
        .expect("write stdout");
}
