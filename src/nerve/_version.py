"""The version of nerve, printed in every signature."""

__version__ = "0.1.0"
