"""The identifiers page's sections."""
