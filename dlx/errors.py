"""The errors of the engine that every layer may raise."""


class ProblemError(ValueError):
    """A problem that cannot be built or searched: the message names the item or option
    at fault."""


class WorkerError(RuntimeError):
    """Workers that cannot run the tasks: processes that keep dying, or a Dask
    scheduler that does not answer or has no workers."""
