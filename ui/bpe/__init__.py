"""The bpe page's sections."""
