from dlx.stopping import stop_from_the_start

stop_from_the_start()  # before the heavy imports: a Ctrl-C now is one line, exit 130

from dlx.cli import main  # noqa: E402

raise SystemExit(main())
