//! BOJ 7682 "Tic-tac-toe": can this 3x3 board be the final state of a game where X moves
//! first and play stops at the first three in a row or when the board is full?
//!
//! Final means either: exactly one player has a line, they moved last (X: x == o + 1,
//! O: x == o), and all of their lines share a cell (the last mark); or nobody has a line and
//! the board is full.

use std::io::{self, BufWriter, Read, Write};

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

fn is_final(board: &[u8]) -> bool {
    let count = |mark: u8| board.iter().filter(|&&cell| cell == mark).count();
    // None if `mark` has no line, else the bitmask of cells common to all of its lines.
    let shared_cells = |mark: u8| {
        LINES
            .iter()
            .filter(|line| line.iter().all(|&i| board[i] == mark))
            .map(|line| line.iter().fold(0u16, |mask, &i| mask | 1 << i))
            .reduce(|a, b| a & b)
    };
    let (x, o) = (count(b'X'), count(b'O'));
    if x != o && x != o + 1 {
        return false;
    }
    match (shared_cells(b'X'), shared_cells(b'O')) {
        (None, None) => x + o == 9,
        (Some(shared), None) => x == o + 1 && shared != 0,
        (None, Some(shared)) => x == o && shared != 0,
        (Some(_), Some(_)) => false,
    }
}

fn main() {
    let mut input = String::new();
    io::stdin().read_to_string(&mut input).unwrap();
    let mut out = BufWriter::new(io::stdout().lock());
    for token in input.split_ascii_whitespace() {
        if token == "end" {
            break;
        }
        let verdict = if is_final(token.as_bytes()) {
            "valid"
        } else {
            "invalid"
        };
        writeln!(out, "{}", verdict).unwrap();
    }
}

#[cfg(test)]
mod tests {
    use super::is_final;
    use std::collections::HashSet;

    fn check(board: &str) -> bool {
        is_final(board.as_bytes())
    }

    #[test]
    fn official_example() {
        let boards = [
            "XXXOO.XXX",
            "XOXOXOXOX",
            "OXOXOXOXO",
            "XXOOOXXOX",
            "XO.OX...X",
            ".XXX.XOOO",
            "X.OO..X..",
            "OOXXXOOXO",
        ];
        let expected = [false, true, false, true, true, false, false, false];
        for (board, want) in boards.iter().zip(expected) {
            assert_eq!(check(board), want, "{}", board);
        }
    }

    #[test]
    fn unfinished_or_miscounted() {
        assert!(!check("........."));
        assert!(!check("XO......."));
        assert!(!check("XOXOXOOX.")); // no line, one cell left
        assert!(!check("OOOXX.XX.")); // O has a line but X has more marks: X moved last
        assert!(!check("XXX.OO..O")); // X has a line but counts say O moved last
    }

    #[test]
    fn wins_just_made() {
        assert!(check("XXXOO....")); // X wins on move 5
        assert!(check("OOOXX.X..")); // O wins on move 6
        assert!(check("XXOXOOXOX")); // X completes a column with the last cell
        assert!(!check("XXXOOO...")); // both have a line
    }

    #[test]
    fn two_lines_for_one_player() {
        assert!(check("XXXXOOXOO")); // row and column meet at the corner, full board
        assert!(check("XOXOXOXOX")); // both diagonals meet in the centre
        assert!(check("XXXOXOOOX")); // row and diagonal, full board
    }

    fn wins(b: &[u8; 9], mark: u8) -> bool {
        let at = |r: usize, c: usize| b[3 * r + c] == mark;
        (0..3).any(|i| (0..3).all(|k| at(i, k)) || (0..3).all(|k| at(k, i)))
            || (0..3).all(|k| at(k, k))
            || (0..3).all(|k| at(k, 2 - k))
    }

    fn explore(
        b: &mut [u8; 9],
        turn: u8,
        seen: &mut HashSet<[u8; 9]>,
        ends: &mut HashSet<[u8; 9]>,
    ) {
        if !seen.insert(*b) {
            return;
        }
        if wins(b, b'X') || wins(b, b'O') || !b.contains(&b'.') {
            ends.insert(*b);
            return;
        }
        let next = if turn == b'X' { b'O' } else { b'X' };
        for i in 0..9 {
            if b[i] == b'.' {
                b[i] = turn;
                explore(b, next, seen, ends);
                b[i] = b'.';
            }
        }
    }

    #[test]
    fn every_board_agrees_with_the_game_tree() {
        let (mut seen, mut ends) = (HashSet::new(), HashSet::new());
        explore(&mut [b'.'; 9], b'X', &mut seen, &mut ends);
        assert_eq!(seen.len(), 5478);
        assert_eq!(ends.len(), 958);
        for code in 0..3usize.pow(9) {
            let mut b = [b'.'; 9];
            let mut rest = code;
            for cell in b.iter_mut() {
                *cell = b".XO"[rest % 3];
                rest /= 3;
            }
            assert_eq!(
                is_final(&b),
                ends.contains(&b),
                "{}",
                String::from_utf8_lossy(&b)
            );
        }
    }
}
