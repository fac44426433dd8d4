//! SWEA 11545 "Tic-Tac-Toe-Tomek" (Code Jam 2013 Qualification A): on a 4x4 board a player
//! wins with a row, column or main diagonal of their symbol, where `T` counts for both.
//!
//! Check the ten lines for X, then for O; with no winner the game is a draw when no cell is
//! empty, else not completed.

use std::io::{self, BufWriter, Read, Write};

fn verdict(rows: &[&str]) -> &'static str {
    let wins = |mark: u8| {
        let owned = |r: usize, c: usize| {
            let cell = rows[r].as_bytes()[c];
            cell == mark || cell == b'T'
        };
        (0..4).any(|i| (0..4).all(|k| owned(i, k)) || (0..4).all(|k| owned(k, i)))
            || (0..4).all(|k| owned(k, k))
            || (0..4).all(|k| owned(k, 3 - k))
    };
    if wins(b'X') {
        "X won"
    } else if wins(b'O') {
        "O won"
    } else if rows.iter().any(|row| row.contains('.')) {
        "Game has not completed"
    } else {
        "Draw"
    }
}

fn main() {
    let mut input = String::new();
    io::stdin().read_to_string(&mut input).unwrap();
    let mut out = BufWriter::new(io::stdout().lock());
    let mut tokens = input.split_ascii_whitespace();
    let cases: usize = tokens.next().unwrap().parse().unwrap();
    for case in 1..=cases {
        let rows: Vec<&str> = tokens.by_ref().take(4).collect();
        writeln!(out, "#{} {}", case, verdict(&rows)).unwrap();
    }
}

#[cfg(test)]
mod tests {
    use super::verdict;

    #[test]
    fn official_example() {
        let boards = [
            ["XXXT", "....", "OO..", "...."],
            ["XOXT", "XXOO", "OXOX", "XXOO"],
            ["XOX.", "OX..", "....", "...."],
            ["OOXX", "OXXX", "OX.T", "O..O"],
            ["XXXO", "..O.", ".O..", "T..."],
            ["OXXX", "XO..", "..O.", "...O"],
        ];
        let expected = [
            "X won",
            "Draw",
            "Game has not completed",
            "O won",
            "O won",
            "O won",
        ];
        for (board, want) in boards.iter().zip(expected) {
            assert_eq!(verdict(board), want, "{:?}", board);
        }
    }

    #[test]
    fn t_counts_for_either_player_but_only_once() {
        assert_eq!(verdict(&["T...", "X...", "X...", "X..."]), "X won");
        assert_eq!(verdict(&["...T", "..O.", ".O..", "O..."]), "O won");
        assert_eq!(
            verdict(&["XXTO", "....", "....", "...."]),
            "Game has not completed"
        );
        assert_eq!(verdict(&["OOTX", "XXOO", "OOXX", "XXOO"]), "Draw");
    }

    #[test]
    fn every_line_counts() {
        assert_eq!(verdict(&["....", "....", "....", "OOOO"]), "O won");
        assert_eq!(verdict(&["..X.", "..X.", "..X.", "..X."]), "X won");
        assert_eq!(verdict(&["X...", ".X..", "..X.", "...T"]), "X won");
        assert_eq!(verdict(&["...X", "..X.", ".X..", "X..."]), "X won");
        assert_eq!(
            verdict(&["OOO.", "XXX.", "....", "...."]),
            "Game has not completed"
        );
    }

    #[test]
    fn full_board_without_a_line_is_a_draw() {
        assert_eq!(verdict(&["XOXO", "XOXO", "OXOX", "OXOX"]), "Draw");
        assert_eq!(
            verdict(&["XOXO", "XOXO", "OXOX", "OXO."]),
            "Game has not completed"
        );
    }
}
