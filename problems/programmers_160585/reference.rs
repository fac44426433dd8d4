//! Reference for programmers_160585 ("Tic-tac-toe played alone"), written to be obviously
//! correct rather than fast.
//!
//! Instead of reasoning about mark counts and winners, it plays every possible game: a
//! depth-first search from the empty board (`O` moves first) that applies the stop rule
//! after each move (the mover completed a line, or the board is full) and records every
//! position it meets. The search runs once per process; each input board is then answered
//! by a set lookup: 1 if the board was met, else 0.
//!
//! Input: each non-blank line is one board such as `["O.X", ".O.", "..X"]`; the board is
//! the nine characters over `O`, `X`, `.` found on the line, in order (brackets, quotes,
//! commas and whitespace are ignored). Output: one answer per board, one per line.

use std::collections::HashSet;
use std::io::{self, Read, Write};

type Board = [u8; 9];

/// The eight lines of three: rows, columns, diagonals (cells numbered row by row).
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

fn has_line(board: &Board, mark: u8) -> bool {
    LINES
        .iter()
        .any(|line| line.iter().all(|&cell| board[cell] == mark))
}

fn other(mark: u8) -> u8 {
    if mark == b'O' {
        b'X'
    } else {
        b'O'
    }
}

/// Records `board` (reached by a move of `mover`, or the start if `None`) and, unless the
/// game stops here, every move `next` can make from it.
fn explore(board: &mut Board, mover: Option<u8>, next: u8, reachable: &mut HashSet<Board>) {
    if !reachable.insert(*board) {
        // Already explored: the moves available depend only on the board itself.
        return;
    }
    let mover_won = mover.is_some_and(|mark| has_line(board, mark));
    let full = board.iter().all(|&cell| cell != b'.');
    if mover_won || full {
        return;
    }
    for cell in 0..9 {
        if board[cell] == b'.' {
            board[cell] = next;
            explore(board, Some(next), other(next), reachable);
            board[cell] = b'.';
        }
    }
}

/// Every position that can appear in a game where `first` moves first.
fn reachable_positions(first: u8) -> HashSet<Board> {
    let mut reachable = HashSet::new();
    let mut board = [b'.'; 9];
    explore(&mut board, None, first, &mut reachable);
    reachable
}

/// The nine board characters of one input line, if the line holds a board.
fn parse_board(line: &str) -> Option<Board> {
    let cells: Vec<u8> = line
        .bytes()
        .filter(|b| matches!(b, b'O' | b'X' | b'.'))
        .collect();
    if cells.is_empty() {
        return None;
    }
    assert!(cells.len() == 9, "not a 3x3 board: {line:?}");
    let mut board = [b'.'; 9];
    board.copy_from_slice(&cells);
    Some(board)
}

fn main() {
    let mut input = String::new();
    io::stdin().read_to_string(&mut input).expect("read stdin");
    let reachable = reachable_positions(b'O');
    let mut out = String::new();
    for line in input.lines() {
        if let Some(board) = parse_board(line) {
            let answer = if reachable.contains(&board) { 1 } else { 0 };
            out.push_str(&format!("{answer}\n"));
        }
    }
    io::stdout()
        .lock()
        .write_all(out.as_bytes())
        .expect("write stdout");
}

#[cfg(test)]
mod tests {
    use super::*;

    fn answer(line: &str) -> i32 {
        let board = parse_board(line).unwrap();
        i32::from(reachable_positions(b'O').contains(&board))
    }

    #[test]
    fn counts_5478_reachable_positions() {
        assert_eq!(reachable_positions(b'O').len(), 5478);
        assert_eq!(reachable_positions(b'X').len(), 5478);
    }

    #[test]
    fn official_examples() {
        assert_eq!(answer(r#"["O.X", ".O.", "..X"]"#), 1);
        assert_eq!(answer(r#"["OOO", "...", "XXX"]"#), 0);
        assert_eq!(answer(r#"["...", ".X.", "..."]"#), 0);
        assert_eq!(answer(r#"["...", "...", "..."]"#), 1);
    }

    #[test]
    fn ignores_blank_lines_and_spacing() {
        assert_eq!(parse_board("  \r"), None);
        assert_eq!(
            parse_board("[\"O.X\",\".O.\",   \"..X\"]\r"),
            Some(*b"O.X.O...X")
        );
    }
}
