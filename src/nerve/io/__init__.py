"""Readers: bytes on disk (or Python lists) in, nerve's model out; and the writers back.

A file's format is one `format.Format` record in `formats/` (`formats.FORMATS` lists them;
`sniff` picks one from a file's first bytes; `spans` holds the entry points that read a span
file of any format). The readers, by kind:

- `tags/`: tag columns. CoNLL files (reading lines through `sources` and splitting them with
  `bytes`; `tags.ranges` cuts big ones for threads), Python tag lists, BIO directories, HIPE,
  CoNLL-U and Hugging Face datasets. Out: blocks of tag ids (`model.blocks.TagBlock`), tagged
  lines for `nerve.tagging.texts` to decode, or spans.
- `json/`: JSON span files. nerve's JSON/JSONL (big files in pieces of whole lines,
  `json.jsonl_chunks`), nested-NER JSON, nervaluate's, eval4ner's and nereval's JSON, and
  spans given as Python lists. Out: a `SpanArray` per side.
- `tools/`: annotation tools' files. brat standoff directories, doccano, Label Studio and
  spaCy. Out: a `SpanArray` per side, and the documents' texts.
- `write/`: the way back, entities into CoNLL, BIO, JSONL, brat and spaCy JSONL files.

What they share stays here: `bytes` (fields, interning), `sources` (files to complete lines),
`offsets` and `unit_offsets` (texts and offsets), `lenient` (entity texts that differ),
`progress` (bytes read, for a callback), `reader_options` and `label_maps` (options of the
readers). Every problem is an `InputError` that names the file and line.
"""
