//! Validator for swea_11545 ("Tic-Tac-Toe-Tomek"): reads one input file on stdin, exits 0
//! when it is one the statement allows, else 1 with the line and what is wrong on stderr.
//!
//! The input: a count T (1 or more) on the first line, then T boards of four lines of four
//! cells over `X`, `O`, `T`, `.`, each board followed by at most one blank line. Each board
//! has at most one `T` and is a state reached by play (the board starts empty but for the
//! `T`, X and O alternate, X first, and the game stops at the first win). That is checked by
//! its definition: the last mover's stones are taken back one at a time, never passing a
//! board that someone had already won, until none is left.

use std::io::Read;
use std::process::exit;

type Board = [u8; 16];

fn reject(line: usize, what: &str) -> ! {
    eprintln!("line {line}: {what}");
    exit(1);
}

fn has_won(board: &Board, player: u8) -> bool {
    let owned = |cell: usize| board[cell] == player || board[cell] == b'T';
    let row = |r: usize| (0..4).all(|c| owned(r * 4 + c));
    let column = |c: usize| (0..4).all(|r| owned(r * 4 + c));
    (0..4).any(row)
        || (0..4).any(column)
        || (0..4).all(|i| owned(i * 5))
        || (0..4).all(|i| owned(i * 3 + 3))
}

fn winner(board: &Board) -> bool {
    has_won(board, b'X') || has_won(board, b'O')
}

/// Whether play can reach `board`: take back a stone of whoever moved last, from a board
/// nobody had won before that stone.
fn reachable(board: &Board) -> bool {
    let count = |symbol: u8| board.iter().filter(|&&cell| cell == symbol).count();
    let (x, o) = (count(b'X'), count(b'O'));
    let last = match (x, o) {
        (0, 0) => return true,
        _ if x == o + 1 => b'X',
        _ if x == o => b'O',
        _ => return false,
    };
    (0..16).filter(|&cell| board[cell] == last).any(|cell| {
        let mut before = *board;
        before[cell] = b'.';
        !winner(&before) && reachable(&before)
    })
}

fn main() {
    let mut input = Vec::new();
    if std::io::stdin().read_to_end(&mut input).is_err() {
        reject(1, "the input is not readable");
    }
    if !input.ends_with(b"\n") {
        reject(1, "the input must end with a newline");
    }
    let lines: Vec<&[u8]> = input[..input.len() - 1].split(|&b| b == b'\n').collect();
    let count_text = String::from_utf8_lossy(lines[0]);
    let count: usize = match count_text.parse() {
        Ok(count) if count >= 1 && !count_text.starts_with(['0', '+']) => count,
        _ => reject(1, &format!("expected the number of boards (1 or more), got {count_text:?}")),
    };
    let mut at = 1;
    for board_number in 1..=count {
        let mut board = [0u8; 16];
        for row in 0..4 {
            let Some(line) = lines.get(at) else {
                reject(at + 1, &format!("board {board_number} of {count} is missing a row"));
            };
            if line.len() != 4 || !line.iter().all(|cell| b"XOT.".contains(cell)) {
                let shown = String::from_utf8_lossy(line);
                reject(at + 1, &format!("expected four of X, O, T, . but got {shown:?}"));
            }
            board[row * 4..row * 4 + 4].copy_from_slice(line);
            at += 1;
        }
        let first_row = at - 3;
        if board.iter().filter(|&&cell| cell == b'T').count() > 1 {
            reject(first_row, &format!("board {board_number} has more than one T"));
        }
        if has_won(&board, b'X') && has_won(&board, b'O') {
            reject(first_row, &format!("board {board_number} has two winners"));
        }
        if !reachable(&board) {
            reject(
                first_row,
                &format!("board {board_number} is not a state that play reaches"),
            );
        }
        if lines.get(at).is_some_and(|line| line.is_empty()) {
            at += 1;
        }
    }
    if at < lines.len() {
        reject(at + 1, &format!("more than the {count} boards the first line counts"));
    }
}
