"""The data model every layer shares: spans, tagging schemes, tag vocabularies.

In: nothing but `nerve.errors`. Out: `Span` and the columnar `SpanArray` (half-open offsets, overlaps
allowed), `Scheme` and `TagFormat` (the tag grammar), and `TagVocab` (tag strings to small ids).
"""
