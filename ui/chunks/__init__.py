"""The chunks page's sections."""
