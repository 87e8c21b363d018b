"""Analysis: why the number is what it is.

In: both sides of a scored corpus (`aligned.Aligned`: entities as `SpanArray` columns, with the
sentence, document, line and word of every token for tagged input). Out: typed results with
`to_dict()`: an error category for every entity (`errors`), the confusion matrix of types in two
views (`confusion`), percentile bootstrap intervals of every score from per-unit counts
(`bootstrap`), and paired tests of systems against a baseline (`compare`). The error analysis
uses the one optimal matching of `nerve.matching.overlap`; the statistics use exact matches.
"""
