"""Tag columns: files of one tag per token in, blocks of tag ids (or their entities) out.

In: CoNLL files (`conll`; their lines classified and checked in `conll_lines`, a gold and a
prediction file paired in `conll_align`, the column delimiter sniffed in `delimiters`, big files
cut for threads in `ranges`, fields made ids in `tag_ids`), Python tag lists (`lists`), BIO
directories (`bio_dirs`, many small files read by `_read_files`), HIPE TSV (`hipe`) and CoNLL-U
(`conllu`), whose tag columns `tag_columns` decodes and `column_pairs` pairs, and Hugging Face
datasets (`hf`, their files in `hf_files`). Out: `TagBlock`s of tag ids, tagged lines for
`nerve.tagging.texts`, and for HIPE and CoNLL-U a `SpanArray` per side.
"""
