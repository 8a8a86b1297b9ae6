import os


def load_settings(config_path):
    values = {}
    with open(config_path) as handle:
        for raw_line in handle:
            key_name, _, setting_value = raw_line.partition("=")
            values[key_name.strip()] = setting_value.strip()
    return values


def save_settings(settings_map, target_path):
    """Write settings back. This docstring is never closed, so hiddenAfterDocstring
    and everything below is inside the string for Python.

    fake_function_name(argument)
