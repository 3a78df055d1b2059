"""cassino: a rule language and one interpreter for Cassino and its family of fishing games."""

__version__ = "0.1.0"
