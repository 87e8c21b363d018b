"""The data model every layer shares: spans, tagging schemes, tag vocabularies, blocks of tag ids.

In: nothing but `nerve.errors`. Out: `Span` and the columnar `SpanArray` (half-open offsets, overlaps
allowed), `Scheme` and `TagFormat` (the tag grammar), `TagVocab` (tag strings to small ids), and
`TagBlock` (the tag ids of whole sentences, as every tag reader emits them), the shared decoding rule
(`chunks`: tag ids → entity chunks); `quoting.quote` cuts quoted input in error messages to a
readable length; `arrays` names the numpy array types that annotations use (``Int``, ``Bool``...).
"""
