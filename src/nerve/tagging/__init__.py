"""Decoding: tag ids in, entity spans out, with every invalid transition counted or reported.

In: a block of tag ids and a `Scheme`. Out: chunks (start, end, type), transition counts and
`Problem` records, by one of the repair policies (`tagging.decode`). `tagging.conlleval_rules`
holds conlleval.pl's own chunk rules; `tagging.torch_decode` runs the decoder on torch tensors.
"""
