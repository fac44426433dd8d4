//! Reference for boj_7682 ("Tic-tac-toe"), written to be obviously correct rather than fast.
//!
//! Instead of reasoning about mark counts and winners, it plays every possible game: a
//! depth-first search from the empty board (`X` moves first) that applies the stop rule
//! after each move (the mover completed a line, or the board is full) and records every
//! position where a game stops. The search runs once per process; each input board is then
//! answered by a set lookup: `valid` if some game stops on exactly that board.
//!
//! Input: whitespace-separated tokens, each a board of 9 characters over `X`, `O`, `.`,
//! until the token `end` (or the end of input). Output: `valid` or `invalid` per board.

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

/// Every position met while playing out all games.
#[derive(Default)]
struct GameTree {
    reachable: HashSet<Board>,
    finals: HashSet<Board>,
}

impl GameTree {
    fn new(first: u8) -> GameTree {
        let mut tree = GameTree::default();
        let mut board = [b'.'; 9];
        tree.explore(&mut board, None, first);
        tree
    }

    /// Records `board` (reached by a move of `mover`, or the start if `None`) and, unless
    /// the game stops here, every move `next` can make from it.
    fn explore(&mut self, board: &mut Board, mover: Option<u8>, next: u8) {
        if !self.reachable.insert(*board) {
            // Already explored: the moves available depend only on the board itself.
            return;
        }
        let mover_won = mover.is_some_and(|mark| has_line(board, mark));
        let full = board.iter().all(|&cell| cell != b'.');
        if mover_won || full {
            self.finals.insert(*board);
            return;
        }
        for cell in 0..9 {
            if board[cell] == b'.' {
                board[cell] = next;
                self.explore(board, Some(next), other(next));
                board[cell] = b'.';
            }
        }
    }
}

fn main() {
    let mut input = String::new();
    io::stdin().read_to_string(&mut input).expect("read stdin");
    let tree = GameTree::new(b'X');
    let mut out = String::new();
    for token in input.split_whitespace() {
        if token == "end" {
            break;
        }
        let bytes = token.as_bytes();
        assert!(bytes.len() == 9, "not a 3x3 board: {token:?}");
        let mut board = [b'.'; 9];
        board.copy_from_slice(bytes);
        let verdict = if tree.finals.contains(&board) {
            "valid"
        } else {
            "invalid"
        };
        out.push_str(verdict);
        out.push('\n');
    }
    io::stdout()
        .lock()
        .write_all(out.as_bytes())
        .expect("write stdout");
}

#[cfg(test)]
mod tests {
    use super::*;

    #[test]
    fn counts_5478_reachable_and_958_final_positions() {
        let tree = GameTree::new(b'X');
        assert_eq!(tree.reachable.len(), 5478);
        assert_eq!(tree.finals.len(), 958);
    }

    #[test]
    fn official_examples() {
        let tree = GameTree::new(b'X');
        let cases = [
            ("XXXOO.XXX", false),
            ("XOXOXOXOX", true),
            ("OXOXOXOXO", false),
            ("XXOOOXXOX", true),
            ("XO.OX...X", true),
            (".XXX.XOOO", false),
            ("X.OO..X..", false),
            ("OOXXXOOXO", false),
        ];
        for (text, valid) in cases {
            let mut board = [b'.'; 9];
            board.copy_from_slice(text.as_bytes());
            assert_eq!(tree.finals.contains(&board), valid, "{text}");
        }
    }
}
