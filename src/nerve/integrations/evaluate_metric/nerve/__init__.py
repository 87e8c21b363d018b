"""The ``nerve`` metric's directory: ``evaluate.load`` of it runs ``nerve.py``, a directory's namesake.

In: evaluate's ``predictions`` and ``references`` (tag lists) and seqeval's options. Out: the dict of
`nerve.integrations.hf_evaluate.compute`.
"""
