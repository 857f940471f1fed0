#!/usr/bin/env python3
"""Round trip of a Mollett opening book through Edax 4.6.

Usage: scripts/edax-book-check.py EDAX_DIR [--book BOOK.mlb] [--lines N] [--seed S]

EDAX_DIR is an Edax 4.6 built from its public source (github.com/abulmo/edax-reversi),
with bin/ and data/ under it; its evaluation does not matter here. The check:
  1. `mollett book export` writes the book as an Edax book.dat;
  2. `mollett book lines` walks random lines along the book's moves (seeded,
     4 to 24 plies, within 1.5 discs of the best); the first N that end in a position of the book are kept;
  3. Edax loads the exported book (book randomness 0) and is asked to play at
     the end of each line: its move must be one of the book's best (the same
     value in whole discs), marked as a book move;
  4. Edax saves the book it loaded (`book save`), `mollett book import` reads
     that file back, and each sampled position must have the same best value.
Prints the counts; exits 1 if any position disagrees.
Needs a release build (`cargo build --release`); nothing of Edax goes into
the repository.
"""
import argparse
import os
import re
import subprocess
import sys
import tempfile

HERE = os.path.dirname(os.path.abspath(__file__))
MOLLETT = os.path.join(HERE, "..", "target", "release", "mollett")


def mollett(*args):
    return subprocess.run([MOLLETT, *args], check=True, capture_output=True, text=True).stdout


def hints(book_args, line):
    """The book's moves after `line`: [(square, value in discs)], best first."""
    out = mollett("book", "show", *book_args, line) if line else mollett("book", "show", *book_args)
    moves = []
    for row in out.splitlines():
        parts = row.split()
        if len(parts) >= 2 and re.fullmatch(r"[a-h][1-8]", parts[0]):
            moves.append((parts[0], float(parts[1])))
    return moves


def discs(v):
    """A value in discs rounded as the export rounds (halves away from zero)."""
    return int(abs(v) + 0.5 + 1e-9) * (1 if v >= 0 else -1)


def main():
    ap = argparse.ArgumentParser()
    ap.add_argument("edax_dir")
    ap.add_argument("--book", default=None)
    ap.add_argument("--lines", type=int, default=200)
    ap.add_argument("--seed", type=int, default=1)
    a = ap.parse_args()
    book_args = ["--book", a.book] if a.book else []
    work = tempfile.mkdtemp(prefix="edax-book-")
    exported = os.path.join(work, "mollett.dat")
    print(mollett("book", "export", *([a.book] if a.book else []), "--out", exported).strip())

    lines = mollett("book", "lines", *book_args, "--count", str(a.lines * 8), "--min-plies", "4", "--max-plies", "24", "--deviation", "1.5",
                    "--seed", str(a.seed)).split()
    samples = []  # (line, best value in discs, {squares of that value})
    for line in lines:
        if len(samples) == a.lines:
            break
        hs = hints(book_args, line)
        if not hs:
            continue  # the line ends the book: no move to ask for
        best = discs(hs[0][1])
        samples.append((line, best, {sq for sq, v in hs if discs(v) == best}))

    saved = os.path.join(work, "edax-saved.dat")
    script = "".join(f"init\nplay {line}\ngo\n" if line else "init\ngo\n" for line, _, _ in samples)
    script += f"book save {saved}\n"
    edax = os.path.join(a.edax_dir, "bin", "lEdax-x86-64-v3")
    proc = subprocess.Popen(
        [edax, "-n", "1", "-l", "1", "-book-file", exported, "-book-usage", "on", "-book-randomness", "0"],
        cwd=a.edax_dir, stdin=subprocess.PIPE, stdout=subprocess.PIPE, stderr=subprocess.STDOUT, text=True)
    # Edax reads its input on a thread of its own: `q` must come after the rest is done.
    import threading, time
    def feed():
        proc.stdin.write(script)
        proc.stdin.flush()
        time.sleep(10 + len(samples) * 0.02)
        proc.stdin.write("q\n")
        proc.stdin.close()
    threading.Thread(target=feed).start()
    out = proc.stdout.read()
    proc.wait()
    # Each answer: the text since the last one, with Edax's "book" line when
    # the move came from its book, then "Edax plays XX".
    answers = re.findall(r"((?:(?!Edax plays).)*?)Edax plays (\S+)", out, re.S)
    bad = 0
    from_book = 0
    for (line, best, squares), (before, move) in zip(samples, answers):
        scores = re.findall(r"^book\s+([+-]?\d+)", before, re.M)
        from_book += bool(scores)
        if move.lower() not in squares or (scores and int(scores[-1]) != best):
            bad += 1
            print(f"  after '{line}': Edax plays {move} {scores}, the book's best {sorted(squares)} {best:+d}")
    bad += len(samples) - len(answers)
    print(f"positions asked {len(samples)}; Edax answered {len(answers)}, {from_book} marked as book moves;"
          f" the book's best value {len(answers) - bad} times")

    imported = os.path.join(work, "imported.mlb")
    print(mollett("book", "import", saved, "--out", imported).strip())
    back = 0
    for line, best, squares in samples:
        hs = hints(["--book", imported], line)
        if hs and discs(hs[0][1]) == best and hs[0][0] in squares:
            back += 1
        else:
            bad += 1
            print(f"  after '{line}': imported {hs[:3]}, the book's best {sorted(squares)} {best:+d}")
    print(f"the book Edax saved, imported: {back} of {len(samples)} positions with the same best")
    print(f"files in {work}")
    sys.exit(1 if bad else 0)


if __name__ == "__main__":
    main()
