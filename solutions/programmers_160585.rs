//! Programmers 160585 "Tic-tac-toe played alone": can this 3x3 board occur in a game where
//! O moves first and play stops at the first three in a row?
//!
//! A board is reachable iff the counts fit (o == x or o == x + 1), at most one player has a
//! line, a player with a line moved last, and all of their lines share a cell: that cell was
//! the last mark, and removing it leaves a board with no line, which any move order reaches.

use std::io::{self, BufWriter, Read, Write};

fn solution(board: Vec<String>) -> i32 {
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
    let cells: Vec<u8> = board.iter().flat_map(|row| row.bytes()).collect();
    let count = |mark: u8| cells.iter().filter(|&&cell| cell == mark).count();
    // None if `mark` has no line, else the bitmask of cells common to all of its lines.
    let shared_cells = |mark: u8| {
        LINES
            .iter()
            .filter(|line| line.iter().all(|&i| cells[i] == mark))
            .map(|line| line.iter().fold(0u16, |mask, &i| mask | 1 << i))
            .reduce(|a, b| a & b)
    };
    let (o, x) = (count(b'O'), count(b'X'));
    if o != x && o != x + 1 {
        return 0;
    }
    let reachable = match (shared_cells(b'O'), shared_cells(b'X')) {
        (None, None) => true,
        (Some(shared), None) => o == x + 1 && shared != 0,
        (None, Some(shared)) => o == x && shared != 0,
        (Some(_), Some(_)) => false,
    };
    reachable as i32
}

fn main() {
    let mut input = String::new();
    io::stdin().read_to_string(&mut input).unwrap();
    let mut out = BufWriter::new(io::stdout().lock());
    // Each non-blank line is one board, e.g. ["O.X", ".O.", "..X"]: take the quoted parts.
    for line in input.lines().filter(|line| !line.trim().is_empty()) {
        let board = line
            .split('"')
            .skip(1)
            .step_by(2)
            .map(String::from)
            .collect();
        writeln!(out, "{}", solution(board)).unwrap();
    }
}

#[cfg(test)]
mod tests {
    use super::solution;
    use std::collections::HashSet;

    fn check(rows: [&str; 3]) -> i32 {
        solution(rows.iter().map(|row| row.to_string()).collect())
    }

    #[test]
    fn official_examples() {
        assert_eq!(check(["O.X", ".O.", "..X"]), 1);
        assert_eq!(check(["OOO", "...", "XXX"]), 0);
        assert_eq!(check(["...", ".X.", "..."]), 0);
        assert_eq!(check(["...", "...", "..."]), 1);
    }

    #[test]
    fn counts() {
        assert_eq!(check(["O..", "...", "..."]), 1);
        assert_eq!(check(["OO.", "...", "..."]), 0);
        assert_eq!(check(["OX.", "X..", "..."]), 0);
        assert_eq!(check(["OXO", "OXX", "XOO"]), 1); // full board, no line: a draw
    }

    #[test]
    fn a_win_ends_the_game() {
        assert_eq!(check(["OOO", "XX.", "..."]), 1); // O just won
        assert_eq!(check(["OOO", "XX.", "X.."]), 0); // X moved after O won
        assert_eq!(check(["XXX", "OO.", "O.."]), 1); // X just won
        assert_eq!(check(["XXX", "OO.", "OO."]), 0); // O moved after X won
        assert_eq!(check(["OOO", "XXX", "O.."]), 0); // both have a line
    }

    #[test]
    fn two_lines_through_the_last_mark() {
        assert_eq!(check(["OOO", "OXX", "OXX"]), 1); // row and column meet at the corner
        assert_eq!(check(["OXO", "XOX", "OXO"]), 1); // both diagonals meet in the centre
        assert_eq!(check(["OOO", "XOX", "XXO"]), 1); // row and diagonal meet at the corner
    }

    fn wins(b: &[u8; 9], mark: u8) -> bool {
        let at = |r: usize, c: usize| b[3 * r + c] == mark;
        (0..3).any(|i| (0..3).all(|k| at(i, k)) || (0..3).all(|k| at(k, i)))
            || (0..3).all(|k| at(k, k))
            || (0..3).all(|k| at(k, 2 - k))
    }

    fn explore(b: &mut [u8; 9], turn: u8, seen: &mut HashSet<[u8; 9]>) {
        if !seen.insert(*b) || wins(b, b'O') || wins(b, b'X') {
            return;
        }
        let next = if turn == b'O' { b'X' } else { b'O' };
        for i in 0..9 {
            if b[i] == b'.' {
                b[i] = turn;
                explore(b, next, seen);
                b[i] = b'.';
            }
        }
    }

    #[test]
    fn every_board_agrees_with_the_game_tree() {
        let mut reachable = HashSet::new();
        explore(&mut [b'.'; 9], b'O', &mut reachable);
        assert_eq!(reachable.len(), 5478);
        for code in 0..3usize.pow(9) {
            let mut b = [b'.'; 9];
            let mut rest = code;
            for cell in b.iter_mut() {
                *cell = b".OX"[rest % 3];
                rest /= 3;
            }
            let rows = b
                .chunks(3)
                .map(|row| String::from_utf8(row.to_vec()).unwrap());
            let expected = reachable.contains(&b) as i32;
            assert_eq!(
                solution(rows.collect()),
                expected,
                "{}",
                String::from_utf8_lossy(&b)
            );
        }
    }
}
