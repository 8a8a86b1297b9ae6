"""The languages page's sections."""
