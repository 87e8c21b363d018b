"""Drop-in modules for users of other NER scorers: same call signatures, correct results."""
