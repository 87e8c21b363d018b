"""Writers, the other way round: nerve's entities in, files of a format out (``nerve convert``).

`tags`: flat entities encoded as tags, into CoNLL files and directories of BIO files. `spans`:
documents and their entities into JSONL files, brat directories and spaCy JSONL. Each format's
`Format` record (`nerve.io.formats`) names its writer.
"""
