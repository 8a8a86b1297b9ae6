"""The BPE playground's sections, top to bottom: options (the form and its limits), corpus (presets,
the size limit), training, steps (stepping through the merges), words, probe, use (as a tokenizer,
saved, loaded); model keeps the model in the session."""
