// SWEA 11545 "Tic-Tac-Toe-Tomek": on a 4x4 board a player wins with a row, column or main
// diagonal of their symbol, where T counts for both. SW Expert Academy takes no Rust: this is
// the file to submit there (Java; the class is Solution, as SWEA compiles Solution.java).
//
// Check the ten lines for X, then for O; with no winner the game is a draw when no cell is
// empty, else not completed.

import java.io.BufferedReader;
import java.io.IOException;
import java.io.InputStreamReader;
import java.util.StringTokenizer;

public class Solution {
    static boolean wins(char[][] board, char mark) {
        boolean diagonal = true, antiDiagonal = true;
        for (int i = 0; i < 4; i++) {
            boolean row = true, column = true;
            for (int k = 0; k < 4; k++) {
                row &= owned(board[i][k], mark);
                column &= owned(board[k][i], mark);
            }
            if (row || column) return true;
            diagonal &= owned(board[i][i], mark);
            antiDiagonal &= owned(board[i][3 - i], mark);
        }
        return diagonal || antiDiagonal;
    }

    static boolean owned(char cell, char mark) {
        return cell == mark || cell == 'T';
    }

    static String verdict(char[][] board) {
        if (wins(board, 'X')) return "X won";
        if (wins(board, 'O')) return "O won";
        for (char[] row : board)
            for (char cell : row)
                if (cell == '.') return "Game has not completed";
        return "Draw";
    }

    public static void main(String[] args) throws IOException {
        BufferedReader in = new BufferedReader(new InputStreamReader(System.in));
        StringBuilder text = new StringBuilder();
        String line;
        while ((line = in.readLine()) != null) text.append(line).append('\n');
        // Tokens, so that blank lines between the boards do not matter.
        StringTokenizer tokens = new StringTokenizer(text.toString());
        int cases = Integer.parseInt(tokens.nextToken());
        StringBuilder out = new StringBuilder();
        for (int t = 1; t <= cases; t++) {
            char[][] board = new char[4][];
            for (int r = 0; r < 4; r++) board[r] = tokens.nextToken().toCharArray();
            out.append('#').append(t).append(' ').append(verdict(board)).append('\n');
        }
        System.out.print(out);
    }
}
