"""The built-in shallow discourse parser: connectives, argument position, arguments, senses."""
