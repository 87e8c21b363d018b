"""Drop-in modules for users of other NER scorers: same call signatures, correct results.

In: what the peer tool takes (tag lists, entity dicts, id tensors, conlleval.pl's stdin). Out: what
it returns, in its own shapes, computed by nerve's readers, decoders, matching and metrics.
"""
