"""The workspace page's sections."""
