def outer_function(first_arg):
    if first_arg:
        result_value = first_arg * 2
      misaligned_name = result_value + 1
    message_text = 'unterminated hiddenInBrokenString
    return misaligned_name, message_text
