from dlx.stopping import stop_from_the_start

stop_from_the_start()  # before the heavy imports: a Ctrl-C now is one line, exit 130

from dlx.compiling import one_blas_thread  # noqa: E402

one_blas_thread()  # before numpy is imported: its linear algebra on one thread

from puzzles.cli import main  # noqa: E402

raise SystemExit(main())
