"""The compiled engine's functions (csrc/): their types, for mypy; `nerve._engine` loads the module."""

def abi() -> int:
    """The ``Py_LIMITED_API`` version the module was compiled against."""
