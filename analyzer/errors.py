"""Errors that carry a one-line message for the user."""


class InputError(ValueError):
    """Bad user input: the CLI prints the message on one line and exits with code 2."""
