"""What a user runs: the command line, terminal play, game records, scenario checks,
perft and simulate. Optional front ends are imported lazily by the command that needs them."""
