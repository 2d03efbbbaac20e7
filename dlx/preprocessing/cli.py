"""``python -m dlx FILE --preprocess`` and ``--write-preprocessed OUT.dlx``: the file's
problem reduced as Knuth's DLX-PRE reduces it (``dlx.preprocess``) before the search.

``--preprocess`` searches the reduced problem (a count, or the solutions, each printed
as the original file's options: the reduced problem's solutions are the original's,
one for one) and says on stderr what preprocessing removed.
``--write-preprocessed OUT.dlx`` writes the reduced problem in Knuth's format (``-``:
standard output) and stops, or, with ``--count``, counts it too. Either way an output
that names the input is refused, in one line with exit status 2.
"""

from __future__ import annotations

import sys

from dlx.dlxfile import write
from dlx.outputs import OutputError, Outputs, open_text
from dlx.preprocessing.reduce import preprocess


def add_arguments(parser) -> None:
    """The flags of preprocessing."""
    parser.add_argument(
        "--preprocess",
        action="store_true",
        help="first remove the options and items that Knuth's DLX-PRE removes (same "
        "solutions); stderr says what went",
    )
    parser.add_argument(
        "--write-preprocessed",
        metavar="OUT",
        default=None,
        help="write the preprocessed problem to OUT in the .dlx format (- for stdout) "
        "and stop (with --count: count it too)",
    )


def wanted(request) -> bool:
    """Whether the flags ask for preprocessing."""
    return request.preprocess or request.write_preprocessed is not None


def bad_arguments(request) -> str | None:
    """What is wrong with the flags of preprocessing beside the others, if anything."""
    if not wanted(request):
        return None
    flag = "--preprocess" if request.preprocess else "--write-preprocessed"
    for other, given in (
        ("--best", request.best is not None),
        ("--certificate", request.certificate is not None),
        ("--sample", request.sample is not None),
        ("--nth", request.nth is not None),
    ):
        if given:
            return f"{flag} goes with counting and listing solutions: no {other}"
    out = request.write_preprocessed
    if out == "-" and request.count:
        return "--write-preprocessed - writes on standard output: no --count"
    try:
        paths = {"--checkpoint": request.checkpoint, "--write-preprocessed": out}
        outputs = Outputs(paths, [request.file])
        outputs.check()
        outputs.check_writable("--write-preprocessed")
    except OutputError as e:
        return str(e)
    return None


def run(problem, request):
    """Preprocess ``problem`` as the flags ask: ``(reduced problem, kept, stop)``, where
    ``kept[k]`` is the original option of option ``k`` and ``stop`` says the command is
    done (the file written, nothing to count). Errors (ProblemError, OutputError) go to
    the caller."""
    reduced, reduction = preprocess(problem)
    print(reduction, file=sys.stderr)
    out = request.write_preprocessed
    if out is not None:
        label = "<stdin>" if request.file == "-" else request.file
        text = write(reduced, comment=f"{label}: {reduction} (the rules of Knuth's DLX-PRE)")
        if out == "-":
            sys.stdout.write(text)
        else:
            with open_text(out) as f:
                f.write(text)
    return reduced, reduction.kept, out is not None and not request.count
