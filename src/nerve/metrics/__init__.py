"""Metrics: matched spans in, additive counts and scores out.

`metrics.exact` counts exact matches block by block (the transitions the scheme is inferred from in
`metrics.transitions`), `metrics.muc` the MUC-5 / SemEval-2013 modes
(their counts and scores in `metrics.muc_counts`), `metrics.discontinuous` exact scores over
discontinuous entities only, and `metrics.text` the order-independent text metrics of noisy
transcriptions. Counts add up across shards; scores are fractions in 0..1.
"""
