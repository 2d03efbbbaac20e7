"""The errors of the engine that every layer may raise."""


class ProblemError(ValueError):
    """A problem that cannot be built or searched: the message names the item or option
    at fault."""
