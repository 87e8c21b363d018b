"""Readers: bytes on disk (or Python lists) in, nerve's model out.

In: CoNLL files, tag lists, JSON and JSONL span files, BIO directories. Out: blocks of tag ids
(`io.conll.TagBlock`), span columns and entity texts. Every problem is an `InputError` that names
the file and line.
"""
