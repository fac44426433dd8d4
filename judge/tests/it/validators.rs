//! Problems' input validators (`problems/<id>/validator.*`): ours encode their statements'
//! constraints, and no command lets an input they reject into a corpus.

use std::fs;

use crate::common::*;

use predicates::prelude::*;

/// An illegal input for each of our problems, and the validator's line about it.
const ILLEGAL: [(&str, &str, &str); 4] = [
    // X has won with three X and three O: X wins only right after its own move.
    (
        "swea_11545",
        "1\nTXXX\n....\n...O\n.OO.\n",
        "line 2: board 1 is not a state that play reaches",
    ),
    (
        "boj_7682",
        "XXXOO.XXX\n",
        "line 1: the last line must be `end`",
    ),
    (
        "programmers_160585",
        "[\"O.X\", \".O.\", \"..Y\"]\n",
        "line 1: expected three of O, X, . in a row",
    ),
    // Eighteen rows.
    ("boj_2615", "", "line 19: expected 19 rows, got 18"),
];

#[test]
fn an_illegal_input_is_refused_for_each_of_our_problems_and_nothing_is_written() {
    let row = format!("{}0\n", "0 ".repeat(18));
    for (id, input, said) in ILLEGAL {
        let input = match id {
            "boj_2615" => row.repeat(18),
            _ => input.to_owned(),
        };
        let repository = copy_of_problem(id);
        let file = repository.path().join("illegal.in");
        fs::write(&file, &input).unwrap();
        let before = snapshot(&repository.path().join("problems"));
        judge_in(repository.path())
            .args(["add", id, "--from-reference", "--input"])
            .arg(&file)
            .assert()
            .code(1)
            .stderr(predicate::str::contains("not a legal input"))
            .stderr(predicate::str::contains(said));
        assert_eq!(
            snapshot(&repository.path().join("problems")),
            before,
            "{id}"
        );
    }
}

#[test]
fn a_solution_right_on_every_legal_board_is_accepted_on_swea_11545() {
    // Published answers decide by whose turn it is: only the player who moved last can have
    // won. Right on every board play reaches, wrong on boards it does not.
    let by_turn = "import sys\n\
        LINES = [[r * 4 + c for c in range(4)] for r in range(4)] + \
        [[r * 4 + c for r in range(4)] for c in range(4)] + [[0, 5, 10, 15], [3, 6, 9, 12]]\n\
        data = sys.stdin.read().split()\n\
        out = []\n\
        for k in range(int(data[0])):\n\
        \x20   board = ''.join(data[1 + 4 * k: 5 + 4 * k])\n\
        \x20   last = 'X' if board.count('X') > board.count('O') else 'O'\n\
        \x20   won = any(all(board[i] in (last, 'T') for i in line) for line in LINES)\n\
        \x20   if won:\n\
        \x20       out.append(f'#{k + 1} {last} won')\n\
        \x20   elif '.' in board:\n\
        \x20       out.append(f'#{k + 1} Game has not completed')\n\
        \x20   else:\n\
        \x20       out.append(f'#{k + 1} Draw')\n\
        print('\\n'.join(out))\n";
    let repository = copy_of_problem("swea_11545");
    let solution = repository.path().join("by_turn.py");
    fs::write(&solution, by_turn).unwrap();
    let accepted = stdout_of(
        judge_in(repository.path())
            .args(["run", "swea_11545", "--solution"])
            .arg(&solution),
        0,
    );
    assert!(accepted.contains("11/11 accepted"), "{accepted}");
    // The same answer on a board outside the guarantee is wrong: the corpus must hold none.
    let outside = repository
        .path()
        .join("problems/swea_11545/tests/outside.in");
    fs::write(&outside, "1\nTXXX\n....\n...O\n.OO.\n").unwrap();
    fs::write(outside.with_extension("out"), "#1 X won\n").unwrap();
    let judged = judge_in(repository.path())
        .args(["run", "swea_11545", "--validate", "--solution"])
        .arg(&solution)
        .assert()
        .code(2)
        .get_output()
        .clone();
    let stderr = String::from_utf8_lossy(&judged.stderr);
    assert!(
        stderr.contains("tests/outside.in: not a legal input")
            && stderr.contains("board 1 is not a state that play reaches"),
        "{stderr}"
    );
}

#[test]
fn a_generator_that_makes_an_illegal_input_is_named_and_nothing_is_written() {
    let repository = tempfile::tempdir().unwrap();
    let root = repository.path();
    fs::create_dir(root.join("problems")).unwrap();
    new_with_recipe(root, "sum");
    // A validator in C++ (any language the judge builds will do) that includes a header from
    // beside it, as a testlib validator includes `testlib.h`.
    fs::remove_file(root.join("problems/sum/validator.rs")).unwrap();
    fs::write(
        root.join("problems/sum/bounds.h"),
        "const long LARGEST = 5;\n",
    )
    .unwrap();
    fs::write(
        root.join("problems/sum/validator.cpp"),
        "#include <cstdio>\n#include \"bounds.h\"\nint main() {\n  long x;\n\
         \x20 while (std::scanf(\"%ld\", &x) == 1)\n\
         \x20   if (x > LARGEST) { std::fprintf(stderr, \"line 1: %ld is over 5\\n\", x); return 1; }\n\
         }\n",
    )
    .unwrap();
    let before = snapshot(&root.join("problems"));
    judge_in(root)
        .args(["gen", "sum"])
        .assert()
        .code(1)
        .stderr(predicate::str::contains("not a legal input"))
        .stderr(predicate::str::contains("validator.cpp says"))
        .stderr(predicate::str::contains("is over 5"));
    assert_eq!(snapshot(&root.join("problems")), before);
}

#[test]
fn a_validator_gets_the_arguments_problem_toml_gives_the_cases_group() {
    let repository = tempfile::tempdir().unwrap();
    let root = repository.path();
    fs::create_dir(root.join("problems")).unwrap();
    new_with_recipe(root, "sum");
    let problem = root.join("problems/sum");
    fs::remove_file(problem.join("validator.rs")).unwrap();
    fs::write(
        problem.join("validator.py"),
        "import sys\nlargest = int(sys.argv[1])\nfor token in sys.stdin.read().split():\n\
         \x20   if int(token) > largest:\n\
         \x20       sys.exit(f'line 1: {token} is over {largest}')\n",
    )
    .unwrap();
    let metadata = fs::read_to_string(problem.join("problem.toml")).unwrap();
    fs::write(
        problem.join("problem.toml"),
        format!("{metadata}\n[validator_args]\nsmall = [\"5\"]\n\"*\" = [\"100\"]\n"),
    )
    .unwrap();
    let add = |name: &str| {
        let mut command = judge_in(root);
        command
            .args(["add", "sum", "--from-reference", "--name", name])
            .write_stdin("7\n");
        command.assert()
    };
    add("small/1")
        .code(1)
        .stderr(predicate::str::contains("7 is over 5"));
    add("large/1").code(0);
    assert!(problem.join("tests/large/1.in").is_file());
    assert!(!problem.join("tests/small/1.in").exists());
}
