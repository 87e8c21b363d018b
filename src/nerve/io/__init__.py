"""Readers: bytes on disk (or Python lists) in, nerve's model out.

In: CoNLL files (`io.conll`, reading lines through `io.sources` and splitting them with
`io.bytes`; `io.ranges` cuts big ones for threads), Python tag lists (`io.lists`), JSON and JSONL
span files, BIO directories. Out: blocks of tag ids (`model.blocks.TagBlock`), span columns and
entity texts. Every problem is an `InputError` that names the file and line.
"""
