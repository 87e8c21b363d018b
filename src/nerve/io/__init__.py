"""Readers: bytes on disk (or Python lists) in, nerve's model out.

In: CoNLL files (`io.conll`, reading lines through `io.sources` and splitting them with `io.bytes`;
`io.ranges` cuts big ones for threads), Python tag lists (`io.lists`), span files (JSON/JSONL,
nereval, nervaluate, eval4ner; `io.spans`; big JSONL files in pieces of whole lines,
`io.jsonl_chunks`), annotation tools' files (brat standoff directories,
`io.brat_files` and `io.brat`; doccano, `io.doccano`; Label Studio, `io.labelstudio`; their
offsets and texts, `io.offsets`), BIO directories (`io.bio_dirs`). Out: blocks of tag ids
(`model.blocks.TagBlock`), `SpanArray` pairs, and tagged lines for `nerve.tagging.texts` to decode.
Every problem is an `InputError` that names the file and line.

Each input format is one `io.format.Format` record, in its module of `io.formats`: its name, how
it is sniffed, its readers, its writer and its options; `io.formats.FORMATS` lists them, and the
readers, the checks and the command's choices are made from that list.
"""
