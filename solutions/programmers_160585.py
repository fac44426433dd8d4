# Programmers 160585 "Tic-tac-toe played alone": can this 3x3 board occur in a game where O
# moves first and play stops at the first three in a row? Programmers takes no Rust: this is
# the file to submit there. The judge calls solution(board); paste everything above the
# adapter line (`judge check solutions/programmers_160585.py` prints it).
#
# A board is reachable iff the counts fit (o == x or o == x + 1), at most one player has a
# line, a player with a line moved last, and all of their lines share a cell (the last mark).

LINES = [(0, 1, 2), (3, 4, 5), (6, 7, 8), (0, 3, 6), (1, 4, 7), (2, 5, 8), (0, 4, 8), (2, 4, 6)]


def solution(board):
    cells = "".join(board)
    o, x = cells.count("O"), cells.count("X")
    if o != x and o != x + 1:
        return 0

    def shared(mark):
        # None if mark has no line, else the cells common to all of its lines.
        lines = [set(line) for line in LINES if all(cells[i] == mark for i in line)]
        return set.intersection(*lines) if lines else None

    o_lines, x_lines = shared("O"), shared("X")
    if o_lines is not None and x_lines is not None:
        return 0
    if o_lines is not None:
        return int(o == x + 1 and len(o_lines) > 0)
    if x_lines is not None:
        return int(o == x and len(x_lines) > 0)
    return 1


# --- stdin adapter: not submitted. Each non-blank line is one board written as the judge
# prints the parameter, e.g. ["O.X", ".O.", "..X"]; the quoted parts are the rows.
if __name__ == "__main__":
    import sys

    answers = []
    for line in sys.stdin.read().splitlines():
        if line.strip():
            answers.append(str(solution(line.split('"')[1::2])))
    print("\n".join(answers))
