"""How the checks in tools/ end (check_doc_paths.py, fn_length.py): the problems one a line,
then a line that counts them and exit status 1; or the line that says all is well and 0.
Python 3 standard library only."""


def verdict(problems, failed, passed):
    """Prints `problems`, then `failed` (with {n}, their count) and returns 1; with none,
    prints `passed` and returns 0."""
    if problems:
        print("\n".join(problems))
        print(failed.format(n=len(problems)))
        return 1
    print(passed)
    return 0
