import sys


def main():
    tokens = sys.stdin.read().split()
    cases, at = int(tokens[0]), 1
    out = []
    for case in range(1, cases + 1):
        # Read this case's input from `tokens` here.
        n = int(tokens[at])
        answer = sum(int(token) for token in tokens[at + 1 : at + 1 + n])
        at += 1 + n
        out.append(f"#{case} {answer}")
    print("\n".join(out))


main()
