"""For rule authors: rulebooks and worked examples, diff, scenario files (`cassino check`, the
pre-commit hook), solve, perft, simulate and sweep, CI annotations."""
