"""Annotation tools' files: their documents, texts and offsets in, a `SpanArray` per side out.

In: brat standoff directories (`brat_files` finds and pairs the documents, `brat` reads one
``.ann`` against its text, `brat_batch` reads plain ones all at once, `brat_attributes` keeps
attributes and normalisations), doccano's JSONL and Label Studio's JSON exports (`doccano`,
`labelstudio`), and spaCy's DocBins and JSONL (`spacy`). Offsets in UTF-8 bytes or UTF-16 code
units are moved to characters (`nerve.io.offsets`). Out: checked `SpanArray`s, and each
document's text for the reports.
"""
