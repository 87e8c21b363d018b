"""JSON span files: documents with their entities as offsets in, a `SpanArray` per side out.

In: nerve's JSON and JSONL documents (`jsonl`, which also holds what every span format shares:
the problems collected, the checks, `read_span_file`), their columns parsed at once
(`columns`) and big files read in pieces of whole lines (`jsonl_chunks`); nested-NER JSON
(`nested`); the JSON of nervaluate, eval4ner and nereval; and spans given in Python as lists
(`span_lists`). Out: checked `SpanArray`s, offsets in characters, half-open.
"""
